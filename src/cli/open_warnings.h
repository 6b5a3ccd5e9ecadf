// What a command prints when the file it opened was damaged but readable: one line per
// problem on standard error, `readperf: FILE: offset 0x30: warning: ...`, before any output.
#pragma once

#include <fmt/format.h>

#include <cstdio>

#include "readperf/format/perf_abi.h"
#include "readperf/reader/perf_data.h"

namespace readperf::cli {

inline void print_open_warnings(const PerfData& pd) {
  for (const Error& w : pd.warnings()) {
    fmt::print(stderr, "readperf: {}\n", w.in_file(pd.path()).message());
  }
}

// A recording whose AUX area holds an instruction trace (Intel PT, ARM CoreSight, ...: the
// AUXTRACE header feature): perf's report and script decode it into samples (--itrace, on by
// default), which readperf does not do; it says so once, unless --no-itrace asked for no
// decoding.
inline void warn_undecoded_aux_trace(const PerfData& pd, bool dont_decode) {
  if (dont_decode || !pd.header().features[kFeatAuxtrace]) return;
  fmt::print(stderr,
             "readperf: {}: warning: its instruction trace (AUX area data) is not decoded: the "
             "samples, call chains and branch stacks perf synthesizes from it (--itrace) are "
             "missing\n",
             pd.path());
}

}  // namespace readperf::cli
