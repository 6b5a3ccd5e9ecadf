// `readperf csv -o DIR`: stat.csv, overview.csv, processes.csv and results.csv in DIR.
#pragma once

#include <string>

namespace CLI {
class App;
}  // namespace CLI

namespace readperf::cli {

struct CsvOptions {
  std::string input = "perf.data";
  std::string output;       // the directory, created when missing
  std::string buildid_dir;  // the global --buildid-dir
  bool mini_debuginfo = true;  // the global --no-minidebuginfo turns it off
  std::string symfs, kallsyms, vmlinux;
  bool no_demangle = false;
};

CLI::App* add_csv_command(CLI::App& app, CsvOptions& opts);
int run_csv(const CsvOptions& opts);

}  // namespace readperf::cli
