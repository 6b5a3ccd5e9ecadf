// profile.proto (github.com/google/pprof, proto/profile.proto) read back: a whole Profile
// message decoded (proto_reader.h) and checked (every string index names a string), and a
// gzipped profile inflated. What the symbolizer and the merge read profiles with.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "pprof_builder.h"
#include "readperf/format/error.h"

namespace readperf {

struct DecodedPprof {
  std::vector<std::string> strings;
  std::vector<std::pair<int64_t, int64_t>> sample_types;
  struct Label {
    int64_t key = 0, str = 0, num = 0;
  };
  struct Sample {
    std::vector<uint64_t> locations;
    std::vector<int64_t> values;
    std::vector<Label> labels;
  };
  std::vector<Sample> samples;
  struct Mapping {
    uint64_t id = 0, start = 0, limit = 0, offset = 0;
    int64_t filename = 0, build_id = 0;
  };
  std::vector<Mapping> mappings;
  struct Line {
    uint64_t function_id = 0;
    int64_t line = 0;
  };
  struct Location {
    uint64_t id = 0, mapping_id = 0, address = 0;
    std::vector<Line> lines;  // innermost first: the inline frames, then their caller
  };
  std::vector<Location> locations;
  struct Function {
    uint64_t id = 0;
    int64_t name = 0, system_name = 0, filename = 0, start_line = 0;
  };
  std::vector<Function> functions;
  bool has_period_type = false;
  std::pair<int64_t, int64_t> period_type;
  int64_t period = 0, duration = 0, default_sample_type = 0;
  std::vector<int64_t> comments;

  const std::string& str(int64_t i) const { return strings[static_cast<size_t>(i)]; }
};

// The Profile in `bytes` (bare protobuf), or an error naming the offset of what was wrong.
Result<DecodedPprof> decode_pprof(std::string_view bytes);

// A gzipped profile inflated (zlib's gzip and zlib headers both read), or the bytes as they are.
Result<std::string> inflate_profile(std::string_view in, uint64_t max_size);

// The labels readperf's unsymbolized export gives a sample (pprof_builder.h).
struct SampleLabels {
  std::string_view comm;
  int64_t pid = 0;
  int64_t unwound_from = -1;
  std::string_view cpumodes;
  // The cpumode location `i` was looked up in; `where` its mapping's start, else its address.
  uint8_t cpumode(size_t i, uint64_t where) const {
    if (i < cpumodes.size() && cpumodes[i] >= '0' && cpumodes[i] <= '7') {
      return static_cast<uint8_t>(cpumodes[i] - '0');
    }
    return implied_cpumode(where);
  }
};

// What `p` states besides its samples, as texts.
PprofHeader header_of(const DecodedPprof& p);

// The labels of sample `s`.
SampleLabels labels_of(const DecodedPprof& p, const DecodedPprof::Sample& s);

// The index of the mapping of `id` (readperf writes ids 1, 2, ... in order; others may not), or
// past the end.
size_t mapping_index(const DecodedPprof& p, uint64_t id);

}  // namespace readperf
