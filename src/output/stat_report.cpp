// builtin-stat.c __cmd_report(): the STAT records fill each counter's per-cpu, per-thread
// counts (stat.c perf_event__process_stat_event); each STAT_ROUND aggregates them
// (perf_stat_process_counter), feeds the shadow stats (stat-shadow.c
// perf_stat__update_shadow_stats) and prints the table (stat-display.c).
#include "readperf/output/stat_report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "readperf/format/perf_abi.h"
#include "readperf/reader/cpu_map.h"
#include "readperf/reader/event_name.h"

namespace readperf {

namespace {

constexpr int kAggrNone = 0, kAggrGlobal = 1;  // stat.h enum aggr_mode
constexpr uint64_t kRoundFinal = 1;            // PERF_STAT_ROUND_TYPE__FINAL
constexpr int kMetricLen = 35;                 // stat-display.c METRIC_LEN
constexpr int kUnitWidth = 4;                  // builtin-stat.c stat_config.unit_width

// stat-shadow.c's runtime stats this printer uses.
enum StatKind { kStatNsecs, kStatCycles, kStatBranches, kStatKinds };

struct Counts {
  uint64_t val = 0, ena = 0, run = 0;
};

struct Counter {
  std::string unit;  // EVENT_UPDATE's (evsel.c evsel__init: "")
  double scale = 1.0;
  std::vector<Counts> counts;  // cpu_idx * nr_threads + thread
  Counts aggr, prev_aggr;
  int8_t scaled = 0;
  bool supported = false;  // a STAT record came for it (perf_event__process_stat_event)
};

// util/stat.c: struct stats, its running mean.
struct Stats {
  double n = 0, mean = 0;
  void update(double v) {
    ++n;
    mean += (v - mean) / n;
  }
};

// One double through a printf format, as perf prints it (fmt's fixed formatting is not asked
// to reproduce glibc's here).
std::string cformat(const char* spec, double v) {
  char buf[64];
  int n = std::snprintf(buf, sizeof(buf), spec, v);
  return std::string(buf, std::clamp(n, 0, static_cast<int>(sizeof(buf) - 1)));
}

// stat-shadow.c evsel_context(): the privilege levels a counter excludes.
int context_of(const EventAttr& a) {
  int ctx = 0;
  if (a.exclude_kernel()) ctx |= 1 << 0;
  if (a.flag(4)) ctx |= 1 << 1;   // exclude_user
  if (a.flag(6)) ctx |= 1 << 2;   // exclude_hv
  if (a.flag(19)) ctx |= 1 << 3;  // exclude_host
  if (a.flag(7)) ctx |= 1 << 4;   // exclude_idle
  return ctx;
}

bool is_clock(const EventAttr& a) {  // evsel.h evsel__is_clock()
  return a.type == kTypeSoftware && (a.config == 0 || a.config == 1);
}
bool is_hw(const EventAttr& a, uint64_t config) {
  return a.type == kTypeHardware && a.config == config;
}

class StatReport : public EventSink {
 public:
  StatReport(PerfData& pd, OutBuffer& out) : pd_(pd), out_(out) {}

  void on_user_record(const RecordView& r) override {
    if (!status_) return;
    ByteCursor c = r.body(pd_.order());
    switch (r.type) {
      case kRecordThreadMap: {
        uint64_t nr = c.u64();
        nr_threads_ = 0;
        for (uint64_t i = 0; i < nr && c.remaining() >= 24; ++i, ++nr_threads_) c.skip(24);
        break;
      }
      case kRecordCpuMap:
        cpus_ = decode_cpu_map(c).value_or(std::vector<int>{});
        break;
      case kRecordStatConfig: {
        // stat.c perf_event__read_stat_config(): tags 0 aggr_mode, 1 interval, 2 scale.
        uint64_t nr = c.u64();
        for (uint64_t i = 0; i < nr && c.remaining() >= 16; ++i) {
          uint64_t tag = c.u64();
          uint64_t val = c.u64();
          if (tag == 0) aggr_mode_ = static_cast<int>(val);
          if (tag == 1) interval_ = val;
          if (tag == 2) scale_ = val != 0;
        }
        break;
      }
      case kRecordEventUpdate: {
        // header.c perf_event__process_event_update(): UNIT 0, SCALE 1 (NAME the reader does).
        uint64_t type = c.u64();
        const Evsel* ev = pd_.events().find_id(c.u64());
        if (!c.ok() || !ev) break;
        Counter& k = counter(ev->index);
        if (type == 0) k.unit = std::string(c.cstring());
        if (type == 1) {
          uint64_t bits = c.u64();
          // perf_event__event_update_swap() swaps only type and id: the scale is read as it is.
          if (c.swapped()) bits = bswap(bits);
          if (c.ok()) std::memcpy(&k.scale, &bits, sizeof(bits));
        }
        break;
      }
      case kRecordStat:
        on_stat(c);
        break;
      case kRecordStatRound: {
        uint64_t type = c.u64();
        uint64_t time = c.u64();
        if (c.ok()) on_round(type, time);
        break;
      }
      default:
        break;
    }
  }

