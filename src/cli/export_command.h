// `readperf export`: the samples in another tool's format (collapsed, sqlite, pprof,
// speedscope, chrome, gecko, perf-json), the samples chosen by perf's filters.
#pragma once

#include <string>

#include "readperf/format/error.h"
#include "selection_args.h"

namespace CLI {
class App;
}  // namespace CLI

namespace readperf::cli {

struct ExportOptions {
  std::string input = "perf.data";
  std::string output = "-";
  std::string format;
  std::string buildid_dir;     // the global --buildid-dir
  bool mini_debuginfo = true;  // the global --no-minidebuginfo turns it off
  std::string event;
  std::string symfs, kallsyms, vmlinux;
  SelectionArgs selection;  // perf's sample filters
  bool include_pid = false, include_tid = false, kernel = false, jit = false, addrs = false;
  bool count = false;
  bool srcline = false;  // gecko: every frame's source line
  bool no_demangle = false;
  bool no_symbolize = false;  // pprof: addresses and mappings only (readperf symbolize)
  unsigned max_stack = 127;
};

// Adds the `export` subcommand, its options stored in `opts`.
CLI::App* add_export_command(CLI::App& app, ExportOptions& opts);
int run_export(const ExportOptions& opts);

}  // namespace readperf::cli

namespace readperf {
struct CollapsedConfig;
class PerfData;
class OutBuffer;
}  // namespace readperf

namespace readperf::cli {

// The viewers' formats (export_viewers.cpp): pprof, speedscope, chrome, gecko, with the
// collapsed export's settings `cfg` (symbols, stack depth, the samples selected).
tl::expected<void, Error> run_viewer_export(const ExportOptions& opts, const CollapsedConfig& cfg,
                                            PerfData& data, OutBuffer& out);

}  // namespace readperf::cli
