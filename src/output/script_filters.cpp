// The sample filters of `perf script`: --time (time-utils.c perf_time__parse_str), --cpu
// (session.c perf_session__cpu_bitmap), --comms/--pids/--tids (thread__is_filtered), and the
// `tod` field's wall clock (builtin-script.c tod_scnprintf).
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
  SampleFilterOptions so;
  so.time = cfg.time;
  so.cpu_list = cfg.cpu_list;
  so.reltime = cfg.reltime;
  Result<SampleFilter> samples = SampleFilter::parse(so, data);
  if (!samples) return tl::unexpected(samples.error());
  samples_ = std::move(*samples);
  has_dsos_ = !cfg.dsos.empty();
  dsos_ = cfg.dsos;
  // symbol.c setup_addrlist(): entries that read whole as hexadecimal numbers are addresses.
  has_symbols_ = !cfg.symbol_filter.empty();
  for (const std::string& sym : cfg.symbol_filter) {
    char* end = nullptr;
    errno = 0;
    unsigned long v = std::strtoul(sym.c_str(), &end, 16);
    bool number = errno == 0 && end != sym.c_str();
    for (const char* p = end; number && *p; ++p)
      number = std::isspace(static_cast<unsigned char>(*p));
    if (number) {
      addrs_.push_back(v);
    } else {
      symbols_.push_back(sym);
    }
  }
  addr_range_ = cfg.addr_range;
  comms_ = cfg.comms;
  pids_ = cfg.pids;
  tids_ = cfg.tids;
  if (const auto& cd = data.features().clock_data) {
    clock_ = true;
    tod_ns_ = cd->tod_ns;
    clockid_ns_ = cd->clockid_ns;
  }
  return {};
}

bool ScriptFilters::skip_thread(const Thread& t) const {
  if (!comms_.empty() && std::find(comms_.begin(), comms_.end(), t.comm_str()) == comms_.end())
    return true;
  if (!pids_.empty() && std::find(pids_.begin(), pids_.end(), t.pid) == pids_.end()) return true;
  if (!tids_.empty() && std::find(tids_.begin(), tids_.end(), t.tid) == tids_.end()) return true;
  return false;
}

bool ScriptFilters::skip_dso(const Frame& self) const {
  if (!has_dsos_) return false;
  if (!self.map || !self.dso) return true;
  auto listed = [&](const std::string& n) {
    return std::find(dsos_.begin(), dsos_.end(), n) != dsos_.end();
  };
  return !listed(self.dso->short_name) && !listed(self.dso->long_name);
}

bool ScriptFilters::skip_symbol(const Frame& self) const {
  if (!has_symbols_) return false;
  auto listed = [&](std::string_view n) {
    return std::find(symbols_.begin(), symbols_.end(), n) != symbols_.end();
  };
  if (self.sym) {
    if (listed(self.sym->name)) return false;
    // The symbol's start as an address of the sample's map.
    uint64_t start = self.ip - (self.sym_addr - self.sym->start);
    if (listed(fmt::format("0x{:x}", start))) return false;
  }
  if (self.map) {
    for (uint64_t a : addrs_) {
      if (self.ip == a) return false;
      if (addr_range_ && self.ip >= a && self.ip < a + static_cast<uint64_t>(addr_range_))
        return false;
    }
  }
  return true;
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
