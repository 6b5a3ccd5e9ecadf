// `report --header-only [-I]`: the "# ..." lines perf prints for the file header and each
// header feature (util/header.c perf_header__fprintf_info and the print_* functions of
// feat_ops). In pipe mode the features arrive as records and are printed as they are read.
//
//   OutBuffer out(stdout);
//   Status st = run_header(*data, /*show_info=*/true, out);
#pragma once

#include <memory>

#include "readperf/format/error.h"
#include "readperf/output/out_buffer.h"
#include "readperf/reader/perf_data.h"

namespace readperf {

Status run_header(PerfData& data, bool show_info, OutBuffer& out);

// session.c perf_session__fprintf_info(): the header block, with a file's features; a pipe's
// come later as records (PipeFeaturePrinter).
void print_header_info(const PerfData& data, bool show_info, OutBuffer& out);

// header.c perf_event__process_feature(): prints a pipe's HEADER_FEATURE records as perf
// processes them, `full` for -I's full info. Feed it every user record.
class PipeFeaturePrinter {
 public:
  PipeFeaturePrinter(const PerfData& data, bool full, OutBuffer& out);
  ~PipeFeaturePrinter();
  void on_user_record(const RecordView& r);
  // The end-of-features marker (or a feature perf fails on) was seen.
  bool done() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace readperf
