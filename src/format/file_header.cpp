#include "readperf/format/file_header.h"

#include <fmt/format.h>

#include "readperf/format/perf_abi.h"

namespace readperf {

namespace {
// header.c check_magic_endian(): PERFILE2 in either byte order. The header's own size tells
// a pipe (16) from a file (attr_size follows).
Result<ByteOrder> magic_order(uint64_t magic) {
  if (magic == kMagicPerfile2) return ByteOrder::kNative;
  if (magic == bswap(kMagicPerfile2)) return ByteOrder::kSwapped;
  if (magic == kMagicPerffile || magic == bswap(kMagicPerffile)) {
    return make_error(
        "PERFFILE (version 1) file: readperf, like perf since 2011, reads only PERFILE2", 0);
  }
  return make_error(fmt::format("not a perf.data file (magic {:#018x})", magic), 0);
}
}  // namespace

Result<FileHeader> parse_file_header(Bytes file) {
  if (file.size() < kPipeHeaderSize) {
    return make_error(fmt::format("file of {} bytes is too small for a perf.data header",
                                  file.size()),
                      0);
  }
  uint64_t magic;
  std::memcpy(&magic, file.data(), 8);
  ASSIGN_OR_RETURN(ByteOrder order, magic_order(magic));

  ByteCursor c(file, order);
  FileHeader h;
  h.order = order;
  c.u64();  // magic
  h.size = c.u64();
  if (h.size == kPipeHeaderSize) {
    h.is_pipe = true;
    return h;
  }
  if (h.size != kFileHeaderSize && h.size != kFileHeaderSizeNoFeatures) {
    return make_error(fmt::format("header size {} is neither a file header's ({}) nor a pipe "
                                  "header's ({})",
                                  h.size, kFileHeaderSize, kPipeHeaderSize),
                      8);
  }
  if (file.size() < h.size) {
    return make_error(fmt::format("file of {} bytes is smaller than its {}-byte header",
                                  file.size(), h.size),
                      0);
  }
  h.attr_size = c.u64();
  h.attrs = {c.u64(), c.u64()};
  h.data = {c.u64(), c.u64()};
  h.event_types = {c.u64(), c.u64()};
  if (h.size == kFileHeaderSizeNoFeatures) return h;

  // The bitmap is an array of unsigned long of the writer's word size. Read it as u64 words;
  // if that leaves HOSTNAME (always set since 2012) clear in a swapped file, it came from a
  // 32-bit host, so read u32 words; if still clear, assume BUILD_ID only (header.c).
  size_t bitmap_at = c.position();
  for (int w = 0; w < 4; ++w) {
    uint64_t word = c.u64();
    for (int b = 0; b < 64; ++b) h.features[w * 64 + b] = (word >> b) & 1;
  }
  if (order == ByteOrder::kSwapped && !h.features[kFeatHostname]) {
    c.seek(bitmap_at);
    for (int w = 0; w < 8; ++w) {
      uint32_t word = c.u32();
      for (int b = 0; b < 32; ++b) h.features[w * 32 + b] = (word >> b) & 1;
    }
    if (!h.features[kFeatHostname]) {
      h.features.reset();
      h.features[kFeatBuildId] = true;
    }
  }
  if (!c.ok()) return tl::unexpected(c.error("file header"));
  return h;
}

}  // namespace readperf
