// `readperf flamegraph`: an interactive flame graph page of a recording, optionally a
// differential one against a second recording (--diff).
#pragma once

#include <string>

#include "selection_args.h"

namespace CLI {
class App;
}  // namespace CLI

namespace readperf::cli {

struct FlamegraphCommandOptions {
  std::string input = "perf.data";
  std::string output = "flamegraph.html";
  std::string diff;   // the base recording of a differential graph
  std::string event;  // the event shown first
  std::string title;
  std::string buildid_dir;  // the global --buildid-dir
  bool mini_debuginfo = true;  // the global --no-minidebuginfo turns it off
  std::string symfs, kallsyms, vmlinux;
  SelectionArgs selection;  // perf's sample filters (--time windows: the input's)
  bool include_pid = false, include_tid = false, kernel = false, count = false, no_demangle = false;
  unsigned max_stack = 127;
};

CLI::App* add_flamegraph_command(CLI::App& app, FlamegraphCommandOptions& opts);
int run_flamegraph_command(const FlamegraphCommandOptions& opts);

}  // namespace readperf::cli
