#include "readperf/symbols/build_id.h"

#include <elf.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "elf_file.h"

namespace readperf {

namespace {

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

size_t note_align(size_t n) { return (n + 3) & ~size_t{3}; }

}  // namespace

BuildId BuildId::from_bytes(std::span<const uint8_t> bytes) {
  BuildId id;
  size_t n = std::min(bytes.size(), kMaxSize);
  id.bytes_.assign(bytes.begin(), bytes.begin() + static_cast<ptrdiff_t>(n));
  return id;
}

BuildId BuildId::from_hex(std::string_view hex) {
  BuildId id;
  if (hex.size() % 2 != 0 || hex.size() / 2 > kMaxSize) return id;
  for (size_t i = 0; i < hex.size(); i += 2) {
    int hi = hex_digit(hex[i]), lo = hex_digit(hex[i + 1]);
    if (hi < 0 || lo < 0) return BuildId();
    id.bytes_.push_back(static_cast<uint8_t>(hi << 4 | lo));
  }
  return id;
}

std::string BuildId::hex() const {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  out.reserve(bytes_.size() * 2);
  for (uint8_t b : bytes_) {
    out.push_back(kDigits[b >> 4]);
    out.push_back(kDigits[b & 15]);
  }
  return out;
}

bool BuildId::matches(const BuildId& found) const {
  if (bytes_.size() > found.bytes_.size() && bytes_.size() == kMaxSize) {
    return std::equal(found.bytes_.begin(), found.bytes_.end(), bytes_.begin()) &&
           std::all_of(bytes_.begin() + static_cast<ptrdiff_t>(found.bytes_.size()), bytes_.end(),
                       [](uint8_t b) { return b == 0; });
  }
  return bytes_ == found.bytes_;
}

Result<BuildId> read_elf_build_id(const std::string& path) {
  ASSIGN_OR_RETURN(ElfFile elf, ElfFile::open(path));
  return elf.build_id();
}

Result<BuildId> read_notes_build_id(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return make_error(fmt::format("{}: {}", path, std::strerror(errno)));
  // The notes file is small (a few hundred bytes); read it whole.
  std::vector<uint8_t> buf;
  uint8_t chunk[4096];
  for (;;) {
    ssize_t n = ::read(fd, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    buf.insert(buf.end(), chunk, chunk + n);
  }
  ::close(fd);
  size_t pos = 0;
  while (buf.size() - pos >= sizeof(Elf64_Nhdr)) {
    Elf64_Nhdr nhdr;
    std::memcpy(&nhdr, buf.data() + pos, sizeof nhdr);
    pos += sizeof nhdr;
    size_t namesz = note_align(nhdr.n_namesz), descsz = note_align(nhdr.n_descsz);
    if (namesz > buf.size() - pos || descsz > buf.size() - pos - namesz) break;
    if (nhdr.n_type == NT_GNU_BUILD_ID && nhdr.n_namesz == 4 &&
        std::memcmp(buf.data() + pos, "GNU", 4) == 0) {
      return BuildId::from_bytes(std::span(buf.data() + pos + namesz, nhdr.n_descsz));
    }
    pos += namesz + descsz;
  }
  return make_error(fmt::format("{}: no build-id note", path));
}

}  // namespace readperf
