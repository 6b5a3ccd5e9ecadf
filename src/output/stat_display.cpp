// stat-display.c evlist__print_counters() for `stat report`: the header (or the interval's
// column header), one line per counter and cpu (-A), aggregate (--per-socket, --per-die,
// --per-core, --per-node: print_aggr) or thread (--per-thread: print_aggr_thread), or the
// global count, each with its shadow metric (stat-shadow.c perf_stat__print_shadow_stats), and
// the footer.
#include <fmt/format.h>

#include <cctype>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "readperf/reader/event_name.h"
#include "stat_report_internal.h"

namespace readperf {

namespace {

constexpr int kMetricLen = 35;  // stat-display.c METRIC_LEN
constexpr int kUnitWidth = 4;   // builtin-stat.c stat_config.unit_width

// One double through a printf format, as perf prints it (fmt's fixed formatting is not asked
// to reproduce glibc's here).
std::string cformat(const char* spec, double v) {
  char buf[64];
  int n = std::snprintf(buf, sizeof(buf), spec, v);
  return std::string(buf, std::clamp(n, 0, static_cast<int>(sizeof(buf) - 1)));
}

// A thread's line of --per-thread (perf_aggr_thread_value).
struct ThreadValue {
  size_t thread;
  uint64_t val, ena, run;
};

// sort_aggr_thread(): glibc 2.36's qsort() of these 64-byte values is its merge sort (msort.c:
// top down, the left half first, the left element kept while cmp() <= 0), and cmp_val()
// returns b->val - a->val cut to an int, so values further apart than 2^31 compare as that
// difference's low 32 bits say.
int cmp_val(const ThreadValue& a, const ThreadValue& b) {
  return static_cast<int32_t>(static_cast<uint32_t>(b.val - a.val));
}

void merge_sort(std::vector<ThreadValue>& v, size_t begin, size_t end,
                std::vector<ThreadValue>& tmp) {
  size_t n = end - begin;
  if (n <= 1) return;
  size_t mid = begin + n / 2;
  merge_sort(v, begin, mid, tmp);
  merge_sort(v, mid, end, tmp);
  tmp.clear();
  size_t l = begin, r = mid;
  while (l < mid && r < end) tmp.push_back(cmp_val(v[l], v[r]) <= 0 ? v[l++] : v[r++]);
  while (l < mid) tmp.push_back(v[l++]);
  while (r < end) tmp.push_back(v[r++]);
  std::copy(tmp.begin(), tmp.end(), v.begin() + static_cast<std::ptrdiff_t>(begin));
}

}  // namespace

void StatReport::print_counters() {
  // CSV has no header and no footer.
  if (metric_only_) {
    print_metric_only_header();
  } else if (interval_) {
    print_interval_header();
  } else if (!csv_ && !json_) {
    print_header();
  }
  const EventList& events = pd_.events();
  switch (aggr_mode_) {
    case kAggrSocket:
    case kAggrDie:
    case kAggrCore:
    case kAggrNode:
      print_aggregates();
      break;
    case kAggrThread:
      for (size_t i = 0; i < events.size(); ++i) print_per_thread(events[i], counter(i));
      break;
    case kAggrNone:
      if (metric_only_) {
        print_no_aggr_metric();
        break;
      }
      for (size_t i = 0; i < events.size(); ++i) print_per_cpu(events[i], counter(i));
      break;
    case kAggrGlobal:
      if (metric_only_) {
        print_global_metric_only();
        break;
      }
      for (size_t i = 0; i < events.size(); ++i) print_global(events[i], counter(i));
      break;
    default:
      break;
  }
  if (!interval_ && !csv_ && !json_) print_footer();
}

// print_interval()'s column header of the mode: the aggregation's columns, and the counts'
// column after them in `counts`.
const char* StatReport::interval_columns(const char** counts) const {
  *counts = "             counts";
  switch (aggr_mode_) {
    case kAggrNode:
      return "#           time node   cpus";
    case kAggrSocket:
      return "#           time socket cpus";
    case kAggrDie:
      return "#           time die          cpus";
    case kAggrCore:
      return "#           time core            cpus";
    case kAggrNone:
      *counts = "                counts";
      return "#           time CPU    ";
    case kAggrThread:
      *counts = "                  counts";
      return "#           time             comm-pid";
    default:
      return "#           time";
  }
}

// print_interval(): the column header of the mode before the first round and every 25th after.
void StatReport::print_interval_header() {
  if (nr_intervals_ == 0) {
    const char* counts = nullptr;
    const char* head = interval_columns(&counts);
    if (aggr_mode_ != kAggrUnset && !csv_ && !json_) {
      out_.print("{}{} {:>{}} events\n", head, counts, "unit", kUnitWidth);
    }
  }
  if (++nr_intervals_ == 25) nr_intervals_ = 0;
}

// print_header() for a command (stat report's target names no cpus, pid or tid).
void StatReport::print_header() {
  const std::optional<std::vector<std::string>>& argv = pd_.features().cmdline;
  out_.write("\n Performance counter stats for '");
  if (!argv || argv->empty()) {
    out_.write("pipe");
  } else {
    for (size_t i = 0; i < argv->size(); ++i) out_.print("{}{}", i ? " " : "", (*argv)[i]);
  }
  out_.write("':\n\n");
}

// print_footer() for a single run. Its hint depends on the machine perf runs on
// (sysctl__nmi_watchdog_enabled), and so does this one's.
void StatReport::print_footer() {
  out_.print("\n {}", cformat("%17.9f", walltime_.mean / 1e9));
  out_.write(" seconds time elapsed\n\n");
  if (!free_counters_hint_) return;
  std::FILE* f = std::fopen("/proc/sys/kernel/nmi_watchdog", "r");
  if (!f) return;
  int v = 0;
  bool on = std::fscanf(f, "%d", &v) == 1 && v > 0;
  std::fclose(f);
  if (on) {
    out_.write(
        "Some events weren't counted. Try disabling the NMI watchdog:\n"
        "\techo 0 > /proc/sys/kernel/nmi_watchdog\n"
        "\tperf stat ...\n"
        "\techo 1 > /proc/sys/kernel/nmi_watchdog\n");
  }
}

// print_counter_aggr(): the global count.
void StatReport::print_global(const Evsel& ev, const StatCounter& k) {
  print_line(json_ ? json_aggr("") : "", ev, k, k.aggr.val, k.aggr.ena, k.aggr.run, 0);
}

// print_counter(): a line per cpu of the CPU_MAP, its count of thread 0; "CPU%-7d " when the
// running machine knows the cpu's socket (aggr_cpu_id__cpu()), else no column, and no shadow
// index (first_shadow_map_idx() of an empty id).
void StatReport::print_per_cpu(const Evsel& ev, const StatCounter& k) {
  for (size_t idx = 0; idx < cpus_.size(); ++idx) {
    const StatCounts& c = k.counts[idx * nr_threads()];
    bool known = false;
    std::string aggr = cpu_aggr(idx, known);
    print_line(aggr, ev, k, c.val, c.ena, c.run, known ? static_cast<int>(idx) : -1);
  }
}

std::string StatReport::cpu_aggr(size_t idx, bool& known) {
  known = cpu_named(idx);
  if (json_) return json_aggr(known ? fmt::format("\"cpu\" : \"{}\", ", cpus_[idx]) : "");
  if (!known) return "";
  return csv_ ? fmt::format("CPU{}{}", cpus_[idx], sep_) : fmt::format("CPU{:<7} ", cpus_[idx]);
}

// print_aggr(): the aggregates in aggr_map order (cpu_aggr_map__new(): each id once, sorted
// by node, socket, die, core), after aggr_update_shadow(); each event's line sums its cpus
// (aggr_cb()), up to the first that did not run, whose line is then not counted and whose
// cpus column counts the cpus seen up to it.
void StatReport::print_aggregates() {
  const EventList& events = pd_.events();
  size_t nt = nr_threads();
  std::vector<StatAggrId> cpu_ids;
  std::vector<StatAggrId> ids;
  for (int cpu : cpus_) {
    cpu_ids.push_back(aggr_id(cpu));
    if (std::find(ids.begin(), ids.end(), cpu_ids.back()) == ids.end())
      ids.push_back(cpu_ids.back());
  }
  std::sort(ids.begin(), ids.end());
  // first_shadow_map_idx(): the first cpu of the aggregate.
  auto first_idx = [&](const StatAggrId& id) {
    auto it = std::find(cpu_ids.begin(), cpu_ids.end(), id);
    return it == cpu_ids.end() ? 0 : static_cast<int>(it - cpu_ids.begin());
  };
  for (const StatAggrId& id : ids) {
    for (size_t e = 0; e < events.size(); ++e) {
      const StatCounter& k = counter(e);
      uint64_t val = 0;
      for (size_t idx = 0; idx < cpu_ids.size(); ++idx) {
        if (cpu_ids[idx] == id) val += k.counts[idx * nt].val;
      }
      update_shadow(events[e].attr, val, k.scale, first_idx(id));
    }
  }
  // --metric-only: everything on a single line, the aggregate named by its first counter.
  for (const StatAggrId& id : ids) {
    if (metric_only_) out_.write(prefix_);
    for (size_t e = 0; e < events.size(); ++e) {
      const StatCounter& k = counter(e);
      int nr = 0;
      StatCounts sum;
      for (size_t idx = 0; idx < cpu_ids.size(); ++idx) {
        if (!(cpu_ids[idx] == id)) continue;
        ++nr;
        const StatCounts& c = k.counts[idx * nt];
        if (c.ena == 0 || c.run == 0 || k.scaled == -1) {
          sum.ena = sum.run = 0;
          break;
        }
        sum.val += c.val;
        sum.ena += c.ena;
        sum.run += c.run;
      }
      if (!metric_only_) {
        print_line(aggr_text(id, nr), events[e], k, sum.val, sum.ena, sum.run, first_idx(id));
        continue;
      }
      if (e == 0) out_.write(aggr_text(id, nr));
      metric_only_line(events[e], k, sum.val, sum.ena, sum.run, first_idx(id));
    }
    if (metric_only_) out_.put('\n');
  }
}

// aggr_printout() of an aggregate: its name ("S0-D0-C0", "S0-D0", "S0", "N0": the last number
// padded to 8 or 5 in the standard layout) and its number of cpus.
std::string StatReport::aggr_text(const StatAggrId& id, int nr) const {
  std::string head;  // the name before its last number
  char tag = 'N';
  int last = id.node, width = 5;
  const char* kind = "node";
  switch (aggr_mode_) {
    case kAggrCore:
      head = fmt::format("S{}-D{}-", id.socket, id.die);
      tag = 'C', last = id.core, width = 8, kind = "core";
      break;
    case kAggrDie:
      head = fmt::format("S{}-", id.socket);
      tag = 'D', last = id.die, width = 8, kind = "die";
      break;
    case kAggrSocket:
      tag = 'S', last = id.socket, kind = "socket";
      break;
    default:
      break;
  }
  if (json_) {
    return json_aggr(
        fmt::format("\"{}\" : \"{}{}{}\", \"aggregate-number\" : {}, ", kind, head, tag, last, nr));
  }
  if (csv_) return fmt::format("{}{}{}{}{}{}", head, tag, last, sep_, nr, sep_);
  return fmt::format("{}{}{:<{}} {:4} ", head, tag, last, width, nr);
}

// print_aggr_thread(): every thread of the THREAD_MAP (stat report's target is not a
// system-wide --per-thread one, so none is left out for a count of 0), its counts summed over
// the cpus, sorted by sort_aggr_thread(); "%16s-%-8d " its comm and pid.
void StatReport::print_per_thread(const Evsel& ev, const StatCounter& k) {
  size_t nt = nr_threads();
  std::vector<ThreadValue> rows;
  for (size_t t = 0; t < thread_pids_.size(); ++t) {
    ThreadValue v{t, 0, 0, 0};
    for (size_t idx = 0; idx < nr_cpus(); ++idx) {
      const StatCounts& c = k.counts[idx * nt + t];
      v.val += c.val;
      v.ena += c.ena;
      v.run += c.run;
    }
    rows.push_back(v);
  }
  std::vector<ThreadValue> tmp;
  merge_sort(rows, 0, rows.size(), tmp);
  for (const ThreadValue& v : rows) {
    std::string aggr =
        json_  ? json_aggr(fmt::format("\"thread\" : \"{}-{}\", ", thread_comms_[v.thread],
                                       thread_pids_[v.thread]))
        : csv_ ? fmt::format("{}-{}{}", thread_comms_[v.thread], thread_pids_[v.thread], sep_)
               : fmt::format("{:>16}-{:<8} ", thread_comms_[v.thread], thread_pids_[v.thread]);
    if (!metric_only_) {
      print_line(aggr, ev, k, v.val, v.ena, v.run, static_cast<int>(v.thread));
      continue;
    }
    // printout() of --metric-only names no thread: the line is its metric only.
    out_.write(prefix_);
    metric_only_line(ev, k, v.val, v.ena, v.run, static_cast<int>(v.thread));
    out_.put('\n');
  }
}

// printout(): a counter that never ran is <not supported> (stat report never opens the
// counters, so only those with STAT records are supported) or <not counted>.
void StatReport::print_line(const std::string& aggr, const Evsel& ev, const StatCounter& k,
                            uint64_t val, uint64_t ena, uint64_t run, int map_idx) {
  std::string name = event_name(ev);
  out_.write(prefix_);
  out_.write(aggr);
  if (json_) {
    // printout(), abs_printout(), print_running() and print_metric_json() of -j.
    if (run == 0 || ena == 0 || k.scaled == -1) {
      out_.print("\"counter-value\" : \"{}\", ", k.supported ? "<not counted>" : "<not supported>");
      if (k.supported) free_counters_hint_ = true;
      out_.print("\"unit\" : \"{}\", \"event\" : \"{}\", ", k.unit, name);
      running(run, ena);
      metric(nullptr, "", 0);
    } else {
      double uval = static_cast<double>(val) * k.scale;
      out_.write(cformat("\"counter-value\" : \"%f\", ", uval));
      out_.print("\"unit\" : \"{}\", \"event\" : \"{}\", ", k.unit, name);
      running(run, ena);
      shadow(ev.attr, uval, k.scale, map_idx);
    }
    out_.put('\n');
    return;
  }
  if (csv_) {
    // The same fields without widths: count, unit, event, the running time and share, the
    // metric's value and unit.
    if (run == 0 || ena == 0 || k.scaled == -1) {
      out_.print("{}{}{}{}{}", k.supported ? "<not counted>" : "<not supported>", sep_, k.unit,
                 sep_, name);
      if (k.supported) free_counters_hint_ = true;
      running(run, ena);
      metric(nullptr, nullptr, 0);
    } else {
      double uval = static_cast<double>(val) * k.scale;
      out_.write(cformat(std::floor(k.scale) != k.scale ? "%.2f" : "%.0f", uval));
      out_.print("{}{}{}{}", sep_, k.unit, sep_, name);
      running(run, ena);
      shadow(ev.attr, uval, k.scale, map_idx);
    }
    out_.put('\n');
    return;
  }
  if (run == 0 || ena == 0 || k.scaled == -1) {
    out_.print("{:>18} {:<{}} {:<25}", k.supported ? "<not counted>" : "<not supported>", k.unit,
               kUnitWidth, name);
    if (k.supported) free_counters_hint_ = true;
    metric(nullptr, nullptr, 0);
    running(run, ena);
    out_.put('\n');
    return;
  }
  double uval = static_cast<double>(val) * k.scale;
  // abs_printout().
  const char* fmt_spec = std::floor(k.scale) != k.scale ? "%18.2f" : "%18.0f";
  out_.write(cformat(fmt_spec, uval));
  out_.print(" {:<{}} {:<32}", k.unit, kUnitWidth, name);
  shadow(ev.attr, uval, k.scale, map_idx);
  running(run, ena);
  out_.put('\n');
}

const StatMean* StatReport::runtime(StatKind kind, const EventAttr& a, int map_idx) const {
  auto it = runtime_.find({kind, stat_context(kind, a), map_idx});
  return it == runtime_.end() ? nullptr : &it->second;
}

// stat-display.c print_metric_std().
void StatReport::metric(const char* fmt_spec, const char* unit, double val, const char* color) {
  if (metric_only_) {
    metric_only(fmt_spec, unit, val, color);
    return;
  }
  if (json_) {
    // print_metric_json(): the value whatever the format; glibc prints a null unit "(null)".
    out_.write(cformat("\"metric-value\" : %f, ", val));
    out_.print("\"metric-unit\" : \"{}\"}}", unit ? unit : "(null)");
    return;
  }
  if (csv_) {
    // print_metric_csv(): the value's digits and point only, then the unit.
    if (!unit || !fmt_spec) {
      out_.print("{}{}", sep_, sep_);
      return;
    }
    std::string v = cformat(fmt_spec, val);
    size_t b = v.find_first_not_of(' ');
    v = b == std::string::npos ? std::string() : v.substr(b);
    size_t e = 0;
    while (e < v.size() && (std::isdigit(static_cast<unsigned char>(v[e])) || v[e] == '.')) ++e;
    std::string_view u = unit;
    while (!u.empty() && std::isspace(static_cast<unsigned char>(u.front()))) u.remove_prefix(1);
    out_.print("{}{}{}{}", sep_, v.substr(0, e), sep_, u);
    return;
  }
  if (!unit || !fmt_spec) {
    out_.print("{:<{}}", "", kMetricLen);
    return;
  }
  std::string v = cformat(fmt_spec, val);
  int n = 3 + static_cast<int>(v.size());
  out_.print(" # {} {:<{}}", v, unit, std::max(kMetricLen - n - 1, 0));
}

// stat-shadow.c perf_stat__print_shadow_stats(), for the events perf stat counts by default,
// with the runtime stats of the line's map index.
void StatReport::shadow(const EventAttr& a, double avg, double scale, int map_idx) {
  if (stat_is_hw(a, 1)) {  // instructions
    const StatMean* cyc = runtime(kStatCycles, a, map_idx);
    double total = cyc ? cyc->mean : 0;
    if (total) {
      metric("%7.2f ", "insn per cycle", avg / total);
    } else {
      metric(nullptr, "insn per cycle", 0);
    }
  } else if (stat_is_hw(a, 5)) {  // branch-misses
    const StatMean* br = runtime(kStatBranches, a, map_idx);
    if (br && br->n != 0) {
      // print_branch_misses(): get_ratio_color(GRC_CACHE_MISSES) of the ratio.
      double ratio = br->mean ? avg / br->mean * 100.0 : 0.0;
      const char* color = ratio > 20.0   ? "\033[31m"
                          : ratio > 10.0 ? "\033[35m"
                          : ratio > 5.0  ? "\033[33m"
                                         : "";
      metric("%7.2f%%", "of all branches", ratio, color);
    } else {
      metric(nullptr, "of all branches", 0);
    }
  } else if (stat_is_hw(a, 0)) {  // cycles
    const StatMean* ns = runtime(kStatNsecs, a, map_idx);
    double total = ns ? ns->mean : 0;
    if (total) {
      metric("%8.3f", "GHz", avg / total);
    } else {
      metric(nullptr, "Ghz", 0);
    }
  } else if (stat_is_clock(a)) {
    if (walltime_.mean != 0) {
      metric("%8.3f", "CPUs utilized", avg / (walltime_.mean * scale));
    } else {
      metric(nullptr, "CPUs utilized", 0);
    }
  } else if (const StatMean* ns = runtime(kStatNsecs, a, map_idx); ns && ns->n != 0) {
    // util/units.c convert_unit_double().
    double ratio = 0;
    char unit = ' ';
    if (ns->mean) {
      ratio = 1e9 * avg / ns->mean;
      for (char u : {'K', 'M', 'G'}) {
        if (ratio > 1000.0) {
          ratio /= 1000.0;
          unit = u;
        }
      }
    }
    std::string unit_buf = unit == ' ' ? "/sec" : fmt::format("{}/sec", unit);
    metric("%8.3f", unit_buf.c_str(), ratio);
  } else {
    metric(nullptr, nullptr, 0);
  }
}

// stat-display.c print_running(): the share of time the counter ran, when not all.
void StatReport::running(uint64_t run, uint64_t ena) {
  // -x and -j: the share as the integer 100 * run / ena (a u64 division) when they differ.
  double enabled_percent = run != ena ? static_cast<double>(100 * run / ena) : 100.0;
  if (json_) {
    out_.print("\"event-runtime\" : {}, \"pcnt-running\" : {:.2f}, ", run, enabled_percent);
    return;
  }
  if (csv_) {
    out_.print("{}{}{}{:.2f}", sep_, run, sep_, enabled_percent);
    return;
  }
  if (run != ena) out_.print("  ({:.2f}%)", 100.0 * run / ena);
}

}  // namespace readperf
