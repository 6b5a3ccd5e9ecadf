// What a command prints when the file it opened was damaged but readable: one line per
// problem on standard error, `readperf: FILE: offset 0x30: warning: ...`, before any output.
#pragma once

#include <fmt/format.h>

#include <cstdio>

#include "readperf/reader/perf_data.h"

namespace readperf::cli {

inline void print_open_warnings(const PerfData& pd) {
  for (const Error& w : pd.warnings()) {
    fmt::print(stderr, "readperf: {}\n", w.in_file(pd.path()).message());
  }
}

}  // namespace readperf::cli
