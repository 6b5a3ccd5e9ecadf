#include "report_command.h"

#include <fmt/format.h>

#include <cstdio>

#include "open_warnings.h"
#include "progress_line.h"
#include "readperf/output/dump_printer.h"
#include "readperf/output/header_printer.h"
#include "readperf/output/out_buffer.h"
#include "readperf/output/stats_printer.h"
#include "readperf/output/tasks_printer.h"
#include "readperf/reader/perf_data.h"
#include "symbol_source_args.h"

namespace readperf::cli {

namespace {
int fail(const Error& e) {
  fmt::print(stderr, "readperf: {}\n", e.message());
  return 1;
}

// cmd_report() exits 0 whatever __cmd_report() returned, a failure to process the records
// included ("failed to process sample"): the message, then perf's status.
int processing_failed(const Error& e) {
  fmt::print(stderr, "readperf: {}\n", e.message());
  return 0;
}

// Records the reader skipped are never hidden: one line on standard error says how many and
// why the first one was.
void warn_skipped(const PerfData& pd) {
  const ReaderStats& s = pd.stats();
  if (!s.skipped || !s.first_skip) return;
  fmt::print(stderr, "readperf: {}: warning: {} record{} skipped, the first at {}\n", pd.path(),
             s.skipped, s.skipped == 1 ? "" : "s", s.first_skip->message());
}
}  // namespace

int run_report(const ReportOptions& opts) {
  // cmd_report() returns -EINVAL: exit status 234.
  if (!validate_kernel_files(opts)) return 234;
  auto data = PerfData::open(opts.input);
  if (!data) return fail(data.error());
  print_open_warnings(**data);
  auto progress = attach_progress_line(**data, /*streams_output=*/opts.dump_raw_trace);
  PerfData& pd = **data;
  OutBuffer out(stdout);

  if (opts.header_only) {
    Status st = run_header(pd, opts.show_info, out);
    if (!st) {
      out.flush();
      return fail(st.error());
    }
    return 0;
  }
  if (opts.dump_raw_trace) {
    Status st = run_dump(pd, out, opts.skip_empty);
    if (!st) {
      out.flush();
      return processing_failed(st.error());
    }
    return 0;
  }
  if (opts.tasks || opts.mmaps) {
    if (opts.stats) {
      // cmd_report(): the two modes exclude each other; perf says so and ends with status 0.
      fmt::print(stderr, "Error: --tasks and --mmaps can't be used together with --stats\n");
      return 0;
    }
    if (Status st = print_tasks(pd, opts.mmaps, out); !st) {
      out.flush();
      return fail(st.error());
    }
    return 0;
  }
  if (opts.stats) {
    StatsCounter counts;
    counts.events = &pd.events();
    counts.order = pd.order();
    // builtin-report.c stats_setup() clears the tool: no ordering, and only the event of
    // each sample matters.
    PerfData::ProcessOptions po;
    po.ordered = false;
    po.decode_samples = false;
    Status st = pd.process(counts, po);
    // __cmd_report() returns before stats_print() when processing failed.
    if (!st) return processing_failed(st.error());
    print_aggregated_stats(counts, pd, out, opts.skip_empty);
    // builtin-report.c stats_setup() leaves the EVENT_UPDATE and HEADER_FEATURE handlers as
    // stubs: a pipe's events keep the names perf derives from their attrs.
    print_event_stats(counts, pd, out, pd.kind() == ContainerKind::kPipe, opts.skip_empty);
    out.flush();
    warn_skipped(pd);
    return 0;
  }
  warn_undecoded_aux_trace(pd, opts.itrace.dont_decode);
  return run_histogram_report(pd, opts, out);
}

}  // namespace readperf::cli
