// `stat report`: the counter table `perf stat report` prints for a `perf stat record` file
// (builtin-stat.c __cmd_report: process_stat_config_event, perf_event__process_stat_event,
// process_stat_round_event → evlist__print_counters), on `out` (perf prints it on stderr).
//
//   OutBuffer out(stdout);
//   Status st = run_stat_report(*data, out);
//
// Printed as perf 6.1 does: the default (human) format with its shadow metrics (CPUs
// utilized, GHz, insn per cycle, /sec, of all branches), interval files (-I) too, in the
// recording's aggregation (global, -A, --per-socket, --per-die, --per-core, --per-node,
// --per-thread) or the one the options ask for.
#pragma once

#include <optional>
#include <string>

#include "readperf/format/error.h"
#include "readperf/output/out_buffer.h"
#include "readperf/reader/perf_data.h"

namespace readperf {

struct StatReportOptions {
  // --per-socket (2), --per-die (3), --per-core (4), --per-node (7), -A (0): stat.h's
  // aggr_mode to print in instead of the recorded one; -1 for the recorded one.
  int aggr_mode = -1;
  // perf stat -x SEP report: CSV lines with SEP between the fields ("\t" for a tab).
  std::optional<std::string> csv_sep;
  // perf stat -j report: a JSON object per line.
  bool json = false;
  // perf stat --metric-only report: each line's metrics only, a column each.
  bool metric_only = false;
};

Status run_stat_report(PerfData& data, OutBuffer& out, const StatReportOptions& options = {});

}  // namespace readperf
