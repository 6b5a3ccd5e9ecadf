// `stat report`: the counter table `perf stat report` prints for a `perf stat record` file
// (builtin-stat.c __cmd_report: process_stat_config_event, perf_event__process_stat_event,
// process_stat_round_event → evlist__print_counters), on `out` (perf prints it on stderr).
//
//   OutBuffer out(stdout);
//   Status st = run_stat_report(*data, out);
//
// Printed as perf 6.1 does without options: the default (human) format with its shadow
// metrics (CPUs utilized, GHz, insn per cycle, /sec, of all branches). Counts aggregated
// globally (AGGR_GLOBAL, what `perf stat record` writes without -A/--per-*) are printed;
// other aggregation modes and interval files (-I) give an error for now.
#pragma once

#include "readperf/format/error.h"
#include "readperf/output/out_buffer.h"
#include "readperf/reader/perf_data.h"

namespace readperf {

Status run_stat_report(PerfData& data, OutBuffer& out);

}  // namespace readperf
