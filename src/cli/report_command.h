// `readperf report`: perf report's raw views (-D, --header-only, --stats).
#pragma once

#include <string>

namespace readperf::cli {

struct ReportOptions {
  std::string input = "perf.data";
  bool dump_raw_trace = false;
  bool header_only = false;
  bool header = false;
  bool show_info = false;
  bool stats = false;
  bool stdio = false;
};

int run_report(const ReportOptions& opts);

}  // namespace readperf::cli
