#include "flamegraph_command.h"

#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <cerrno>
#include <cstdio>
#include <cstring>

#include "progress_line.h"
#include "readperf/analysis/symbol_prefetch.h"
#include "readperf/output/flamegraph_html.h"
#include "readperf/output/out_buffer.h"
#include "readperf/reader/perf_data.h"
#include "symbol_source_args.h"

namespace readperf::cli {

CLI::App* add_flamegraph_command(CLI::App& app, FlamegraphCommandOptions& o) {
  CLI::App* f = app.add_subcommand("flamegraph", "an interactive flame graph page (HTML)");
  f->add_option("-i,--input", o.input, "input file, - for standard input")->capture_default_str();
  f->add_option("-o,--output", o.output, "output file, - for standard output")
      ->capture_default_str();
  f->add_option("--diff", o.diff,
                "base recording: colour frames red/blue by how their share grew/shrank");
  f->add_option("--event", o.event, "the event shown first (all events are selectable)");
  f->add_option("--title", o.title, "the page's title");
  f->add_flag("--include-pid", o.include_pid, "process names with their pid: comm-PID");
  f->add_flag("--include-tid", o.include_tid, "process names with pid and tid: comm-PID/TID");
  add_selection_options(f, o.selection);
  f->add_flag("--kernel", o.kernel, "mark kernel frames with _[k]");
  f->add_flag("--count", o.count, "count samples instead of summing their periods");
  f->add_option("--symfs", o.symfs, "look for files relative to this directory");
  f->add_option("--kallsyms", o.kallsyms, "kallsyms file for the kernel's symbols");
  f->add_option("--vmlinux", o.vmlinux, "vmlinux for the kernel's symbols");
  f->add_flag("--no-demangle", o.no_demangle, "do not demangle C++ names");
  f->add_option("--max-stack", o.max_stack, "call chain entries to keep at most");
  return f;
}

int run_flamegraph_command(const FlamegraphCommandOptions& o) {
  CollapsedConfig cfg;
  cfg.collapse.include_pid = o.include_pid;
  cfg.collapse.include_tid = o.include_tid;
  cfg.collapse.annotate_kernel = o.kernel;
  cfg.collapse.count_samples = o.count;
  cfg.max_stack = o.max_stack;
  cfg.symbols = symbol_config(o);

  auto data = PerfData::open(o.input);
  if (!data) {
    fmt::print(stderr, "readperf: {}\n", data.error().message());
    return 1;
  }
  // The filters apply to both recordings; --time's windows are the input's.
  Result<SampleSelection> sel = parse_selection(o.selection, **data);
  if (!sel) {
    fmt::print(stderr, "readperf: {}\n", sel.error().message());
    return 1;
  }
  cfg.selection = std::move(*sel);
  prefetch_symbols(**data, cfg.symbols);
  auto progress = attach_progress_line(**data, /*streams_output=*/false);
  std::unique_ptr<PerfData> base;
  if (!o.diff.empty()) {
    auto b = PerfData::open(o.diff);
    if (!b) {
      fmt::print(stderr, "readperf: {}\n", b.error().message());
      return 1;
    }
    base = std::move(*b);
  }
  FlamegraphOptions fo;
  std::string input = o.input == "-" ? "standard input" : o.input;
  fo.title = !o.title.empty() ? o.title : base ? fmt::format("{} vs {}", input, o.diff) : input;
  fo.diff_name = o.diff;
  fo.event = o.event;
  FILE* file = stdout;
  if (o.output != "-") {
    file = std::fopen(o.output.c_str(), "w");
    if (!file) {
      fmt::print(stderr, "readperf: {}: {}\n", o.output, std::strerror(errno));
      return 1;
    }
  }
  Status st;
  {
    OutBuffer out(file);
    st = run_flamegraph(**data, base.get(), cfg, fo, out, stderr);
  }
  if (file != stdout && std::fclose(file) != 0) {
    fmt::print(stderr, "readperf: {}: {}\n", o.output, std::strerror(errno));
    return 1;
  }
  if (!st) {
    fmt::print(stderr, "readperf: {}\n", st.error().message());
    return 1;
  }
  return 0;
}

}  // namespace readperf::cli
