// `readperf script`: perf script's default output, -F field lists and sample filters.
#pragma once

#include <string>
#include <vector>

#include "itrace_options.h"
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
  std::string vmlinux;  // -k/--vmlinux
  // The instruction-trace options (main.cpp applies them in command-line order, among -F's):
  ItraceOptions itrace;    // --itrace[=OPTS] and --no-itrace, in order
  std::string insn_trace;  // --insn-trace[=raw]
  bool xed = false;        // --xed: the output through `xed -F insn: -A -64`
  // Guest machines: --guestmount, --guestvmlinux, --guestkallsyms, --guestmodules, --guest-code.
  std::string guestmount, guestvmlinux, guestkallsyms, guestmodules;
  bool guest_code = false;
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

// builtin-script.c parse_insn_trace(), parse_call_trace(), parse_callret_trace(): the field
// lists each applies (where it stands among the -F options).
inline constexpr char kInsnTraceFields[] = "+insn,-event,-period";
inline constexpr char kInsnTraceDisasmFields[] = "+disasm,-event,-period";
inline constexpr char kCallTraceFields[] = "-ip,-addr,-event,-period,+callindent";
inline constexpr char kCallRetTraceFields[] = "-ip,-addr,-event,-period,+callindent,+flags";

// Adds the `script` subcommand, its options stored in `opts`.
CLI::App* add_script_command(CLI::App& app, ScriptOptions& opts);
// After parsing: the instruction-trace options applied in command-line order, among the -F
// field lists (`cmd` is the parsed script command).
void apply_trace_options(const CLI::App& cmd, ScriptOptions& opts);
int run_script(const ScriptOptions& opts);

}  // namespace readperf::cli
