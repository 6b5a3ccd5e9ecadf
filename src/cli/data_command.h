// `readperf data convert`: perf's `perf data convert`, with its options, so that perf users'
// commands carry over:
//
//   readperf [--buildid-dir DIR] data convert --to-json FILE [--force] [-i FILE|-]
//   readperf data convert --to-ctf DIR [--all] [--tod] [--force] [-i FILE|-]
//
// The output appears under its name only once written whole (a temporary beside it, renamed);
// `--to-json -` writes to standard output.
#pragma once

#include <string>

namespace CLI {
class App;
}  // namespace CLI

namespace readperf::cli {

struct DataConvertOptions {
  std::string input = "perf.data";
  std::string to_json, to_ctf;
  bool force = false;  // overwrite an existing output (perf: also skip the input owner check)
  bool all = false;    // CTF: the comm, fork, exit and mmap records too
  bool tod = false;    // CTF: wall-clock time (needs `perf record -k CLOCK`'s clock data)
  std::string symfs, kallsyms,
      vmlinux;                  // not perf's: where the JSON's symbols are found, as report's
  std::string buildid_dir;      // the global --buildid-dir
  bool mini_debuginfo = true;   // the global --no-minidebuginfo turns it off
};

// Adds `data` with its `convert` subcommand; returns `data`.
CLI::App* add_data_command(CLI::App& app, DataConvertOptions& opts);
int run_data_convert(const DataConvertOptions& opts);

}  // namespace readperf::cli
