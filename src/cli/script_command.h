// `readperf script`: perf script's default output, -F field lists and sample filters.
#pragma once

#include <string>
#include <vector>

#include "readperf/output/script_printer.h"

namespace CLI {
class App;
}  // namespace CLI

namespace readperf::cli {

struct ScriptOptions {
  std::string input = "perf.data";
  std::string script;                    // -s/--script FILE.py
  bool list_scripts = false;             // -l/--list
  bool list_dlfilters = false;           // --list-dlfilters
  std::string dlfilter;                  // --dlfilter FILE
  std::vector<std::string> dlargs;       // --dlarg ARG, each
  std::string gen_script;                // -g/--gen-script LANG
  std::vector<std::string> script_args;  // the arguments after the options: the script's
  std::string buildid_dir;     // the global --buildid-dir
  bool mini_debuginfo = true;  // the global --no-minidebuginfo turns it off
  bool inline_names = true;    // --inline / --no-inline (the later wins; main.cpp)
  std::vector<std::string> fields;
  bool hide_call_graph = false;
  std::string comms, pids, tids, cpu, time;
  std::string symfs, kallsyms;
  bool nanosecs = false;
  bool no_demangle = false;
  unsigned max_stack = 127;
  int max_blocks = 0;  // --max-blocks
  int verbose = 0;
  std::string dsos, symbols, stop_bt;
  // Options bound straight to the printer's configuration (--reltime, --show-*-events,
  // --header, ...); run_script() fills in the rest.
  ScriptConfig config;
  bool full_source_path = false;
};

// Adds the `script` subcommand, its options stored in `opts`.
CLI::App* add_script_command(CLI::App& app, ScriptOptions& opts);
int run_script(const ScriptOptions& opts);

}  // namespace readperf::cli
