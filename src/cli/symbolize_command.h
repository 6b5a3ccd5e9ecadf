// `readperf symbolize IN.pb.gz -o OUT.pb.gz`: an unsymbolized pprof profile (`export --format
// pprof --no-symbolize`) with its functions, inline frames and lines added from the symbol
// sources (output/pprof_symbolizer.h).
#pragma once

#include <string>

namespace CLI {
class App;
}  // namespace CLI

namespace readperf::cli {

struct SymbolizeOptions {
  std::string input;
  std::string output = "-";
  std::string buildid_dir;     // the global --buildid-dir
  bool mini_debuginfo = true;  // the global --no-minidebuginfo turns it off
  std::string symfs, kallsyms, vmlinux;
  bool no_demangle = false;
};

CLI::App* add_symbolize_command(CLI::App& app, SymbolizeOptions& opts);
int run_symbolize(const SymbolizeOptions& opts);

}  // namespace readperf::cli
