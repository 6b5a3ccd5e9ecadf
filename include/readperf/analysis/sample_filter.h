// The sample filters perf's report and script share, parsed once against the recording:
// --time windows (util/time-utils.c perf_time__parse_for_ranges_reltime: "START,END",
// several windows "A,B C,D", percent forms "0%-10%,30%-40%", "10%/2", "50%") and -C/--cpu
// (session.c perf_session__cpu_bitmap). A skipped sample is dropped before anything counts it.
//
//   Result<SampleFilter> f = SampleFilter::parse({.time = "10%/2", .cpu_list = "0-1"}, data);
//   if (f->skip(sample.time, sample.cpu)) continue;
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "readperf/format/error.h"

namespace readperf {

class PerfData;

struct SampleFilterOptions {
  std::string_view time;      // --time; empty: none
  std::string_view cpu_list;  // -C/--cpu; empty: none
  bool reltime = false;       // script --reltime: times count from the first sample
};

// One --time window; 0 is an open end.
struct TimeWindow {
  uint64_t start = 0;
  uint64_t end = 0;
};

class SampleFilter {
 public:
  // The errors are perf's messages ("Invalid time string", "Invalid cpu_list", ...).
  static Result<SampleFilter> parse(const SampleFilterOptions& options, const PerfData& data);

  // time-utils.c perf_time__ranges_skip_sample(): a zero time is never skipped.
  bool skip_time(uint64_t time) const;
  // The CPU is not listed (a sample without a CPU, ~0u, is kept).
  bool skip_cpu(uint32_t cpu) const {
    if (cpus_.empty() || cpu == ~0u) return false;
    return cpu >= cpus_.size() || !cpus_[cpu];
  }
  bool skip(uint64_t time, uint32_t cpu) const { return skip_time(time) || skip_cpu(cpu); }

  bool has_time() const { return !windows_.empty(); }
  bool has_cpus() const { return !cpus_.empty(); }
  const std::vector<TimeWindow>& windows() const { return windows_; }

 private:
  std::vector<TimeWindow> windows_;
  std::vector<bool> cpus_;
};

// time-utils.c parse_nsec_time(): "SEC" or "SEC.FRACTION" (at most 9 digits) in ns.
bool parse_nsec_time(std::string_view s, uint64_t& out);

}  // namespace readperf