  Status status() const { return status_; }
  bool done() const override { return !status_; }

 private:
  size_t nr_threads() const { return std::max<size_t>(nr_threads_, 1); }
  size_t nr_cpus() const { return std::max<size_t>(cpus_.size(), 1); }

  Counter& counter(size_t index) {
    if (counters_.size() <= index) counters_.resize(index + 1);
    return counters_[index];
  }

  // stat.c perf_event__process_stat_event().
  void on_stat(ByteCursor c) {
    uint64_t id = c.u64();
    int32_t cpu = static_cast<int32_t>(c.u32());
    uint32_t thread = c.u32();
    Counts v{c.u64(), c.u64(), c.u64()};
    if (!c.ok()) return;
    const Evsel* ev = pd_.events().find_id(id);
    if (!ev) {
      status_ = make_error("Failed to resolve counter for stat event.");
      return;
    }
    auto it = std::find(cpus_.begin(), cpus_.end(), cpu);
    if (it == cpus_.end() || thread >= nr_threads()) {
      status_ = make_error(fmt::format("Invalid cpu {} or thread {} for stat event.", cpu, thread));
      return;
    }
    Counter& k = counter(ev->index);
    k.supported = true;
    k.counts.resize(nr_cpus() * nr_threads());
    k.counts[(it - cpus_.begin()) * nr_threads() + thread] = v;
  }

  // builtin-stat.c process_stat_round_event().
  void on_round(uint64_t type, uint64_t time) {
    if (aggr_mode_ != kAggrGlobal) {
      status_ = make_error(
          fmt::format("stat report: aggregation mode {} is not printed yet", aggr_mode_));
      return;
    }
    const EventList& events = pd_.events();
    for (size_t i = 0; i < events.size(); ++i) process_counter(events[i], counter(i));
    if (type == kRoundFinal) walltime_.update(static_cast<double>(time));
    if (interval_ && time) {
      prefix_ = fmt::format("{:6}.{:09} ", time / 1000000000, time % 1000000000);
    } else {
      prefix_.clear();
    }
    print_counters();
  }

  // stat.c perf_stat_process_counter() for AGGR_GLOBAL: the sum over cpus and threads, less
  // the last round's (evsel__compute_deltas), scaled (perf_counts_values__scale).
  void process_counter(const Evsel& ev, Counter& k) {
    Counts a;
    for (const Counts& v : k.counts) {
      a.val += v.val;
      a.ena += v.ena;
      a.run += v.run;
    }
    Counts cur = a;
    a.val -= k.prev_aggr.val;
    a.ena -= k.prev_aggr.ena;
    a.run -= k.prev_aggr.run;
    k.prev_aggr = cur;
    k.scaled = 0;
    if (scale_) {
      if (a.run == 0) {
        k.scaled = -1;
        a.val = 0;
      } else if (a.run < a.ena) {
        k.scaled = 1;
        a.val = static_cast<uint64_t>(static_cast<double>(a.val) * a.ena / a.run);
      }
    }
    k.aggr = a;
    // stat-shadow.c perf_stat__update_shadow_stats(): clocks in ns, the others scaled.
    int ctx = context_of(ev.attr);
    double scaled = static_cast<double>(static_cast<uint64_t>(a.val * k.scale));
    if (is_clock(ev.attr)) {
      runtime_[{kStatNsecs, ctx}].update(static_cast<double>(a.val));
    } else if (is_hw(ev.attr, 0)) {
      runtime_[{kStatCycles, ctx}].update(scaled);
    } else if (is_hw(ev.attr, 4)) {
      runtime_[{kStatBranches, ctx}].update(scaled);
    }
  }

  const Stats* runtime(StatKind kind, const EventAttr& a) const {
    auto it = runtime_.find({kind, context_of(a)});
    return it == runtime_.end() ? nullptr : &it->second;
  }

  // stat-display.c print_metric_std().
  void metric(const char* fmt_spec, const char* unit, double val) {
    if (!unit || !fmt_spec) {
      out_.print("{:<{}}", "", kMetricLen);
      return;
    }
    std::string v = cformat(fmt_spec, val);
    int n = 3 + static_cast<int>(v.size());
    out_.print(" # {} {:<{}}", v, unit, std::max(kMetricLen - n - 1, 0));
  }

