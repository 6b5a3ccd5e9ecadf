// The sample filters of `perf script`: --time (time-utils.c perf_time__parse_str), --cpu
// (session.c perf_session__cpu_bitmap), --comms/--pids/--tids (thread__is_filtered), --dsos
// and -S (machine__resolve()), all as the shared SampleSelection; and the `tod` field's wall
// clock (builtin-script.c tod_scnprintf).
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <ctime>
#include <utility>

#include "readperf/analysis/resolver.h"
#include "readperf/format/perf_abi.h"
#include "script_internal.h"

namespace readperf {

namespace {}  // namespace

Status ScriptFilters::setup(const ScriptConfig& cfg, const PerfData& data) {
  nanosecs_ = cfg.nanosecs;
  SampleSelectionOptions so;
  so.time = cfg.time;
  so.cpu_list = cfg.cpu_list;
  so.reltime = cfg.reltime;
  so.comms = cfg.comms;
  so.pids = cfg.pids;
  so.tids = cfg.tids;
  so.dsos = cfg.dsos;
  so.symbols = cfg.symbol_filter;
  so.addr_range = cfg.addr_range;
  Result<SampleSelection> selection = SampleSelection::parse(so, data);
  if (!selection) return tl::unexpected(selection.error());
  selection_ = std::move(*selection);
  if (const auto& cd = data.features().clock_data) {
    clock_ = true;
    tod_ns_ = cd->tod_ns;
    clockid_ns_ = cd->clockid_ns;
  }
  return {};
}

std::string ScriptFilters::tod(uint64_t time) const {
  if (!clock_) return "disabled ";
  uint64_t tod_ns = tod_ns_;
  if (time > clockid_ns_) {
    tod_ns += time - clockid_ns_;
  } else {
    tod_ns -= clockid_ns_ - time;
  }
  time_t sec = static_cast<time_t>(tod_ns / 1000000000ull);
  uint64_t nsec = tod_ns - static_cast<uint64_t>(sec) * 1000000000ull;
  struct tm lt;
  if (!localtime_r(&sec, &lt)) return "failed ";
  char date[64];
  std::strftime(date, sizeof(date), "%F %H:%M:%S", &lt);
  if (nanosecs_) return fmt::format("{}.{:09} ", date, nsec);
  return fmt::format("{}.{:06} ", date, nsec / 1000);
}

}  // namespace readperf
