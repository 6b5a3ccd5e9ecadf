#include "csv_command.h"

#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <cstdio>

#include "progress_line.h"
#include "readperf/analysis/symbol_prefetch.h"
#include "readperf/output/csv_exporter.h"
#include "symbol_source_args.h"

namespace readperf::cli {

CLI::App* add_csv_command(CLI::App& app, CsvOptions& o) {
  CLI::App* c = app.add_subcommand(
      "csv", "stat.csv, overview.csv, processes.csv and results.csv in a directory");
  c->add_option("-o,--output", o.output, "directory to write to (created if missing)")->required();
  c->add_option("-i,--input", o.input, "input file, - for standard input")->capture_default_str();
  c->add_option("--symfs", o.symfs, "look for files relative to this directory");
  c->add_option("--kallsyms", o.kallsyms, "kallsyms file for the kernel's symbols");
  c->add_option("--vmlinux", o.vmlinux, "vmlinux for the kernel's symbols");
  c->add_flag("--no-demangle", o.no_demangle, "do not demangle C++ names");
  return c;
}

int run_csv(const CsvOptions& o) {
  CsvConfig cfg;
  cfg.symbols = symbol_config(o);
  auto data = PerfData::open(o.input);
  if (!data) {
    fmt::print(stderr, "readperf: {}\n", data.error().message());
    return 1;
  }
  prefetch_symbols(**data, cfg.symbols);
  auto progress = attach_progress_line(**data, /*streams_output=*/false);
  Status st = run_csv_export(**data, cfg, o.output);
  if (!st) {
    fmt::print(stderr, "readperf: {}\n", st.error().message());
    return 1;
  }
  return 0;
}

}  // namespace readperf::cli
