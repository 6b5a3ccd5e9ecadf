// `readperf report`: perf report's raw views (-D, --header-only, --stats) and its --stdio
// histograms.
#pragma once

#include <optional>
#include <string>

#include "itrace_options.h"

namespace readperf::cli {

struct ReportOptions {
  std::string input = "perf.data";
  bool dump_raw_trace = false;
  std::string switch_on, switch_off;  // --switch-on/--switch-off EVENT
  bool show_on_off_events = false;    // --show-on-off-events
  bool disable_order = false;         // --disable-order
  int group_sort_idx = 0;             // --group-sort-idx N
  bool header_only = false;
  bool header = false;
  bool show_info = false;
  bool stats = false;
  bool stdio = false;

  // The histogram report (builtin-report.c options).
  std::string buildid_dir;          // the global --buildid-dir
  bool mini_debuginfo = true;       // the global --no-minidebuginfo turns it off
  bool show_ref_callgraph = false;  // --show-ref-call-graph
  bool mem_mode = false;            // --mem-mode: sort__mode SORT_MODE__MEMORY
  bool skip_empty = true;  // --skip-empty / --no-skip-empty: events and record types never seen
  std::optional<bool> children;              // --children / --no-children; unset: perf's default
  std::string sort;                          // -s/--sort; empty: perf's default
  std::optional<float> percent_limit;        // --percent-limit
  bool show_nr_samples = false;              // -n
  bool show_total_period = false;            // --show-total-period
  bool show_cpu_utilization = false;         // --show-cpu-utilization: sys and usr columns
  std::string fields;                        // -F/--fields; empty: perf's default columns
  bool quiet = false;                        // -q: the entries alone
  bool percentage_relative = false;          // --percentage relative
  bool raw_trace = false;                    // --raw-trace: tracepoint fields unformatted
  std::string comms, dsos, symbols;          // -c/--comms, -d/--dsos, -S/--symbols
  std::string pids, tids;                    // --pid, --tid (comma-separated)
  std::string symbol_filter;                 // --symbol-filter
  std::string time;                          // --time
  std::string cpu_list;                      // -C/--cpu
  int max_stack = 127;                       // --max-stack (PERF_MAX_STACK_DEPTH)
  ItraceOptions itrace;                      // --itrace / --no-itrace
  bool total_cycles = false;                 // --total-cycles
  std::string ignore_callees;                // --ignore-callees REGEX
  int socket_filter = -1;                    // --socket-filter
  std::optional<std::string> parent;         // -p/--parent REGEX
  bool exclude_other = false;                // -x/--exclude-other
  bool tasks = false;                        // --tasks
  bool show_threads = false;                 // -T/--threads
  std::string pretty = "normal";             // --pretty: normal or raw
  bool hide_unresolved = false;              // -U/--hide-unresolved
  bool no_demangle = false;                  // --no-demangle
  bool full_source_path = false;             // --full-source-path
  bool mmaps = false;                        // --mmaps
  std::string time_quantum;                  // --time-quantum: "N[s|ms|us|ns]"
  bool nanosecs = false;                     // --ns
  std::optional<std::string> call_graph;     // -g/--call-graph; "" when given without a value
  bool no_call_graph = false;                // --no-call-graph
  bool inverted = false;                     // -G/--inverted: caller order
  int verbose = 0;                           // -v
  std::string kallsyms;                      // --kallsyms: the kernel's symbols from this file
  std::string vmlinux;                       // -k/--vmlinux: the kernel's symbols from this file
  bool ignore_vmlinux = false;               // --ignore-vmlinux
  std::string symfs;                         // --symfs: look for binaries under this directory
  bool inline_names = true;                  // --inline / --no-inline (the later wins)
  std::optional<bool> group;                 // --group / --no-group; unset: perf's group view
  std::optional<bool> branch_stack;          // -b / --no-branch-stack; unset: by the recording
  bool branch_history = false;               // --branch-history
  bool stitch_lbr = false;                   // --stitch-lbr
  std::string field_sep;                     // -t/--field-separator; empty: none
  std::optional<std::string> column_widths;  // -w/--column-widths: "W,W,..."
  bool hierarchy = false;                    // --hierarchy
};

int run_report(const ReportOptions& opts);

}  // namespace readperf::cli

namespace readperf {
class PerfData;
class OutBuffer;
}  // namespace readperf

namespace readperf::cli {

// The histograms (report_histograms.cpp): perf report's default view, printed as --stdio.
int run_histogram_report(PerfData& pd, const ReportOptions& opts, OutBuffer& out);

}  // namespace readperf::cli
