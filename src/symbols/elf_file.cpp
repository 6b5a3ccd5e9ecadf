#include "elf_file.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

#include "readperf/symbols/symbol_files.h"

namespace readperf {

namespace {

bool init_libelf() {
  static const bool ok = elf_version(EV_CURRENT) != EV_NONE;
  return ok;
}

size_t note_align(size_t n) { return (n + 3) & ~size_t{3}; }

}  // namespace

Result<ElfFile> ElfFile::open(const std::string& path) {
  if (!init_libelf()) return make_error("libelf: version mismatch");
  int fd = open_symbol_file(path);
  if (fd < 0) return make_error(fmt::format("{}: {}", path, std::strerror(errno)));
  ElfFile f;
  f.path_ = path;
  f.fd_ = fd;
  f.elf_ = elf_begin(fd, ELF_C_READ_MMAP, nullptr);
  RETURN_IF_ERROR(f.init());
  return f;
}

Result<ElfFile> ElfFile::from_memory(const std::string& name, std::vector<char> image) {
  if (!init_libelf()) return make_error("libelf: version mismatch");
  ElfFile f;
  f.path_ = name;
  f.image_ = std::make_unique<std::vector<char>>(std::move(image));
  f.elf_ = elf_memory(f.image_->data(), f.image_->size());
  RETURN_IF_ERROR(f.init());
  return f;
}

Status ElfFile::init() {
  if (elf_ == nullptr || elf_kind(elf_) != ELF_K_ELF) {
    return make_error(fmt::format("{}: not an ELF file", path_));
  }
  if (gelf_getehdr(elf_, &ehdr_) == nullptr) {
    return make_error(fmt::format("{}: cannot read the ELF header", path_));
  }
  // symsrc__init(): a section only counts when its type is right too.
  symtab_ = section(".symtab", &symshdr_);
  if (symtab_ && symshdr_.sh_type != SHT_SYMTAB) symtab_ = nullptr;
  dynsym_ = section(".dynsym", &dynshdr_, &dynsym_idx_);
  if (dynsym_ && dynshdr_.sh_type != SHT_DYNSYM) dynsym_ = nullptr;
  return {};
}

ElfFile::ElfFile(ElfFile&& o) noexcept { *this = std::move(o); }

ElfFile& ElfFile::operator=(ElfFile&& o) noexcept {
  if (this != &o) {
    reset();
    path_ = std::move(o.path_);
    fd_ = std::exchange(o.fd_, -1);
    image_ = std::move(o.image_);
    elf_ = std::exchange(o.elf_, nullptr);
    ehdr_ = o.ehdr_;
    symtab_ = std::exchange(o.symtab_, nullptr);
    symshdr_ = o.symshdr_;
    dynsym_ = std::exchange(o.dynsym_, nullptr);
    dynshdr_ = o.dynshdr_;
    dynsym_idx_ = o.dynsym_idx_;
  }
  return *this;
}

ElfFile::~ElfFile() { reset(); }

void ElfFile::reset() {
  if (elf_) elf_end(elf_);
  if (fd_ >= 0) ::close(fd_);
  image_.reset();
  elf_ = nullptr;
  fd_ = -1;
}

Elf_Scn* ElfFile::section(const char* name, GElf_Shdr* shdr, size_t* index) const {
  size_t shstrndx;
  if (elf_getshdrstrndx(elf_, &shstrndx) != 0) return nullptr;
  // A truncated file may lack the string table: do not ask elf_strptr then.
  if (!elf_rawdata(elf_getscn(elf_, shstrndx), nullptr)) return nullptr;
  Elf_Scn* sec = nullptr;
  while ((sec = elf_nextscn(elf_, sec)) != nullptr) {
    if (gelf_getshdr(sec, shdr) == nullptr) continue;
    const char* s = elf_strptr(elf_, shstrndx, shdr->sh_name);
    if (s && std::strcmp(s, name) == 0) {
      if (index) *index = elf_ndxscn(sec);
      return sec;
    }
  }
  return nullptr;
}

const char* ElfFile::section_name(const GElf_Shdr& shdr) const {
  size_t shstrndx;
  if (elf_getshdrstrndx(elf_, &shstrndx) != 0) return "";
  const char* s = elf_strptr(elf_, shstrndx, shdr.sh_name);
  return s ? s : "";
}

Result<BuildId> ElfFile::build_id() const {
  GElf_Shdr shdr;
  Elf_Scn* sec = section(".note.gnu.build-id", &shdr);
  if (!sec) sec = section(".notes", &shdr);
  if (!sec) sec = section(".note", &shdr);  // the vdso's
  if (!sec) return make_error(fmt::format("{}: no build-id note", path_));
  Elf_Data* data = elf_getdata(sec, nullptr);
  if (!data || !data->d_buf) return make_error(fmt::format("{}: no build-id note", path_));
  const auto* p = static_cast<const uint8_t*>(data->d_buf);
  size_t size = data->d_size, pos = 0;
  // libelf has converted the note headers to host order.
  while (size - pos >= sizeof(GElf_Nhdr)) {
    GElf_Nhdr nhdr;
    std::memcpy(&nhdr, p + pos, sizeof nhdr);
    pos += sizeof nhdr;
    size_t namesz = note_align(nhdr.n_namesz), descsz = note_align(nhdr.n_descsz);
    if (namesz > size - pos || descsz > size - pos - namesz) break;
    if (nhdr.n_type == NT_GNU_BUILD_ID && nhdr.n_namesz == 4 &&
        std::memcmp(p + pos, "GNU", 4) == 0) {
      return BuildId::from_bytes(std::span(p + pos + namesz, nhdr.n_descsz));
    }
    pos += namesz + descsz;
  }
  return make_error(fmt::format("{}: no build-id note", path_));
}

std::optional<std::string> ElfFile::debuglink() const {
  GElf_Shdr shdr;
  Elf_Scn* sec = section(".gnu_debuglink", &shdr);
  if (!sec) return std::nullopt;
  Elf_Data* data = elf_getdata(sec, nullptr);
  if (!data || !data->d_buf || data->d_size == 0) return std::nullopt;
  // The section starts with a NUL-terminated file name (then padding and a CRC).
  const char* s = static_cast<const char*>(data->d_buf);
  return std::string(s, strnlen(s, data->d_size));
}

}  // namespace readperf
