#include "symbolize_command.h"

#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <cstdio>

#include "atomic_output.h"
#include "readperf/output/pprof_symbolizer.h"
#include "readperf/symbols/symbol_files.h"
#include "symbol_source_args.h"

namespace readperf::cli {

CLI::App* add_symbolize_command(CLI::App& app, SymbolizeOptions& o) {
  CLI::App* s = app.add_subcommand(
      "symbolize", "functions, inline frames and lines for a pprof export --no-symbolize");
  s->add_option("input", o.input, "the unsymbolized profile (gzipped profile.proto)")->required();
  s->add_option("-o,--output", o.output, "the symbolized profile, - for standard output")
      ->capture_default_str();
  s->add_option("--symfs", o.symfs, "look for files relative to this directory");
  s->add_option("--kallsyms", o.kallsyms, "kallsyms file for the kernel's symbols");
  s->add_option("--vmlinux", o.vmlinux, "vmlinux for the kernel's symbols");
  s->add_flag("--no-demangle", o.no_demangle, "do not demangle C++ names");
  return s;
}

int run_symbolize(const SymbolizeOptions& o) {
  SymbolizeConfig cfg;
  cfg.symbols = symbol_config(o);
  Result<std::string> in = read_whole_file(o.input);
  if (!in) {
    fmt::print(stderr, "readperf: {}\n", in.error().message());
    return 1;
  }
  auto out = AtomicFile::create(o.output, /*overwrite=*/true);
  if (!out) {
    fmt::print(stderr, "readperf: {}\n", out.error().message());
    return 1;
  }
  if (Status st = symbolize_pprof(*in, cfg, out->file()); !st) {
    fmt::print(stderr, "readperf: {}\n", st.error().in_file(o.input).message());
    return 1;
  }
  if (Status st = out->commit(); !st) {
    fmt::print(stderr, "readperf: {}\n", st.error().message());
    return 1;
  }
  return 0;
}

}  // namespace readperf::cli
