#include "readperf/analysis/sample_filter.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <string>

#include "readperf/format/perf_abi.h"
#include "readperf/reader/perf_data.h"

namespace readperf {

namespace {

// time-utils.c perf_time__parse_str(): "START,END", either side may be empty.
bool parse_window(std::string_view s, TimeWindow& w) {
  w = {};
  size_t comma = s.find(',');
  std::string_view a = s.substr(0, comma);
  std::string_view b = comma == std::string_view::npos ? "" : s.substr(comma + 1);
  if (!a.empty() && !parse_nsec_time(a, w.start)) return false;
  if (!b.empty() && !parse_nsec_time(b, w.end)) return false;
  return !(w.end && w.end < w.start);
}

// time-utils.c perf_time__parse_strs(): as many windows as commas; the windows after the
// first are found past the space that follows each "START,END" pair.
bool parse_windows(std::string_view s, std::vector<TimeWindow>& out) {
  size_t num = static_cast<size_t>(std::count(s.begin(), s.end(), ','));
  if (!num) return false;
  size_t p = 0;
  for (size_t i = 0; i + 1 < num; ++i) {
    size_t arg = p;
    p = s.find(',', p) + 1;
    while (p < s.size() && std::isspace(static_cast<unsigned char>(s[p]))) ++p;
    while (p < s.size() && !std::isspace(static_cast<unsigned char>(s[p]))) {
      if (s[p++] == ',') return false;
    }
    std::string_view piece = s.substr(arg, p - arg);
    if (p < s.size()) ++p;  // the separating space
    TimeWindow w;
    if (!parse_window(piece, w)) return false;
    out.push_back(w);
  }
  TimeWindow w;
  if (!parse_window(s.substr(p), w)) return false;
  out.push_back(w);
  for (size_t i = 0; i + 1 < out.size(); ++i) {
    if (out[i].end >= out[i + 1].start) return false;
  }
  return true;
}

// time-utils.c parse_percent(): "NN%" (strtod) as a fraction.
bool parse_percent(std::string_view s, double& out) {
  size_t pct = s.find('%');
  if (pct == std::string_view::npos) return false;
  std::string num(s.substr(0, pct));
  char* end = nullptr;
  double d = std::strtod(num.c_str(), &end);
  if (end != num.c_str() + num.size()) return false;
  out = d / 100.0;
  return true;
}

// time-utils.c set_percent_time().
bool set_percent_time(TimeWindow& w, double start_pcnt, double end_pcnt, uint64_t start,
                      uint64_t end) {
  if (start_pcnt < 0.0 || start_pcnt > 1.0 || end_pcnt < 0.0 || end_pcnt > 1.0) return false;
  uint64_t total = end - start;
  w.start = start + static_cast<uint64_t>(std::round(start_pcnt * static_cast<double>(total)));
  w.end = start + static_cast<uint64_t>(std::round(end_pcnt * static_cast<double>(total)));
  if (w.end > w.start && w.end != end) w.end -= 1;
  return true;
}

// "10%/2": the second slice of 10%.
bool percent_slash(std::string_view s, TimeWindow& w, uint64_t start, uint64_t end) {
  size_t slash = s.find('/');
  if (slash == std::string_view::npos) return false;
  double pcnt;
  if (!parse_percent(s.substr(0, slash), pcnt)) return false;
  std::string idx(s.substr(slash + 1));
  char* endp = nullptr;
  int i = static_cast<int>(std::strtol(idx.c_str(), &endp, 10));
  if (*endp) return false;
  if (pcnt <= 0.0) return false;
  return set_percent_time(w, pcnt * (i - 1), pcnt * i, start, end);
}

// "0%-10%".
bool percent_dash(std::string_view s, TimeWindow& w, uint64_t start, uint64_t end) {
  size_t dash = s.find('-');
  double a, b;
  if (dash == std::string_view::npos) return false;
  if (!parse_percent(s.substr(0, dash), a) || !parse_percent(s.substr(dash + 1), b)) {
    return false;
  }
  return set_percent_time(w, a, b, start, end);
}

// time-utils.c perf_time__percent_parse_str(); at most one window per comma-separated piece.
bool parse_percent_windows(std::string_view s, uint64_t start, uint64_t end,
                           std::vector<TimeWindow>& out) {
  size_t size = static_cast<size_t>(std::count(s.begin(), s.end(), ',')) + 1;
  auto split = [&](auto&& one) {
    size_t p = 0;
    while (p < s.size()) {
      if (out.size() >= size) return false;
      size_t comma = s.find(',', p);
      TimeWindow w;
      if (!one(s.substr(p, comma == std::string_view::npos ? s.npos : comma - p), w)) {
        return false;
      }
      out.push_back(w);
      if (comma == std::string_view::npos) break;
      p = comma + 1;
    }
    return true;
  };
  if (s.find('/') != std::string_view::npos) {
    return split(
        [&](std::string_view p, TimeWindow& w) { return percent_slash(p, w, start, end); });
  }
  if (s.find('-') != std::string_view::npos) {
    return split([&](std::string_view p, TimeWindow& w) { return percent_dash(p, w, start, end); });
  }
  size_t pct = s.find('%');
  if (pct == std::string_view::npos || pct + 1 != s.size()) return false;
  TimeWindow w;
  if (!percent_slash(std::string(s) + "/1", w, start, end)) return false;
  out.push_back(w);
  return true;
}

}  // namespace

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

Result<SampleFilter> SampleFilter::parse(const SampleFilterOptions& o, const PerfData& data) {
  SampleFilter f;
  if (!o.time.empty()) {
    bool has_percent = o.time.find('%') != std::string_view::npos;
    uint64_t first = 0, last = 0;
    if (const auto& st = data.features().sample_time) first = st->first, last = st->second;
    if ((has_percent || o.reltime) && first == 0 && last == 0) {
      return make_error(
          "HINT: no first/last sample time found in perf data.\nPlease use latest perf binary "
          "to execute 'perf record'\n(if '--buildid-all' is enabled, please set "
          "'--timestamp-boundary').");
    }
    bool ok = has_percent
                  ? parse_percent_windows(o.time, first, last, f.windows_)
                  : (o.time.find(',') != std::string_view::npos ? parse_windows(o.time, f.windows_)
                                                                : false);
    if (!ok) return make_error("Invalid time string");
    if (o.reltime) {
      for (TimeWindow& w : f.windows_) {
        w.start += first;
        w.end += first;
      }
    }
  }
  if (!o.cpu_list.empty()) {
    const EventList& events = data.events();
    for (size_t i = 0; i < events.size(); ++i) {
      if (events[i].attr.type < 6 && !(events[i].attr.sample_type & kSampleCpu)) {
        return make_error("File does not contain CPU events. Remove -C option to proceed.");
      }
    }
    Result<std::vector<int>> cpus = parse_cpu_list(o.cpu_list);
    if (!cpus || (cpus->size() == 1 && cpus->front() < 0)) return make_error("Invalid cpu_list");
    int nr_cpus = std::min<int>(data.features().nr_cpus_avail, 4096);
    for (int c : *cpus) {
      if (c >= nr_cpus) {
        return make_error(
            fmt::format("Requested CPU {} too large. Consider raising MAX_NR_CPUS", c));
      }
      if (f.cpus_.size() <= static_cast<size_t>(c)) f.cpus_.resize(c + 1);
      f.cpus_[c] = true;
    }
  }
  return f;
}

bool SampleFilter::skip_time(uint64_t time) const {
  if (windows_.empty() || time == 0) return false;
  if (windows_.size() == 1) {
    const TimeWindow& w = windows_[0];
    return (w.start && time < w.start) || (w.end && time > w.end);
  }
  for (const TimeWindow& w : windows_) {
    if (time >= w.start && (time <= w.end || !w.end)) return false;
  }
  return true;
}

}  // namespace readperf
