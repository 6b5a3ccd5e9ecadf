// builtin-stat.c __cmd_report(): the STAT records fill each counter's per-cpu, per-thread
// counts (stat.c perf_event__process_stat_event); each STAT_ROUND processes them
// (perf_stat_process_counter: deltas from the last round, scaled, summed for AGGR_GLOBAL),
// feeds the shadow stats (stat-shadow.c perf_stat__update_shadow_stats) and prints the table
// (stat_display.cpp).
#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "readperf/format/perf_abi.h"
#include "readperf/reader/cpu_map.h"
#include "readperf/reader/stat_records.h"
#include "stat_report_internal.h"

namespace readperf {

namespace {

constexpr uint64_t kRoundFinal = 1;  // PERF_STAT_ROUND_TYPE__FINAL

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

}  // namespace

bool stat_is_clock(const EventAttr& a) {  // evsel.h evsel__is_clock()
  return a.type == kTypeSoftware && (a.config == 0 || a.config == 1);
}

bool stat_is_hw(const EventAttr& a, uint64_t config) {
  return a.type == kTypeHardware && a.config == config;
}

int stat_context(const StatKind kind, const EventAttr& a) {
  // stat-shadow.c saved_value_lookup(): no context for clock events.
  return kind == kStatNsecs ? 0 : context_of(a);
}

StatCounter& StatReport::counter(size_t index) {
  if (counters_.size() <= index) counters_.resize(index + 1);
  return counters_[index];
}

void StatReport::on_user_record(const RecordView& r) {
  if (!status_) return;
  ByteCursor c = r.body(pd_.order());
  switch (r.type) {
    case kRecordThreadMap: {
      // builtin-stat.c process_thread_map_event(): the first map only.
      if (have_threads_) {
        out_.write("Extra thread map event, ignoring.\n");
        break;
      }
      have_threads_ = true;
      ThreadMapEvent map;
      parse_thread_map(r, pd_.order(), map);
      for (const ThreadMapEvent::Entry& e : map.entries) {
        thread_pids_.push_back(e.pid);
        thread_comms_.emplace_back(e.comm);
      }
      break;
    }
    case kRecordCpuMap:
      if (have_cpus_) {
        out_.write("Extra cpu map event, ignoring.\n");
        break;
      }
      have_cpus_ = true;
      cpus_ = decode_cpu_map(c).value_or(std::vector<int>{});
      break;
    case kRecordStatConfig: {
      StatConfigEvent config;
      parse_stat_config(r, pd_.order(), config);
      on_stat_config(config);
      break;
    }
    case kRecordEventUpdate: {
      // header.c perf_event__process_event_update(): UNIT 0, SCALE 1 (NAME the reader does).
      uint64_t type = c.u64();
      const Evsel* ev = pd_.events().find_id(c.u64());
      if (!c.ok() || !ev) break;
      StatCounter& k = counter(ev->index);
      if (type == 0) k.unit = std::string(c.cstring());
      if (type == 1) {
        uint64_t bits = c.u64();
        // perf_event__event_update_swap() swaps only type and id: the scale is read as it is.
        if (c.swapped()) bits = bswap(bits);
        if (c.ok()) std::memcpy(&k.scale, &bits, sizeof(bits));
      }
      break;
    }
    case kRecordStat: {
      StatEvent stat;
      if (parse_stat(r, pd_.order(), stat)) on_stat(stat);
      break;
    }
    case kRecordStatRound: {
      StatRoundEvent round;
      if (parse_stat_round(r, pd_.order(), round)) on_round(round.type, round.time);
      break;
    }
    default:
      break;
  }
}

// builtin-stat.c process_stat_config_event(): the recorded aggr_mode, interval and scale
// (stat.c perf_event__read_stat_config(): tags 0, 1, 2); an option's mode replaces the
// recorded one, unless the counts are per task (a cpu map of "any cpu" only).
void StatReport::on_stat_config(const StatConfigEvent& config) {
  if (config.aggr_mode) aggr_mode_ = static_cast<int>(*config.aggr_mode);
  if (config.interval) interval_ = *config.interval;
  if (config.scale) scale_ = *config.scale != 0;
  if (cpus_.empty() || cpus_[0] == -1) {  // perf_cpu_map__empty()
    if (options_.aggr_mode >= 0)
      out_.write("warning: processing task data, aggregation mode not set\n");
    return;
  }
  if (options_.aggr_mode >= 0) aggr_mode_ = options_.aggr_mode;
}

// stat.c perf_event__process_stat_event().
void StatReport::on_stat(const StatEvent& stat) {
  int32_t cpu = stat.cpu;
  uint32_t thread = stat.thread;
  StatCounts v{stat.val, stat.ena, stat.run};
  const Evsel* ev = pd_.events().find_id(stat.id);
  if (!ev) {
    status_ = make_error("Failed to resolve counter for stat event.");
    return;
  }
  auto it = std::find(cpus_.begin(), cpus_.end(), cpu);
  if (it == cpus_.end() || thread >= nr_threads()) {
    status_ = make_error(fmt::format("Invalid cpu {} or thread {} for stat event.", cpu, thread));
    return;
  }
  StatCounter& k = counter(ev->index);
  k.supported = true;
  k.counts.resize(nr_cpus() * nr_threads());
  k.counts[(it - cpus_.begin()) * nr_threads() + thread] = v;
}

// builtin-stat.c process_stat_round_event().
void StatReport::on_round(uint64_t type, uint64_t time) {
  const EventList& events = pd_.events();
  for (size_t i = 0; i < events.size(); ++i) process_counter(events[i], counter(i));
  if (type == kRoundFinal) walltime_.update(static_cast<double>(time));
  if (interval_ && time) {
    // print_interval(): -j --metric-only closes the interval's object before the aggregate.
    prefix_ = json_ ? fmt::format("{{\"interval\" : {}.{:09}{}", time / 1000000000,
                                  time % 1000000000, metric_only_ ? "}" : ", ")
                    : fmt::format("{:6}.{:09}{}", time / 1000000000, time % 1000000000, sep_);
  } else {
    prefix_.clear();
  }
  print_counters();
}

// stat.c perf_stat_process_counter(), with the shadow stats: per cpu for -A and per thread
// for --per-thread as each count is processed, of AGGR_GLOBAL's sum under index 0 (the
// aggregates' come when they are printed, aggr_update_shadow()).
void StatReport::process_counter(const Evsel& ev, StatCounter& k) {
  process_stat_counter(k, aggr_mode_, scale_, nr_cpus(), nr_threads(),
                       [&](size_t idx, size_t thread, const StatCounts& v) {
                         if (aggr_mode_ == kAggrNone) {
                           update_shadow(ev.attr, v.val, k.scale, static_cast<int>(idx));
                         } else if (aggr_mode_ == kAggrThread) {
                           update_shadow(ev.attr, v.val, k.scale, static_cast<int>(thread));
                         }
                       });
  if (aggr_mode_ == kAggrGlobal) update_shadow(ev.attr, k.aggr.val, k.scale, 0);
}

// stat-shadow.c perf_stat__update_shadow_stats(): clocks in ns, the others scaled.
void StatReport::update_shadow(const EventAttr& a, uint64_t val, double scale, int map_idx) {
  double scaled = static_cast<double>(static_cast<uint64_t>(static_cast<double>(val) * scale));
  if (stat_is_clock(a)) {
    runtime_[{kStatNsecs, stat_context(kStatNsecs, a), map_idx}].update(static_cast<double>(val));
  } else if (stat_is_hw(a, 0)) {
    runtime_[{kStatCycles, stat_context(kStatCycles, a), map_idx}].update(scaled);
  } else if (stat_is_hw(a, 4)) {
    runtime_[{kStatBranches, stat_context(kStatBranches, a), map_idx}].update(scaled);
  }
}

// builtin-stat.c perf_env__get_{socket,die,core}_aggr_by_cpu(), perf_env__get_node_aggr_by_cpu():
// the ids of the header's CPU_TOPOLOGY (env->cpu[cpu]) and the position of the NUMA_TOPOLOGY
// node holding the cpu (env.c perf_env__numa_node()).
StatAggrId StatReport::aggr_id(int cpu) const {
  StatAggrId id;
  const Features& f = pd_.features();
  if (aggr_mode_ == kAggrNode) {
    if (f.numa_nodes) {
      for (size_t i = 0; i < f.numa_nodes->size(); ++i) {
        const std::vector<int>& node_cpus = (*f.numa_nodes)[i].cpus;
        if (std::find(node_cpus.begin(), node_cpus.end(), cpu) != node_cpus.end()) {
          id.node = static_cast<int>(i);
          break;
        }
      }
    }
    return id;
  }
  if (cpu < 0 || !f.cpu_topology || !f.cpu_topology->cpus ||
      static_cast<size_t>(cpu) >= f.cpu_topology->cpus->size()) {
    return id;
  }
  const CpuTopology::Cpu& t = (*f.cpu_topology->cpus)[cpu];
  id.socket = t.socket_id;
  if (aggr_mode_ == kAggrDie || aggr_mode_ == kAggrCore) id.die = t.die_id;
  if (aggr_mode_ == kAggrCore) id.core = t.core_id;
  return id;
}

// cpumap.c aggr_cpu_id__cpu(): perf asks the machine it runs on for the cpu's socket
// (cpu.c cpu__get_socket_id(): sysfs physical_package_id); without one the id is empty and
// AGGR_NONE prints no cpu column. READPERF_SYSFS_CPU stands for /sys/devices/system/cpu.
bool StatReport::cpu_named(size_t idx) {
  if (cpu_named_.size() != cpus_.size()) {
    const char* root = std::getenv("READPERF_SYSFS_CPU");
    cpu_named_.assign(cpus_.size(), false);
    for (size_t i = 0; i < cpus_.size(); ++i) {
      std::string path = fmt::format("{}/cpu{}/topology/physical_package_id",
                                     root && *root ? root : "/sys/devices/system/cpu", cpus_[i]);
      std::FILE* f = std::fopen(path.c_str(), "r");
      if (!f) continue;
      int id = -1;
      cpu_named_[i] = std::fscanf(f, "%d", &id) == 1 && id != -1;
      std::fclose(f);
    }
  }
  return cpu_named_[idx];
}

Status run_stat_report(PerfData& data, OutBuffer& out, const StatReportOptions& options) {
  StatReport sink(data, out, options);
  Status st = data.process(sink);
  out.flush();
  if (!sink.status()) return sink.status();
  return st;
}

}  // namespace readperf
