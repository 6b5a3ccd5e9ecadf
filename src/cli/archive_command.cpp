#include "archive_command.h"

#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <cstdio>

#include "open_warnings.h"
#include "progress_line.h"
#include "readperf/analysis/symbol_prefetch.h"
#include "readperf/output/archive_export.h"
#include "symbol_source_args.h"

namespace readperf::cli {

CLI::App* add_archive_command(CLI::App& app, ArchiveOptions& o) {
  CLI::App* a = app.add_subcommand(
      "archive", "the symbol files the samples need, to read the recording elsewhere (--symbols)");
  a->add_option("-o,--output", o.output, "archive to write (default: INPUT.tar.zst)");
  a->add_option("-i,--input", o.input, "input file, - for standard input")->capture_default_str();
  a->add_option("--symfs", o.symfs, "look for files relative to this directory");
  a->add_option("--kallsyms", o.kallsyms, "kallsyms file for the kernel's symbols");
  a->add_option("--vmlinux", o.vmlinux, "vmlinux for the kernel's symbols");
  return a;
}

int run_archive(const ArchiveOptions& o) {
  ArchiveExportConfig cfg;
  cfg.symbols = symbol_config(o);
  std::string output = o.output;
  if (output.empty()) output = (o.input == "-" ? std::string("perf.data") : o.input) + ".tar.zst";
  auto data = PerfData::open(o.input);
  if (!data) {
    fmt::print(stderr, "readperf: {}\n", data.error().message());
    return 1;
  }
  prefetch_symbols(**data, cfg.symbols);
  print_open_warnings(**data);
  auto progress = attach_progress_line(**data, /*streams_output=*/false);
  Result<ArchiveExportSummary> sum = run_archive_export(**data, cfg, output);
  if (!sum) {
    fmt::print(stderr, "readperf: {}\n", sum.error().message());
    return 1;
  }
  for (const std::string& l : sum->left_out) fmt::print(stderr, "readperf: left out {}\n", l);
  fmt::print(stderr,
             "readperf: wrote {}: {} binaries, {} files, {:.1f} MB ({:.1f} MB compressed); read "
             "the recording elsewhere with `readperf --symbols {} report`\n",
             output, sum->binaries, sum->files, static_cast<double>(sum->bytes_in) / 1e6,
             static_cast<double>(sum->bytes_out) / 1e6, output);
  return 0;
}

}  // namespace readperf::cli
