// `readperf archive [-o FILE.tar.zst] [-i perf.data]`: the symbol files the recording's samples
// need, in one file to read it elsewhere with `--symbols FILE.tar.zst` (output/archive_export.h).
#pragma once

#include <string>

namespace CLI {
class App;
}  // namespace CLI

namespace readperf::cli {

struct ArchiveOptions {
  std::string input = "perf.data";
  std::string output;          // default: the input's name + ".tar.zst", as perf archive's
  std::string buildid_dir;     // the global --buildid-dir
  bool mini_debuginfo = true;  // the global --no-minidebuginfo turns it off
  std::string symfs, kallsyms, vmlinux;
};

CLI::App* add_archive_command(CLI::App& app, ArchiveOptions& opts);
int run_archive(const ArchiveOptions& opts);

}  // namespace readperf::cli
