#include "mini_debuginfo.h"

#include <fmt/format.h>

#include <span>
#include <vector>

#include "readperf/symbols/compressed_file.h"

namespace readperf {

namespace {

// A bound on what one section may inflate to: real MiniDebugInfo is a few hundred KiB to a
// few MiB; a hostile file must not make us allocate without limit.
constexpr size_t kMaxImage = size_t{256} << 20;

}  // namespace

Result<std::optional<ElfFile>> read_mini_debuginfo(const ElfFile& binary) {
  GElf_Shdr shdr;
  Elf_Scn* sec = binary.section(".gnu_debugdata", &shdr);
  if (!sec || shdr.sh_type != SHT_PROGBITS) return std::optional<ElfFile>();
  Elf_Data* data = elf_rawdata(sec, nullptr);
  if (!data || !data->d_buf || data->d_size == 0) {
    return make_error(fmt::format("{}: unreadable .gnu_debugdata", binary.path()));
  }
  // One xz stream: what follows it in the section is not read.
  Result<std::vector<char>> image = decompress_xz(
      std::span<const char>(static_cast<const char*>(data->d_buf), data->d_size), kMaxImage,
      /*concatenated=*/false);
  if (!image) {
    return make_error(fmt::format("{}: .gnu_debugdata is not a whole xz stream ({})", binary.path(),
                                  image.error().what()));
  }
  ASSIGN_OR_RETURN(ElfFile mini,
                   ElfFile::from_memory(binary.path() + "[.gnu_debugdata]", std::move(*image)));
  return std::optional<ElfFile>(std::move(mini));
}

}  // namespace readperf
