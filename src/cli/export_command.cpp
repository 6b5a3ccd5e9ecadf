#include "export_command.h"

#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <cstdio>

#include "atomic_output.h"
#include "open_warnings.h"
#include "progress_line.h"
#include "readperf/analysis/symbol_prefetch.h"
#include "readperf/output/collapsed_exporter.h"
#include "readperf/output/out_buffer.h"
#include "readperf/output/perf_json_converter.h"
#include "readperf/output/sqlite_exporter.h"
#include "readperf/reader/perf_data.h"
#include "symbol_source_args.h"

namespace readperf::cli {

CLI::App* add_export_command(CLI::App& app, ExportOptions& o) {
  CLI::App* e = app.add_subcommand("export", "the samples in another tool's format");
  e->add_option("--format", o.format,
                "collapsed: folded stacks (stackcollapse-perf.pl); sqlite: a database shaped "
                "as perf's export-to-sqlite.py (-o FILE.db); pprof: gzipped profile.proto; "
                "speedscope: speedscope JSON; chrome: Chrome trace-event JSON (Perfetto UI); "
                "gecko: Firefox Profiler (Gecko profile JSON); "
                "perf-json: perf data convert --to-json's JSON")
      ->required()
      ->check(CLI::IsMember(
          {"collapsed", "sqlite", "pprof", "speedscope", "chrome", "gecko", "perf-json"}));
  e->add_option("-i,--input", o.input, "input file, - for standard input")->capture_default_str();
  e->add_option("-o,--output", o.output, "output file, - for standard output")
      ->capture_default_str();
  e->add_flag("--include-pid", o.include_pid,
              "collapsed, speedscope: process names with their pid: comm-PID");
  e->add_flag("--include-tid", o.include_tid,
              "collapsed, speedscope: process names with pid and tid: comm-PID/TID");
  add_selection_options(e, o.selection);
  e->add_flag("--kernel", o.kernel, "mark kernel frames with _[k]");
  e->add_flag("--jit", o.jit, "mark JIT frames (/tmp/perf-PID.map) with _[j]");
  e->add_flag("--addrs", o.addrs, "the address of frames without a symbol: [dso <ip>]");
  e->add_option("--event,--event-filter", o.event,
                "only this event, as perf script names it (default: the first one seen)");
  e->add_flag("--count", o.count, "count samples instead of summing their periods");
  e->add_flag("--srcline", o.srcline,
              "gecko: the source line of every frame (inline frames always have theirs)");
  e->add_option("--symfs", o.symfs, "look for files relative to this directory");
  e->add_option("--kallsyms", o.kallsyms, "kallsyms file for the kernel's symbols");
  e->add_option("--vmlinux", o.vmlinux, "vmlinux for the kernel's symbols");
  e->add_flag("--no-demangle", o.no_demangle, "do not demangle C++ names");
  e->add_flag("--no-symbolize", o.no_symbolize,
              "pprof: addresses and mappings with build-ids only, for `readperf symbolize` later");
  e->add_option("--max-stack", o.max_stack, "call chain entries to keep at most");
  return e;
}

namespace {

// The filters, parsed against the recording, into `out`.
Status select_samples(const ExportOptions& o, const PerfData& data, SampleSelection& out) {
  Result<SampleSelection> sel = parse_selection(o.selection, data);
  if (!sel) return tl::unexpected(sel.error());
  out = std::move(*sel);
  return {};
}

int run_sqlite(const ExportOptions& o) {
  SqliteConfig cfg;
  cfg.max_stack = o.max_stack;
  cfg.symbols = symbol_config(o);
  if (o.output == "-") {
    fmt::print(stderr, "readperf: export --format sqlite needs -o FILE.db\n");
    return 1;
  }
  auto data = PerfData::open(o.input);
  if (!data) {
    fmt::print(stderr, "readperf: {}\n", data.error().message());
    return 1;
  }
  if (Status sel = select_samples(o, **data, cfg.selection); !sel) {
    fmt::print(stderr, "readperf: {}\n", sel.error().message());
    return 1;
  }
  prefetch_symbols(**data, cfg.symbols);
  auto progress = attach_progress_line(**data, /*streams_output=*/false);
  Status st = run_sqlite_export(**data, cfg, o.output);
  if (!st) {
    fmt::print(stderr, "readperf: {}\n", st.error().message());
    return 1;
  }
  return 0;
}

}  // namespace

int run_export(const ExportOptions& o) {
  if (o.format == "sqlite") return run_sqlite(o);
  CollapsedConfig cfg;
  cfg.collapse.include_pid = o.include_pid;
  cfg.collapse.include_tid = o.include_tid;
  cfg.collapse.annotate_kernel = o.kernel;
  cfg.collapse.annotate_jit = o.jit;
  cfg.collapse.include_addrs = o.addrs;
  cfg.collapse.event_filter = o.event;
  cfg.collapse.count_samples = o.count;
  cfg.max_stack = o.max_stack;
  cfg.symbols = symbol_config(o);
  if (o.no_symbolize) {
    if (o.format != "pprof") {
      fmt::print(stderr, "readperf: --no-symbolize is for --format pprof\n");
      return 2;
    }
    cfg.symbols.symbol_tables = false;
  }

  auto data = PerfData::open(o.input);
  if (!data) {
    fmt::print(stderr, "readperf: {}\n", data.error().message());
    return 1;
  }
  if (Status sel = select_samples(o, **data, cfg.selection); !sel) {
    fmt::print(stderr, "readperf: {}\n", sel.error().message());
    return 1;
  }
  prefetch_symbols(**data, cfg.symbols);
  print_open_warnings(**data);
  auto progress =
      attach_progress_line(**data, /*streams_output=*/o.output.empty() || o.output == "-");
  // The output appears under its name only once complete (a temporary file beside it).
  auto file = AtomicFile::create(o.output, /*overwrite=*/true);
  if (!file) {
    fmt::print(stderr, "readperf: {}\n", file.error().message());
    return 1;
  }
  Status st;
  {
    OutBuffer out(file->file());
    if (o.format == "collapsed") {
      st = run_collapsed_export(**data, cfg, out, stderr);
    } else if (o.format == "perf-json") {
      PerfJsonConfig jc;
      jc.symbols = cfg.symbols;
      jc.selection = cfg.selection;
      PerfJsonStats stats;
      st = run_perf_json_export(**data, jc, out, stats);
    } else {
      st = run_viewer_export(o, cfg, **data, out);
    }
  }
  // What precedes damage is written whole; the error follows.
  if (Status written = file->commit(); !written) {
    fmt::print(stderr, "readperf: {}\n", written.error().message());
    return 1;
  }
  if (!st) {
    fmt::print(stderr, "readperf: {}\n", st.error().message());
    return 1;
  }
  return 0;
}

}  // namespace readperf::cli
