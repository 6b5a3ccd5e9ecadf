// Many pprof profiles made one, as `pprof -proto a.pb.gz b.pb.gz > merged.pb.gz` merges them
// (github.com/google/pprof, profile/merge.go): samples with the same locations (mapping,
// address, inline functions and lines) and labels (comm, pid) summed; DurationNanos summed,
// Period the largest, comments once each, the first profile's default sample type and period
// type. Where pprof refuses profiles of other sample types, the merge takes their union (the
// first profile's, then each new one in the order seen), a sample 0 in the types its profile
// lacks: recordings of other events (`cpu-clock:ppp` and `cpu-clock:pppH` are two) merge too. The
// profiles are readperf's symbolized pprof exports (or others of that shape: the functions of a
// location are its Lines); unsymbolized ones
// (`--no-symbolize`) are refused, since their addresses mean nothing without their own
// recording's kernel and binaries: symbolize each first (`readperf symbolize`).
//
// What the fleet merge (`readperf.dask.merge(paths, format="pprof")`) does on its workers.
// Merging one profile gives its own bytes back; ids and strings are numbered in the order the
// samples come (the first profile's, then the next one's new ones).
//
//   std::vector<std::string_view> profiles = {a, b};   // gzipped or bare profile.proto
//   Status st = merge_pprof(profiles, PprofMergeConfig{}, out_file);
#pragma once

#include <cstdint>
#include <cstdio>
#include <span>
#include <string_view>

#include "readperf/format/error.h"

namespace readperf {

struct PprofMergeConfig {
  bool gzip = true;  // false: the bare protobuf bytes out
  // The most a gzipped profile may inflate to.
  uint64_t max_size = uint64_t{1} << 32;
};

// An error names the profile (its index in `profiles`) and what was wrong: bytes that do not
// decode (with the offset), an unsymbolized profile. Nothing is written then.
Status merge_pprof(std::span<const std::string_view> profiles, const PprofMergeConfig& config,
                   FILE* out);

}  // namespace readperf
