// `readperf stat report`: perf stat report's counter table for `perf stat record` files.
#pragma once

#include <string>

namespace CLI {
class App;
}  // namespace CLI

namespace readperf::cli {

struct StatOptions {
  std::string input = "perf.data";
  int aggr_mode = -1;
  std::string csv_sep;  // stat -x SEP
  bool json = false;    // stat -j
  bool metric_only = false;  // stat --metric-only
};

// Adds the `stat` subcommand (with its `report` subcommand), options stored in `opts`.
CLI::App* add_stat_command(CLI::App& app, StatOptions& opts);
int run_stat_report(const StatOptions& opts);

}  // namespace readperf::cli
