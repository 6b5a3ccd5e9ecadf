#include "readperf/format/file_header.h"

#include <fmt/format.h>

#include <cstring>

#include "readperf/format/event_attr.h"
#include "readperf/format/header_version.h"
#include "readperf/format/perf_abi.h"

namespace readperf {

namespace {
// header.c attr_file_abi_sizes[]: a PERFFILE header's attr_size is one of the attr sizes of
// that era plus the ids section, and its byte order tells the file's (try_all_file_abis).
constexpr uint64_t kPerffileAttrSizes[] = {kAttrSizeVer0 + 16, 72 + 16, 80 + 16, 96 + 16, 104 + 16};

bool is_perffile_attr_size(uint64_t size) {
  for (uint64_t s : kPerffileAttrSizes) {
    if (size == s) return true;
  }
  return false;
}

// header.c check_magic_endian(): PERFILE2 in either byte order; the legacy PERFFILE is written
// the same in both, so the header size (a pipe: 16, native only, as try_all_pipe_abis()) or
// the attr_size decides.
Result<ByteOrder> magic_order(Bytes file, uint64_t magic) {
  if (magic == kMagicPerfile2) return ByteOrder::kNative;
  if (magic == bswap(kMagicPerfile2)) return ByteOrder::kSwapped;
  // header.c compares the bytes "PERFFILE", which read the same in either byte order.
  if (std::memcmp(file.data(), "PERFFILE", 8) != 0) {
    return make_error(fmt::format("not a perf.data file (magic {:#018x})", magic), 0);
  }
  uint64_t size;
  std::memcpy(&size, file.data() + 8, 8);
  if (size == kPipeHeaderSize) return ByteOrder::kNative;
  uint64_t attr_size = 0;
  if (file.size() >= 24) std::memcpy(&attr_size, file.data() + 16, 8);
  if (is_perffile_attr_size(attr_size)) return ByteOrder::kNative;
  if (is_perffile_attr_size(bswap(attr_size))) return ByteOrder::kSwapped;
  return make_error(fmt::format("PERFFILE (version 1) header: attr_size {} is none of the sizes "
                                "of that format (80, 88, 96, 112, 120) in either byte order",
                                attr_size),
                    16);
}
}  // namespace

uint32_t header_version(Bytes start) {
  return start.size() >= 8 && std::memcmp(start.data(), "PERFFILE", 8) == 0 ? 0 : 1;
}

Result<FileHeader> parse_file_header(Bytes file) {
  if (file.size() < kPipeHeaderSize) {
    return make_error(
        fmt::format("file of {} bytes is too small for a perf.data header", file.size()), 0);
  }
  uint64_t magic;
  std::memcpy(&magic, file.data(), 8);
  ASSIGN_OR_RETURN(ByteOrder order, magic_order(file, magic));

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
    return make_error(
        fmt::format("file of {} bytes is smaller than its {}-byte header", file.size(), h.size), 0);
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
