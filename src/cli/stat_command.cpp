#include "stat_command.h"

#include <fmt/format.h>

#include <CLI/CLI.hpp>

#include "open_warnings.h"
#include "readperf/output/stat_report.h"

namespace readperf::cli {

CLI::App* add_stat_command(CLI::App& app, StatOptions& opts) {
  CLI::App* stat = app.add_subcommand("stat", "perf stat: reports of perf stat record files");
  stat->require_subcommand(1);
  // perf stat's own options before `report` (cmd_stat()): -x SEP for CSV.
  stat->add_option("-x,--field-separator", opts.csv_sep, "print counts with custom separator");
  stat->add_flag("-j,--json-output", opts.json, "print counts in JSON format");
  stat->add_flag("--metric-only", opts.metric_only, "Only print computed metrics. No raw values");
  CLI::App* rep = stat->add_subcommand("report", "the counts of a perf stat record file");
  rep->add_option("-i,--input", opts.input, "input file, - for standard input")
      ->capture_default_str();
  // builtin-stat.c __cmd_report(): OPT_SET_UINT()s of one variable, the last given wins.
  static constexpr std::pair<const char*, int> kModes[] = {{"--per-socket", 2},
                                                           {"--per-die", 3},
                                                           {"--per-core", 4},
                                                           {"--per-node", 7},
                                                           {"-A,--no-aggr", 0}};
  static constexpr const char* kHelp[] = {
      "aggregate counts per processor socket", "aggregate counts per processor die",
      "aggregate counts per physical processor core", "aggregate counts per numa node",
      "disable CPU count aggregation"};
  for (size_t i = 0; i < std::size(kModes); ++i) {
    int mode = kModes[i].second;
    // Each flag sets the mode when it is met, so the last on the command line wins.
    rep->add_flag_callback(
           kModes[i].first, [&opts, mode] { opts.aggr_mode = mode; }, kHelp[i])
        ->trigger_on_parse();
  }
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
  StatReportOptions options;
  options.aggr_mode = o.aggr_mode;
  if (!o.csv_sep.empty()) options.csv_sep = o.csv_sep;
  options.json = o.json;
  options.metric_only = o.metric_only;
  Status st = readperf::run_stat_report(**data, out, options);
  out.flush();
  if (!st) {
    fmt::print(stderr, "readperf: {}\n", st.error().message());
    return 1;
  }
  return 0;
}

}  // namespace readperf::cli
