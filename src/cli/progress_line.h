// One updating line on standard error while a big file is read, as perf's progress bar while
// it loads one (ui/progress.c): bytes read of the total, records per second, time left.
//
//   readperf: perf.data: 312 of 1024 MiB (30%), 2.1M records/s, 0:04 left
//
// Shown only for files over 64 MiB, only when standard error is a terminal, never with the
// global -q/--quiet; redrawn at most 10 times a second and erased when reading ends, before
// the command prints what it read.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>

#include "readperf/reader/perf_data.h"

namespace readperf::cli {

// -q/--quiet (main.cpp) turns every progress line off.
void set_progress_quiet(bool quiet);

class ProgressLine : public ProgressObserver {
 public:
  using Clock = std::chrono::steady_clock;
  static constexpr uint64_t kMinBytes = 64ull << 20;

  explicit ProgressLine(std::string name);
  ~ProgressLine() override;

  void on_progress(uint64_t bytes_done, uint64_t bytes_total, uint64_t records) override;
  void finished() override;

 private:
  void erase();

  std::string name_;
  Clock::time_point start_;
  Clock::time_point last_draw_;
  bool drawn_ = false;
};

// A progress line for `pd` when one should be shown (see above), attached to it; nothing
// otherwise. `streams_output`: the command prints while it reads (script, report -D), so a
// line on the same terminal as its output would break into it: then only when standard
// output is not a terminal (nor the pager).
std::unique_ptr<ProgressLine> attach_progress_line(PerfData& pd, bool streams_output);

}  // namespace readperf::cli
