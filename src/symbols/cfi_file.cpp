// The call-frame information of one ELF file (CfiFile): its .eh_frame (through .eh_frame_hdr,
// as perf's find_proc_info() reads it) and .debug_frame, its PT_LOAD segments and raw bytes;
// UnwindCfiCache keeps them open by path.
#include <gelf.h>

#include <algorithm>
#include <cstring>

#include "cfi_file_impl.h"
#include "readperf/symbols/dwarf_unwind.h"
#include "readperf/symbols/symbol_files.h"

namespace readperf {

CfiFile::CfiFile(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
CfiFile::~CfiFile() = default;

std::unique_ptr<CfiFile> CfiFile::open(const std::string& path) {
  elf_version(EV_CURRENT);
  auto impl = std::make_unique<Impl>();
  impl->fd = open_symbol_file(path);
  if (impl->fd < 0) return nullptr;
  impl->elf = elf_begin(impl->fd, ELF_C_READ_MMAP, nullptr);
  if (!impl->elf || elf_kind(impl->elf) != ELF_K_ELF) return nullptr;
  GElf_Ehdr ehdr;
  if (gelf_getehdr(impl->elf, &ehdr)) {
    impl->type = ehdr.e_type;
    impl->machine = ehdr.e_machine;
  }
  impl->is_64bit = gelf_getclass(impl->elf) == ELFCLASS64;
  impl->image = elf_rawfile(impl->elf, &impl->image_size);
  size_t phnum = 0;
  if (elf_getphdrnum(impl->elf, &phnum) == 0) {
    for (size_t i = 0; i < phnum; ++i) {
      GElf_Phdr ph;
      if (gelf_getphdr(impl->elf, static_cast<int>(i), &ph) && ph.p_type == PT_LOAD) {
        impl->loads.push_back({ph.p_offset, ph.p_vaddr, ph.p_filesz});
      }
    }
  }
  // perf's find_proc_info() reads .eh_frame through .eh_frame_hdr (read_unwind_spec_eh_frame()
  // wants a section of that name at a non-zero offset) and falls back to .debug_frame.
  size_t shstrndx = 0;
  if (elf_getshdrstrndx(impl->elf, &shstrndx) == 0) {
    for (Elf_Scn* scn = elf_nextscn(impl->elf, nullptr); scn; scn = elf_nextscn(impl->elf, scn)) {
      GElf_Shdr sh;
      if (!gelf_getshdr(scn, &sh) || sh.sh_offset == 0 || sh.sh_type == SHT_NOBITS) continue;
      const char* name = elf_strptr(impl->elf, shstrndx, sh.sh_name);
      if (!name) continue;
      if (std::strcmp(name, ".eh_frame_hdr") == 0) impl->eh_frame_hdr = true;
      if (std::strcmp(name, ".debug_frame") == 0) impl->debug_frame_section = true;
    }
  }
  if (impl->eh_frame_hdr) impl->eh_frame = dwarf_getcfi_elf(impl->elf);
  if (impl->debug_frame_section) {
    impl->dwarf = dwarf_begin_elf(impl->elf, DWARF_C_READ, nullptr);
    if (impl->dwarf) impl->debug_frame = dwarf_getcfi(impl->dwarf);
  }
  return std::unique_ptr<CfiFile>(new CfiFile(std::move(impl)));
}

uint64_t CfiFile::offset_to_vaddr(uint64_t offset) const {
  for (const Impl::Load& l : impl_->loads) {
    if (offset >= l.offset && offset < l.offset + l.filesz) return offset - l.offset + l.vaddr;
  }
  return offset;
}

uint16_t CfiFile::elf_type() const { return impl_->type; }

uint16_t CfiFile::elf_machine() const { return impl_->machine; }

uint64_t CfiFile::elf_base_address() const {
  // unwind-libunwind-local.c elf_base_address(): "PT_LOAD segments are sorted by p_vaddr, so
  // the first has the minimum p_vaddr", rounded down to the page (4 KiB on x86_64).
  return impl_->loads.empty() ? 0 : impl_->loads.front().vaddr & ~uint64_t{4095};
}

bool CfiFile::has_eh_frame_hdr() const { return impl_->eh_frame != nullptr; }
bool CfiFile::has_debug_frame() const { return impl_->debug_frame != nullptr; }

bool CfiFile::read_word(uint64_t offset, uint64_t* value) const {
  if (!impl_->image || offset > impl_->image_size || impl_->image_size - offset < 8) return false;
  std::memcpy(value, impl_->image + offset, 8);
  return true;
}

size_t CfiFile::read_bytes(uint64_t offset, uint8_t* out, size_t len) const {
  if (!impl_->image || offset >= impl_->image_size) return 0;
  size_t n = std::min<size_t>(len, impl_->image_size - offset);
  std::memcpy(out, impl_->image + offset, n);
  return n;
}

bool CfiFile::is_64bit() const { return impl_->is_64bit; }

const CfiFile* UnwindCfiCache::get(const std::string& path) {
  auto it = files_.find(path);
  if (it == files_.end()) it = files_.emplace(path, CfiFile::open(path)).first;
  return it->second.get();
}

}  // namespace readperf
