// `readperf convert`: writes a recording again as a perf.data file (perf inject-style):
// merged, decompressed or compressed, byte-swapped, filtered; as a file or a pipe-mode stream
// (--to-pipe, or -o - for standard output).
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace CLI {
class App;
}  // namespace CLI

namespace readperf::cli {

struct ConvertCliOptions {
  std::string input = "perf.data";
  std::string output;
  bool to_file = false;
  bool to_pipe = false;
  bool decompress = false;
  std::optional<int> compress;  // --compress[=LEVEL]
  std::string byte_order;       // big, little
  std::string time;
  std::string pid, tid, cpu, comm;  // comma-separated lists, as perf takes them
  bool strip_raw = false;
  std::string compat;  // --compat 6.1
  bool verbose = false;
};

CLI::App* add_convert_command(CLI::App& app, ConvertCliOptions& opts);
int run_convert(const ConvertCliOptions& opts);

}  // namespace readperf::cli
