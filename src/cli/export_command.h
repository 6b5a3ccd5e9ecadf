// `readperf export`: the samples in another tool's format. Now `--format collapsed`, the folded
// stacks of stackcollapse-perf.pl.
#pragma once

#include <string>

namespace CLI {
class App;
}  // namespace CLI

namespace readperf::cli {

struct ExportOptions {
  std::string input = "perf.data";
  std::string output = "-";
  std::string format;
  std::string buildid_dir;  // the global --buildid-dir
  std::string event;
  std::string symfs, kallsyms;
  bool pid = false, tid = false, kernel = false, jit = false, addrs = false;
  bool count = false;
  bool no_demangle = false;
  unsigned max_stack = 127;
};

// Adds the `export` subcommand, its options stored in `opts`.
CLI::App* add_export_command(CLI::App& app, ExportOptions& opts);
int run_export(const ExportOptions& opts);

}  // namespace readperf::cli
