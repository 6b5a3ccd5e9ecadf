#include "mini_debuginfo.h"

#include <fmt/format.h>
#include <lzma.h>

#include <vector>

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
  lzma_stream strm = LZMA_STREAM_INIT;
  if (lzma_stream_decoder(&strm, kMaxImage, 0) != LZMA_OK) {
    return make_error(fmt::format("{}: cannot start an xz decoder", binary.path()));
  }
  std::vector<char> image(std::min<size_t>(kMaxImage, std::max<size_t>(4 * data->d_size, 65536)));
  strm.next_in = static_cast<const uint8_t*>(data->d_buf);
  strm.avail_in = data->d_size;
  size_t produced = 0;
  lzma_ret ret = LZMA_OK;
  while (true) {
    if (produced == image.size()) {
      if (image.size() == kMaxImage) break;
      image.resize(std::min(kMaxImage, image.size() * 2));
    }
    strm.next_out = reinterpret_cast<uint8_t*>(image.data() + produced);
    strm.avail_out = image.size() - produced;
    ret = lzma_code(&strm, LZMA_FINISH);
    produced = image.size() - strm.avail_out;
    if (ret != LZMA_OK) break;
  }
  lzma_end(&strm);
  if (ret != LZMA_STREAM_END) {
    return make_error(fmt::format("{}: .gnu_debugdata is not a whole xz stream (liblzma error {})",
                                  binary.path(), static_cast<int>(ret)));
  }
  image.resize(produced);
  ASSIGN_OR_RETURN(ElfFile mini, ElfFile::from_memory(binary.path() + "[.gnu_debugdata]",
                                                      std::move(image)));
  return std::optional<ElfFile>(std::move(mini));
}

}  // namespace readperf
