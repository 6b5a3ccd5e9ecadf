#include "selection_args.h"

#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <cstdlib>

namespace readperf::cli {

void add_selection_options(CLI::App* app, SelectionArgs& a) {
  app->add_option("-c,--comms", a.comms, "only the samples of these comms (comma-separated)");
  app->add_option("--pid", a.pids, "only the samples of these processes (comma-separated)");
  app->add_option("--tid", a.tids, "only the samples of these threads (comma-separated)");
  app->add_option("-d,--dsos", a.dsos, "only the samples in these DSOs (comma-separated)");
  app->add_option("-S,--symbols", a.symbols,
                  "only the samples in these symbols (names, or hexadecimal addresses)");
  app->add_option("--time", a.time,
                  "only the samples in these time windows: START,END (seconds, either may be "
                  "empty), several windows, or percent forms (10%-20%, 10%/2)");
  app->add_option("-C,--cpu", a.cpus, "only the samples of these CPUs (0-3,7)");
}

std::vector<std::string> split_list(const std::string& s) {
  std::vector<std::string> out;
  size_t pos = 0;
  while (pos <= s.size() && !s.empty()) {
    size_t end = s.find(',', pos);
    if (end == std::string::npos) end = s.size();
    if (end > pos) out.push_back(s.substr(pos, end - pos));
    pos = end + 1;
  }
  return out;
}

Result<std::vector<int32_t>> parse_id_list(const std::string& s) {
  std::vector<int32_t> out;
  size_t pos = 0;
  while (pos < s.size()) {
    size_t end = s.find_first_of(", ", pos);
    if (end == std::string::npos) end = s.size();
    if (end > pos) {
      std::string tok = s.substr(pos, end - pos);
      char* stop = nullptr;
      long v = std::strtol(tok.c_str(), &stop, 10);
      if (stop == tok.c_str() || *stop) {
        return tl::unexpected(Error(fmt::format("invalid pid/tid list `{}'", s)));
      }
      out.push_back(static_cast<int32_t>(v));
    }
    pos = end + 1;
  }
  return out;
}

Result<SampleSelectionOptions> selection_options(const SelectionArgs& a) {
  SampleSelectionOptions o;
  o.comms = split_list(a.comms);
  o.dsos = split_list(a.dsos);
  o.symbols = split_list(a.symbols);
  Result<std::vector<int32_t>> pids = parse_id_list(a.pids);
  if (!pids) return tl::unexpected(pids.error());
  Result<std::vector<int32_t>> tids = parse_id_list(a.tids);
  if (!tids) return tl::unexpected(tids.error());
  o.pids = std::move(*pids);
  o.tids = std::move(*tids);
  o.time = a.time;
  o.cpu_list = a.cpus;
  return o;
}

Result<SampleSelection> parse_selection(const SelectionArgs& args, const PerfData& data) {
  Result<SampleSelectionOptions> so = selection_options(args);
  if (!so) return tl::unexpected(so.error());
  return SampleSelection::parse(*so, data);
}

}  // namespace readperf::cli
