// The sample filters of `perf script`: --time (time-utils.c perf_time__parse_str), --cpu
// (session.c perf_session__cpu_bitmap), --comms/--pids/--tids (thread__is_filtered), and the
// `tod` field's wall clock (builtin-script.c tod_scnprintf).
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <ctime>

#include "readperf/analysis/resolver.h"
#include "readperf/format/perf_abi.h"
#include "script_internal.h"

namespace readperf {

namespace {

// time-utils.c parse_nsec_time(): "SEC" or "SEC.FRACTION" with at most 9 fraction digits.
bool parse_nsec_time(std::string_view s, uint64_t& out) {
  size_t i = 0;
  uint64_t sec = 0;
  while (i < s.size() && s[i] >= '0' && s[i] <= '9') sec = sec * 10 + (s[i++] - '0');
  uint64_t nsec = 0;
  if (i < s.size()) {
    if (s[i] != '.') return false;
    std::string_view frac = s.substr(i + 1);
    if (frac.size() > 9) return false;
    for (size_t k = 0; k < 9; ++k) {
      char c = k < frac.size() ? frac[k] : '0';
      if (c < '0' || c > '9') return false;
      nsec = nsec * 10 + (c - '0');
    }
  }
  out = sec * 1000000000ull + nsec;
  return true;
}

}  // namespace

Status ScriptFilters::setup(const ScriptConfig& cfg, const PerfData& data) {
  nanosecs_ = cfg.nanosecs;
  if (!cfg.time.empty()) {
    std::string_view t = cfg.time;
    size_t comma = t.find(',');
    std::string_view a = t.substr(0, comma);
    std::string_view b = comma == std::string_view::npos ? "" : t.substr(comma + 1);
    if ((!a.empty() && !parse_nsec_time(a, start_)) || (!b.empty() && !parse_nsec_time(b, end_)) ||
        (end_ && end_ < start_)) {
      return make_error("Invalid time string");
    }
    has_time_ = true;
    // time-utils.c perf_time__parse_for_ranges_reltime(): with --reltime the times count from
    // the first sample (SAMPLE_TIME feature); perf adds it to an open end too.
    if (cfg.reltime) {
      const auto& st = data.features().sample_time;
      if (!st || (st->first == 0 && st->second == 0)) {
        return make_error(
            "HINT: no first/last sample time found in perf data.\nPlease use latest perf binary "
            "to execute 'perf record'\n(if '--buildid-all' is enabled, please set "
            "'--timestamp-boundary').");
      }
      start_ += st->first;
      end_ += st->first;
    }
  }
  if (!cfg.cpu_list.empty()) {
    const EventList& events = data.events();
    for (size_t i = 0; i < events.size(); ++i) {
      if (events[i].attr.type < 6 && !(events[i].attr.sample_type & kSampleCpu)) {
        return make_error("File does not contain CPU events. Remove -C option to proceed.");
      }
    }
    Result<std::vector<int>> cpus = parse_cpu_list(cfg.cpu_list);
    if (!cpus || (cpus->size() == 1 && cpus->front() < 0)) return make_error("Invalid cpu_list");
    int nr_cpus = std::min<int>(data.features().nr_cpus_avail, 4096);
    for (int c : *cpus) {
      if (c >= nr_cpus) {
        return make_error(
            fmt::format("Requested CPU {} too large. Consider raising MAX_NR_CPUS", c));
      }
      if (cpus_.size() <= static_cast<size_t>(c)) cpus_.resize(c + 1);
      cpus_[c] = true;
    }
  }
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