  // stat-shadow.c perf_stat__print_shadow_stats(), for the events perf stat counts by default.
  void shadow(const EventAttr& a, double avg, double scale) {
    if (is_hw(a, 1)) {  // instructions
      const Stats* cyc = runtime(kStatCycles, a);
      double total = cyc ? cyc->mean : 0;
      if (total) {
        metric("%7.2f ", "insn per cycle", avg / total);
      } else {
        metric(nullptr, "insn per cycle", 0);
      }
    } else if (is_hw(a, 5)) {  // branch-misses
      const Stats* br = runtime(kStatBranches, a);
      if (br && br->n != 0) {
        metric("%7.2f%%", "of all branches", br->mean ? avg / br->mean * 100.0 : 0.0);
      } else {
        metric(nullptr, "of all branches", 0);
      }
    } else if (is_hw(a, 0)) {  // cycles
      const Stats* ns = runtime(kStatNsecs, a);
      double total = ns ? ns->mean : 0;
      if (total) {
        metric("%8.3f", "GHz", avg / total);
      } else {
        metric(nullptr, "Ghz", 0);
      }
    } else if (is_clock(a)) {
      if (walltime_.mean != 0) {
        metric("%8.3f", "CPUs utilized", avg / (walltime_.mean * scale));
      } else {
        metric(nullptr, "CPUs utilized", 0);
      }
    } else if (const Stats* ns = runtime(kStatNsecs, a); ns && ns->n != 0) {
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
  void running(uint64_t run, uint64_t ena) {
    if (run != ena) out_.print("  ({:.2f}%)", 100.0 * run / ena);
  }

  // stat-display.c evlist__print_counters(): print_header, print_counter_aggr for each
  // counter, print_footer.
  void print_counters() {
    if (interval_) {
      // print_interval(): the column header every 25 rounds.
      if (nr_intervals_ == 0) {
        out_.print("#           time             counts {:>{}} events\n", "unit", kUnitWidth);
      }
      if (++nr_intervals_ == 25) nr_intervals_ = 0;
    } else {
      print_header();
    }
    const EventList& events = pd_.events();
    for (size_t i = 0; i < events.size(); ++i) {
      const Evsel& ev = events[i];
      const Counter& k = counter(i);
      std::string name = event_name(ev);
      // printout(): a counter that never ran is <not supported> (stat report never opens
      // the counters, so none is marked supported).
      out_.write(prefix_);
      if (k.aggr.run == 0 || k.aggr.ena == 0 || k.scaled == -1) {
        out_.print("{:>18} {:<{}} {:<25}", k.supported ? "<not counted>" : "<not supported>",
                   k.unit, kUnitWidth, name);
        if (k.supported) free_counters_hint_ = true;
        metric(nullptr, nullptr, 0);
        running(k.aggr.run, k.aggr.ena);
        out_.put('\n');
        continue;
      }
      double uval = static_cast<double>(k.aggr.val) * k.scale;
      // abs_printout().
      const char* fmt_spec = std::floor(k.scale) != k.scale ? "%18.2f" : "%18.0f";
      out_.write(cformat(fmt_spec, uval));
      out_.print(" {:<{}} {:<32}", k.unit, kUnitWidth, name);
      shadow(ev.attr, uval, k.scale);
      running(k.aggr.run, k.aggr.ena);
      out_.put('\n');
    }
    if (!interval_) print_footer();
  }

  // print_header() for a command (stat report's target names no cpus, pid or tid).
  void print_header() {
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
  void print_footer() {
    out_.print("\n {}", cformat("%17.9f", walltime_.mean / 1e9));
    out_.write(" seconds time elapsed\n\n");
    if (free_counters_hint_ && nmi_watchdog_enabled()) {
      out_.write(
          "Some events weren't counted. Try disabling the NMI watchdog:\n"
          "\techo 0 > /proc/sys/kernel/nmi_watchdog\n"
          "\tperf stat ...\n"
          "\techo 1 > /proc/sys/kernel/nmi_watchdog\n");
    }
  }

  static bool nmi_watchdog_enabled() {
    FILE* f = std::fopen("/proc/sys/kernel/nmi_watchdog", "r");
    if (!f) return false;
    int v = 0;
    bool on = std::fscanf(f, "%d", &v) == 1 && v > 0;
    std::fclose(f);
    return on;
  }

  PerfData& pd_;
  OutBuffer& out_;
  std::vector<int> cpus_;
  size_t nr_threads_ = 0;
  int aggr_mode_ = kAggrGlobal;
  uint64_t interval_ = 0;
  bool scale_ = true;
  std::vector<Counter> counters_;
  std::map<std::pair<int, int>, Stats> runtime_;  // by StatKind and context
  Stats walltime_;
  std::string prefix_;  // the interval's time, before each line
  int nr_intervals_ = 0;
  bool free_counters_hint_ = false;
  Status status_;
};

}  // namespace

Status run_stat_report(PerfData& data, OutBuffer& out) {
  StatReport sink(data, out);
  Status st = data.process(sink);
  out.flush();
  if (!sink.status()) return sink.status();
  return st;
}

}  // namespace readperf
