// Header features (tools/perf/util/header.c, the HEADER_* sections after the data, or
// PERF_RECORD_HEADER_FEATURE records in pipe mode), parsed into typed values.
//
//   Features f;
//   Status ok = parse_feature(kFeatHostname, cursor_over_section, f);
//   if (f.hostname) fmt::print("{}\n", *f.hostname);
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "readperf/format/byte_cursor.h"
#include "readperf/format/error.h"
#include "readperf/format/event_attr.h"

namespace readperf {

// One EVENT_DESC entry: an attr as recorded, the event's name and its ids.
struct EventDesc {
  EventAttr attr;
  std::string name;
  std::vector<uint64_t> ids;
};

struct Features {
  // Raw bytes of every section seen, by feature id (for printers of rarely used features).
  std::map<uint32_t, std::vector<std::byte>> raw;

  std::optional<std::string> hostname, os_release, version, arch, cpudesc, cpuid;
  std::optional<uint32_t> nr_cpus_online, nr_cpus_avail;
  std::optional<uint64_t> total_mem;
  std::optional<std::vector<std::string>> cmdline;
  std::optional<std::vector<EventDesc>> event_desc;
  // COMPRESSED: zstd, level, ratio, and the decompression buffer size perf uses.
  struct Compressed {
    uint32_t version = 0, type = 0, level = 0, ratio = 0, mmap_len = 0;
  };
  std::optional<Compressed> compressed;
  // DIR_FORMAT version.
  std::optional<uint64_t> dir_format;
  // SAMPLE_TIME: first and last sample time.
  std::optional<std::pair<uint64_t, uint64_t>> sample_time;
};

// Parses one feature section into `out`. `c` covers exactly the section.
Status parse_feature(uint32_t feature, ByteCursor c, Features& out);

// The name perf gives a feature (header.c feat_ops[].name), e.g. "HOSTNAME"; "" if unknown.
std::string_view feature_name(uint32_t feature);

}  // namespace readperf
