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
#include <string_view>
#include <vector>

#include "readperf/format/error.h"
#include "readperf/output/out_buffer.h"
#include "readperf/reader/perf_data.h"
#include "readperf/symbols/symbol_config.h"

namespace readperf {

class ScriptEngine;
class DlFilter;

struct ScriptConfig {
  // -s/--script: the samples go to this script engine instead of being printed.
  ScriptEngine* engine = nullptr;
  // --dlfilter: its filter_event_early() before script's filters, filter_event() after them;
  // started before the records are read.
  DlFilter* dlfilter = nullptr;
  // Each -F/--fields argument, in command-line order.
  std::vector<std::string> fields;
  // -G/--hide-call-graph (perf's no_callchain).
  bool hide_call_graph = false;
  // --stitch-lbr (ResolverOptions::stitch_lbr), for an LBR call-graph recording.
  bool stitch_lbr = false;
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
  // --max-blocks: brstackinsn prints the blocks of the newest N+1 branch entries at most (0:
  // all of them).
  int max_blocks = 0;
  // --reltime / --deltatime: times relative to the first printed event / the previous one.
  bool reltime = false;
  bool deltatime = false;
  // --show-*-events: the side-band records printed between the samples (builtin-script.c
  // __cmd_script's tool overrides). --show-round-events also turns time ordering off.
  bool show_task_events = false;
  bool show_mmap_events = false;
  bool show_switch_events = false;
  bool show_namespace_events = false;
  bool show_cgroup_events = false;
  bool show_lost_events = false;
  bool show_round_events = false;
  bool show_bpf_events = false;
  bool show_text_poke_events = false;
  // --switch-on / --switch-off EVENT and --show-on-off-events (util/evswitch.c).
  std::string switch_on, switch_off;
  bool show_on_off_events = false;
  // --show-kernel-path: DSOs by their long names (map__fprintf_dsoname).
  bool show_kernel_path = false;
  // --graph-function SYMBOL,...: samples shown from a call into one of them to its return
  // (builtin-script.c show_event()), which only samples decoded from an instruction trace
  // carry; on the others nothing is shown.
  std::string graph_function;
  // symbol_conf.pad_output_len_dso (--call-trace: 50): DSO names cut to one less and padded
  // to this width (map.c map__fprintf_dsoname()).
  uint32_t pad_dso = 0;
  // perf_guest: a guest option was given (--guestmount, --guestvmlinux, --guestkallsyms,
  // --guestmodules, --guest-code), so perf resolves guest samples in guest machines. readperf
  // has none: such samples are counted and not shown (as without the options), and said so.
  bool perf_guest = false;
  // --header / --header-only / -I: perf_session__fprintf_info() before the samples (or
  // alone); -I also prints the full feature info of a pipe's HEADER_FEATURE records.
  bool header = false;
  bool header_only = false;
  bool show_info = false;
  // --dsos, -S/--symbols (symbol_conf.dso_list, sym_list): samples elsewhere are not printed.
  std::vector<std::string> dsos;
  std::vector<std::string> symbol_filter;
  // --stop-bt: a call chain is printed down to (and with) the first frame of these symbols.
  std::vector<std::string> stop_bt;
  // --addr-range: -S addresses match this many bytes from them.
  int addr_range = 0;
  // -d/--debug-mode: check the samples' time order instead of printing them.
  bool debug_mode = false;
  // -L/--Latency: the comm as "%8.8s" and the cpu as "%3d" (builtin-script.c
  // perf_sample__fprintf_start()'s latency_format).
  bool latency_format = false;
  // -D/--dump-raw-trace: each record's raw dump before what script prints for it (perf's
  // dump_trace with the script tool's handlers); --dump-unsorted-raw-trace: in file order.
  bool dump_raw_trace = false;
  bool dump_unsorted = false;
  // --per-event-dump: each event's lines go to INPUT.EVENT.dump instead.
  bool per_event_dump = false;
  std::string input_name = "perf.data";

  SymbolConfig symbols;
  // -v: after the samples, on `err`, which binaries were looked for, where, and what was
  // missing.
  int verbose = 0;
};

// Whether one -F argument is one perf accepts (builtin-script.c parse_output_fields()); the
// error is perf's message. Warnings are left to run_script().
Status check_script_fields(std::string_view arg);

// Prints the script output of `data` to `out`; warnings and --verbose go to `err`.
Status run_script(PerfData& data, const ScriptConfig& config, OutBuffer& out, FILE* err);

}  // namespace readperf
