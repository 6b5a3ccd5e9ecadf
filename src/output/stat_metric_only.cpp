// stat-display.c evlist__print_counters() of --metric-only: no counts, a line per aggregate
// (cpu, socket, ..., or the global one) with a column per metric (print_metric_only()), under
// a header of the metrics' units (print_metric_headers()). valid_only_metric() leaves out the
// "/sec" and "CPUs utilized" metrics, so software events print the layout only.
#include <fmt/format.h>

#include <cctype>
#include <cstdio>
#include <cstring>
#include <string>

#include "readperf/reader/event_name.h"
#include "stat_report_internal.h"

namespace readperf {

namespace {

constexpr unsigned kMetricOnlyLen = 20;  // builtin-stat.c METRIC_ONLY_LEN

// print_metric_headers()'s aggr_header_lens[] and aggr_header_csv[], by stat.h aggr_mode.
constexpr int kAggrHeaderLens[] = {6, 0, 12, 18, 24, 24, 0, 6};
constexpr const char* kAggrHeaderCsv[] = {"cpu,",      "", "socket,cpus", "die,cpus", "core,cpus,",
                                          "comm-pid,", "", "node,"};

// valid_only_metric(): the columns that "don't work well in metrics only mode" are left out.
bool valid_only_metric(const char* unit) {
  return unit && !std::strstr(unit, "/sec") && !std::strstr(unit, "CPUs utilized");
}

// The value's digits and point, as print_metric_only_csv() and _json() cut it.
std::string digits(const char* fmt_spec, double val) {
  char buf[64] = "";
  // perf hands snprintf() a null format for a metric without a value; "" here.
  if (fmt_spec) std::snprintf(buf, sizeof(buf), fmt_spec, val);
  const char* v = buf;
  while (std::isspace(static_cast<unsigned char>(*v))) ++v;
  const char* e = v;
  while (std::isdigit(static_cast<unsigned char>(*e)) || *e == '.') ++e;
  return std::string(v, e);
}

}  // namespace

// print_interval() and evlist__print_counters() of --metric-only: the column header without
// the counts' columns and the metrics' header, before the first round and every 25th after (no
// column header for -x and -j); without -I, perf's header and the metrics' header once in 26.
void StatReport::print_metric_only_header() {
  if (interval_) {
    if (nr_intervals_ == 0) {
      const char* counts = nullptr;
      const char* head = interval_columns(&counts);
      if (aggr_mode_ != kAggrUnset && !csv_ && !json_) out_.write(head);
      if (json_) out_.put('{');
      print_metric_headers(" ", true);
    }
    if (++nr_intervals_ == 25) nr_intervals_ = 0;
  } else if (!csv_ && !json_) {
    print_header();
  }
  if (nr_metric_headers_ == 0 && !interval_) print_metric_headers(nullptr, false);
  if (nr_metric_headers_++ == 25) nr_metric_headers_ = 0;
}

// print_no_aggr_metric(): a line per cpu, named before its first counter.
void StatReport::print_no_aggr_metric() {
  const EventList& events = pd_.events();
  size_t nt = nr_threads();
  for (size_t idx = 0; idx < cpus_.size(); ++idx) {
    bool known = false;
    for (size_t e = 0; e < events.size(); ++e) {
      if (e == 0) {
        out_.write(prefix_);
        out_.write(cpu_aggr(idx, known));
      }
      const StatCounter& k = counter(e);
      const StatCounts& c = k.counts[idx * nt];
      metric_only_line(events[e], k, c.val, c.ena, c.run, known ? static_cast<int>(idx) : -1);
    }
    if (!events.empty()) out_.put('\n');
  }
}

// print_counter_aggr() of each counter after the interval's prefix, on one line.
void StatReport::print_global_metric_only() {
  const EventList& events = pd_.events();
  out_.write(prefix_);
  for (size_t i = 0; i < events.size(); ++i) {
    const StatCounter& k = counter(i);
    metric_only_line(events[i], k, k.aggr.val, k.aggr.ena, k.aggr.run, 0);
  }
  out_.put('\n');
}

// print_metric_headers(): the aggregation's columns (their width, or -x's names) and each
// counter's metric units. Counters without a metric_leader (any not of a -M metric group)
// print none unless the mode is AGGR_NONE; -j prints the units valid_only_metric() refuses.
void StatReport::print_metric_headers(const char* prefix, bool no_indent) {
  if (json_ && !interval_) out_.put('{');
  if (prefix && !json_) out_.write(prefix);
  int mode = aggr_mode_ >= 0 && aggr_mode_ <= kAggrNode ? aggr_mode_ : kAggrUnset;
  if (!csv_ && !no_indent) out_.print("{:{}}", "", kAggrHeaderLens[mode]);
  if (csv_) {
    if (interval_) out_.write("time,");
    out_.write(kAggrHeaderCsv[mode]);
  }
  if (aggr_mode_ == kAggrNone) {
    const EventList& events = pd_.events();
    metric_header_ = true;
    for (size_t i = 0; i < events.size(); ++i) {
      if (i && json_) out_.write(", ");
      // perf_stat__print_shadow_stats() of a zero count under map index 0.
      metric_ev_ = &events[i];
      shadow(events[i].attr, 0, counter(i).scale, 0);
    }
    metric_header_ = false;
  }
  if (json_) out_.put('}');
  out_.put('\n');
}

// printout() of --metric-only: a counter that did not run prints an empty column.
void StatReport::metric_only_line(const Evsel& ev, const StatCounter& k, uint64_t val, uint64_t ena,
                                  uint64_t run, int map_idx) {
  metric_ev_ = &ev;
  if (run == 0 || ena == 0 || k.scaled == -1) {
    metric_only("", "", 0, nullptr);
    return;
  }
  shadow(ev.attr, static_cast<double>(val) * k.scale, k.scale, map_idx);
}

void StatReport::metric_only(const char* fmt_spec, const char* unit, double val,
                             const char* color) {
  if (!valid_only_metric(unit) && !(metric_header_ && json_)) return;
  // fixunit(): "of all ..." metrics are named after their event.
  std::string u = unit ? unit : "(null)";
  if (u.starts_with("of all") && metric_ev_) u = event_name(*metric_ev_) + " " + u;
  if (metric_header_) {
    // print_metric_header().
    if (json_) {
      out_.print("\"unit\" : \"{}\"", u);
    } else if (csv_) {
      out_.print("{}{}", u, sep_);
    } else {
      out_.print("{:>{}} ", u, kMetricOnlyLen);
    }
    return;
  }
  if (json_) {
    out_.print("{{\"metric-value\" : \"{}\"}}", digits(fmt_spec, val));
    return;
  }
  if (csv_) {
    out_.print("{}{}", digits(fmt_spec, val), sep_);
    return;
  }
  // print_metric_only(): a column as wide as METRIC_ONLY_LEN or the unit and a space.
  unsigned mlen = kMetricOnlyLen;
  if (mlen < u.size()) mlen = static_cast<unsigned>(u.size()) + 1;
  // The width counts the color's escapes and PERF_COLOR_RESET's even where color_snprintf()
  // prints none (perf_use_color_default off: standard output not a terminal).
  if (color) mlen += static_cast<unsigned>(std::strlen(color) + std::strlen("\033[m"));
  char str[1024] = "";
  if (fmt_spec) std::snprintf(str, sizeof(str), fmt_spec, val);
  out_.print("{:>{}} ", str, mlen);
}

}  // namespace readperf
