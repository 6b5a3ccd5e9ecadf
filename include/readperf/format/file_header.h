// The perf.data file header (tools/perf/util/header.h struct perf_file_header, 104 bytes) and
// the pipe-mode header (struct perf_pipe_file_header, 16 bytes). The magic decides the byte
// order of everything else in the file (util/header.c check_magic_endian).
//
//   Result<FileHeader> h = parse_file_header(first_104_bytes);
//   if (h && h->is_pipe) ... records follow at offset 16
#pragma once

#include <bitset>
#include <cstdint>

#include "readperf/format/byte_cursor.h"
#include "readperf/format/error.h"

namespace readperf {

// "PERFILE2" read as a little-endian u64.
constexpr uint64_t kMagicPerfile2 = 0x32454c4946524550ull;
// "PERFFILE", the version 1 magic that perf stopped writing in 2011.
constexpr uint64_t kMagicPerffile = 0x454c494646524550ull;

constexpr uint64_t kFileHeaderSize = 104;
constexpr uint64_t kPipeHeaderSize = 16;
// A header without the feature bitmap, which perf still accepts (header.c).
constexpr uint64_t kFileHeaderSizeNoFeatures = 72;

struct FileSection {
  uint64_t offset = 0;
  uint64_t size = 0;
};

struct FileHeader {
  ByteOrder order = ByteOrder::kNative;
  bool is_pipe = false;
  uint64_t size = 0;       // header size as recorded (104, 72, or 16 for a pipe)
  uint64_t attr_size = 0;  // size of one entry of the attrs section (attr + ids section)
  FileSection attrs;
  FileSection data;
  FileSection event_types;
  std::bitset<256> features;

  // Where the table of feature sections starts (header.c: data.offset + data.size).
  uint64_t feature_table_offset() const { return data.offset + data.size; }
};

// Parses the header at the start of `file` (at least 16 bytes for a pipe, 104 for a file).
// Fails on an unknown magic or a header size perf would refuse.
Result<FileHeader> parse_file_header(Bytes file);

}  // namespace readperf
