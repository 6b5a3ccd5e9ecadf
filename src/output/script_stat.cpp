// `perf script` on a `perf stat record` file: the counters' values printed at each STAT_ROUND
// (builtin-script.c process_stat_round_event → __process_stat), for every thread of the
// THREAD_MAP and cpu of the CPU_MAP, as the STAT records left them
// (stat.c perf_event__process_stat_event).
#include <algorithm>

#include "readperf/format/perf_abi.h"
#include "readperf/output/script_engine.h"
#include "readperf/reader/cpu_map.h"
#include "readperf/reader/event_name.h"
#include "readperf/reader/stat_records.h"
#include "script_internal.h"

namespace readperf {

StatCounts& ScriptStat::counts(size_t evsel, size_t cpu_idx, size_t thread_idx) {
  size_t nthreads = std::max<size_t>(threads_.size(), 1);
  if (counters_.size() <= evsel) counters_.resize(evsel + 1);
  std::vector<StatCounts>& v = counters_[evsel].counts;
  size_t i = cpu_idx * nthreads + thread_idx;
  if (v.size() <= i) v.resize(i + 1);
  return v[i];
}

void ScriptStat::on_user_record(const RecordView& r) {
  ByteCursor c = r.body(pd_.order());
  switch (r.type) {
    case kRecordThreadMap: {
      ThreadMapEvent map;
      parse_thread_map(r, pd_.order(), map);
      threads_.clear();
      for (const ThreadMapEvent::Entry& e : map.entries) threads_.push_back(e.pid);
      break;
    }
    case kRecordCpuMap:
      cpus_ = decode_cpu_map(c).value_or(std::vector<int>{});
      break;
    case kRecordStatConfig: {
      StatConfigEvent config;
      parse_stat_config(r, pd_.order(), config);
      if (config.aggr_mode) aggr_mode_ = static_cast<int>(*config.aggr_mode);
      if (config.scale) scale_ = *config.scale != 0;
      break;
    }
    case kRecordStat: {
      StatEvent stat;
      if (!parse_stat(r, pd_.order(), stat)) break;
      const Evsel* ev = pd_.events().find_id(stat.id);
      if (!ev) break;
      // The record names a cpu; its counts live at that cpu's index in the cpu map
      // (perf_cpu_map__idx); perf refuses a cpu outside the map.
      auto it = std::find(cpus_.begin(), cpus_.end(), stat.cpu);
      if (it == cpus_.end() || stat.thread >= std::max<size_t>(threads_.size(), 1)) break;
      counts(ev->index, it - cpus_.begin(), stat.thread) = {stat.val, stat.ena, stat.run};
      break;
    }
    case kRecordStatRound: {
      StatRoundEvent round_event;
      if (parse_stat_round(r, pd_.order(), round_event)) round(round_event.time);
      break;
    }
    default:
      break;
  }
}

// builtin-script.c process_stat_round_event(): each counter through
// perf_stat_process_counter(), then printed (__process_stat) or handed to the script
// (python_process_stat), then the script's stat__interval.
void ScriptStat::round(uint64_t time) {
  const EventList& events = pd_.events();
  if (counters_.size() < events.size()) counters_.resize(events.size());
  for (size_t e = 0; e < events.size(); ++e) {
    StatCounter& c = counters_[e];
    // script's stats have prev_raw_counts (set_maps(): evlist__alloc_stats(evlist, true)).
    process_stat_counter(c, aggr_mode_, scale_, std::max<size_t>(cpus_.size(), 1),
                         std::max<size_t>(threads_.size(), 1), nullptr);
    if (engine_) {
      script_counter(events[e], c, time);
    } else {
      print_counter(events[e], c, time);
    }
  }
  if (engine_) engine_->process_stat_interval(time);
}

// __process_stat(): every thread of the THREAD_MAP and cpu of the CPU_MAP.
void ScriptStat::print_counter(const Evsel& evsel, StatCounter& c, uint64_t time) {
  if (!header_printed_) {
    out_.print("{:>3} {:>8} {:>15} {:>15} {:>15} {:>15} {}\n", "CPU", "THREAD", "VAL", "ENA", "RUN",
               "TIME", "EVENT");
    header_printed_ = true;
  }
  std::string name = event_name(evsel);
  size_t nthreads = std::max<size_t>(threads_.size(), 1);
  for (size_t t = 0; t < threads_.size(); ++t) {
    for (size_t ci = 0; ci < cpus_.size(); ++ci) {
      const StatCounts& v = c.counts[ci * nthreads + t];
      out_.print("{:3} {:8} {:15} {:15} {:15} {:15} {}\n", cpus_[ci], threads_[t], v.val, v.ena,
                 v.run, time, name);
    }
  }
}

// trace-event-python.c python_process_stat(): AGGR_GLOBAL's sum once, with cpu and thread -1;
// otherwise each thread and cpu.
void ScriptStat::script_counter(const Evsel& evsel, StatCounter& c, uint64_t time) {
  if (aggr_mode_ == kAggrGlobal) {
    engine_->process_stat(evsel, -1, -1, time, c.aggr.val, c.aggr.ena, c.aggr.run);
    return;
  }
  size_t nthreads = std::max<size_t>(threads_.size(), 1);
  for (size_t t = 0; t < threads_.size(); ++t) {
    for (size_t ci = 0; ci < cpus_.size(); ++ci) {
      const StatCounts& v = c.counts[ci * nthreads + t];
      engine_->process_stat(evsel, cpus_[ci], threads_[t], time, v.val, v.ena, v.run);
    }
  }
}

}  // namespace readperf
