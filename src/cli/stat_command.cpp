#include "stat_command.h"

#include <fmt/format.h>

#include <CLI/CLI.hpp>

#include "open_warnings.h"
#include "readperf/output/stat_report.h"

namespace readperf::cli {

CLI::App* add_stat_command(CLI::App& app, StatOptions& opts) {
  CLI::App* stat = app.add_subcommand("stat", "perf stat: reports of perf stat record files");
  stat->require_subcommand(1);
  CLI::App* rep = stat->add_subcommand("report", "the counts of a perf stat record file");
  rep->add_option("-i,--input", opts.input, "input file, - for standard input")
      ->capture_default_str();
  return stat;
}

int run_stat_report(const StatOptions& o) {
  auto data = PerfData::open(o.input);
  if (!data) {
    fmt::print(stderr, "readperf: {}\n", data.error().message());
    return 1;
  }
  print_open_warnings(**data);
  OutBuffer out(stdout);
  Status st = readperf::run_stat_report(**data, out);
  out.flush();
  if (!st) {
    fmt::print(stderr, "readperf: {}\n", st.error().message());
    return 1;
  }
  return 0;
}

}  // namespace readperf::cli
