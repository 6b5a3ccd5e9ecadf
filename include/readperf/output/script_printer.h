// `script`: every sample as perf 6.1's `perf script` prints it by default (builtin-script.c
// process_event): the fields perf picks for the event's type, or those -F asks for, with the
// sample's symbol and DSO or its call chain, one sample after another in perf's order.
// Files of `perf stat record` print their counts instead (process_stat_round_event).
//
//   ScriptConfig cfg;
//   cfg.symbols = SymbolConfig::from_environment();
//   cfg.fields = {"comm,tid,time,ip,sym"};
//   OutBuffer out(stdout);
//   Status st = run_script(*data, cfg, out, stderr);
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "readperf/format/error.h"
#include "readperf/output/out_buffer.h"
#include "readperf/reader/perf_data.h"
#include "readperf/symbols/symbol_config.h"

namespace readperf {

struct ScriptConfig {
  // Each -F/--fields argument, in command-line order.
  std::vector<std::string> fields;
  // -G/--hide-call-graph (perf's no_callchain).
  bool hide_call_graph = false;
  // --comms, --pids, --tids (symbol_conf.comm_list, pid_list, tid_list): other threads'
  // samples are not printed.
  std::vector<std::string> comms;
  std::vector<int32_t> pids;
  std::vector<int32_t> tids;
  // -C/--cpu: a cpu list ("0-2,4"); empty for all.
  std::string cpu_list;
  // --time: "start,stop" in seconds ("381.6225,381.63", either side may be empty).
  std::string time;
  // --ns: times with nanoseconds.
  bool nanosecs = false;
  // --max-stack (scripting_max_stack).
  uint32_t max_stack = 127;
  SymbolConfig symbols;
  // -v: after the samples, on `err`, which binaries were looked for, where, and what was
  // missing.
  int verbose = 0;
};

// Prints the script output of `data` to `out`; warnings and --verbose go to `err`.
Status run_script(PerfData& data, const ScriptConfig& config, OutBuffer& out, FILE* err);

}  // namespace readperf
