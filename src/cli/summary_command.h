// `readperf summary` (also what `readperf FILE` runs): the functions that took the time, per
// event. And `readperf csv -o DIR`: the same and more as CSV files for spreadsheets and scripts.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace CLI {
class App;
}  // namespace CLI

namespace readperf::cli {

struct SummaryOptions {
  std::string input = "perf.data";
  std::string buildid_dir;  // the global --buildid-dir
  bool mini_debuginfo = true;  // the global --no-minidebuginfo turns it off
  std::string symfs, kallsyms, vmlinux;
  bool no_demangle = false;
  size_t limit = 50;
};

CLI::App* add_summary_command(CLI::App& app, SummaryOptions& opts);
int run_summary(const SummaryOptions& opts);

// `readperf FILE [more global options]`: the arguments of `readperf summary -i FILE`, when the
// first word that is neither an option nor an option's value is no subcommand of `app`;
// otherwise the arguments unchanged.
std::vector<std::string> default_to_summary(const CLI::App& app, int argc, char** argv);

}  // namespace readperf::cli
