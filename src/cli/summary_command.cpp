#include "summary_command.h"

#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <cstdio>

#include "progress_line.h"
#include "readperf/analysis/symbol_prefetch.h"
#include "readperf/output/summary_printer.h"
#include "symbol_source_args.h"

namespace readperf::cli {

CLI::App* add_summary_command(CLI::App& app, SummaryOptions& o) {
  CLI::App* s = app.add_subcommand(
      "summary", "the functions that took the time, per event (the default: readperf FILE)");
  s->add_option("-i,--input", o.input, "input file, - for standard input")->capture_default_str();
  s->add_option("--limit", o.limit, "functions shown per event, 0 for all")->capture_default_str();
  s->add_option("--symfs", o.symfs, "look for files relative to this directory");
  s->add_option("--kallsyms", o.kallsyms, "kallsyms file for the kernel's symbols");
  s->add_option("--vmlinux", o.vmlinux, "vmlinux for the kernel's symbols");
  s->add_flag("--no-demangle", o.no_demangle, "do not demangle C++ names");
  return s;
}

int run_summary(const SummaryOptions& o) {
  SummaryConfig cfg;
  cfg.limit = o.limit;
  cfg.symbols = symbol_config(o);
  auto data = PerfData::open(o.input);
  if (!data) {
    fmt::print(stderr, "readperf: {}\n", data.error().message());
    return 1;
  }
  prefetch_symbols(**data, cfg.symbols);
  OutBuffer out(stdout);
  auto progress = attach_progress_line(**data, /*streams_output=*/false);
  Status st = readperf::run_summary(**data, cfg, out);
  out.flush();
  if (!st) {
    fmt::print(stderr, "readperf: {}\n", st.error().message());
    return 1;
  }
  return 0;
}

std::vector<std::string> default_to_summary(const CLI::App& app, int argc, char** argv) {
  std::vector<std::string> args(argv, argv + argc);
  for (size_t i = 1; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--buildid-dir" || a == "--debug") {  // the global options that take a value
      ++i;
      continue;
    }
    if (a.size() > 1 && a[0] == '-') continue;  // --help, --buildid-dir=DIR
    for (const CLI::App* sub : app.get_subcommands({})) {
      if (sub->check_name(a)) return args;
    }
    args.insert(args.begin() + static_cast<std::ptrdiff_t>(i), {"summary", "-i"});
    return args;
  }
  return args;
}

}  // namespace readperf::cli
