// `perf script` on a `perf stat record` file: the counters' values printed at each STAT_ROUND
// (builtin-script.c process_stat_round_event → __process_stat), for every thread of the
// THREAD_MAP and cpu of the CPU_MAP, as the STAT records left them
// (stat.c perf_event__process_stat_event).
#include <algorithm>

#include "readperf/format/perf_abi.h"
#include "readperf/output/script_engine.h"
#include "readperf/reader/cpu_map.h"
#include "readperf/reader/event_name.h"
#include "script_internal.h"

namespace readperf {

namespace {

// stat.h enum aggr_mode.
constexpr int kAggrGlobal = 1;
constexpr int kAggrUnset = 6;
constexpr int kAggrNode = 7;

}  // namespace

size_t ScriptStat::slots() const {
  return std::max<size_t>(cpus_.size(), 1) * std::max<size_t>(threads_.size(), 1);
}

ScriptStat::Counts& ScriptStat::counts(size_t evsel, size_t cpu_idx, size_t thread_idx) {
  size_t nthreads = std::max<size_t>(threads_.size(), 1);
  if (counters_.size() <= evsel) counters_.resize(evsel + 1);
  std::vector<Counts>& v = counters_[evsel].counts;
  size_t i = cpu_idx * nthreads + thread_idx;
  if (v.size() <= i) v.resize(i + 1);
  return v[i];
}

void ScriptStat::on_user_record(const RecordView& r) {
  ByteCursor c = r.body(pd_.order());
  switch (r.type) {
    case kRecordThreadMap: {
      uint64_t nr = c.u64();
      threads_.clear();
      for (uint64_t i = 0; i < nr && c.remaining() >= 24; ++i) {
        threads_.push_back(static_cast<int32_t>(c.u64()));
        c.skip(16);
      }
      break;
    }
    case kRecordCpuMap:
      cpus_ = decode_cpu_map(c).value_or(std::vector<int>{});
      break;
    case kRecordStatConfig: {
      uint64_t nr = c.u64();
      for (uint64_t i = 0; i < nr && c.remaining() >= 16; ++i) {
        uint64_t tag = c.u64();
        uint64_t val = c.u64();
        if (tag == 0) aggr_mode_ = static_cast<int>(val);
        if (tag == 2) scale_ = val != 0;
      }
      break;
    }
    case kRecordStat: {
      uint64_t id = c.u64();
      uint32_t cpu = c.u32();
      uint32_t thread = c.u32();
      Counts v;
      v.val = c.u64();
      v.ena = c.u64();
      v.run = c.u64();
      const Evsel* ev = pd_.events().find_id(id);
      if (!c.ok() || !ev) break;
      // The record names a cpu; its counts live at that cpu's index in the cpu map
      // (perf_cpu_map__idx); perf refuses a cpu outside the map.
      auto it = std::find(cpus_.begin(), cpus_.end(), static_cast<int32_t>(cpu));
      if (it == cpus_.end() || thread >= std::max<size_t>(threads_.size(), 1)) break;
      counts(ev->index, it - cpus_.begin(), thread) = v;
      break;
    }
    case kRecordStatRound: {
      c.u64();  // type
      uint64_t time = c.u64();
      if (c.ok()) round(time);
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
    Counter& c = counters_[e];
    if (c.counts.size() < slots()) c.counts.resize(slots());
    process_counter(c);
    if (engine_) {
      script_counter(events[e], c, time);
    } else {
      print_counter(events[e], c, time);
    }
  }
  if (engine_) engine_->process_stat_interval(time);
}

namespace {

// evsel.c evsel__compute_deltas(): the count becomes its growth since the last round, the
// raw count is kept for the next.
void compute_delta(uint64_t& val, uint64_t& ena, uint64_t& run, uint64_t prev[3], uint64_t raw[3]) {
  raw[0] = val, raw[1] = ena, raw[2] = run;
  val -= prev[0], ena -= prev[1], run -= prev[2];
}

// lib/perf/evsel.c perf_counts_values__scale().
void scale_count(uint64_t& val, uint64_t ena, uint64_t run) {
  if (run == 0) {
    val = 0;
  } else if (run < ena) {
    val = static_cast<uint64_t>(static_cast<double>(val) * ena / run);
  }
}

}  // namespace

// stat.c perf_stat_process_counter() and process_counter_values(): outside AGGR_GLOBAL each
// count becomes its delta from the last round and is scaled in place (so a count no STAT
// record refreshed is taken again from its delta); in AGGR_GLOBAL the raw counts are summed
// and the sum gets the delta and the scaling. script's stats are allocated with
// prev_raw_counts (set_maps(): evlist__alloc_stats(evlist, true)).
void ScriptStat::process_counter(Counter& c) {
  c.aggr = Counts{};
  if (c.prev_raw.size() < c.counts.size()) c.prev_raw.resize(c.counts.size());
  for (size_t i = 0; i < c.counts.size(); ++i) {
    Counts& v = c.counts[i];
    if (aggr_mode_ == kAggrGlobal) {
      c.aggr.val += v.val;
      c.aggr.ena += v.ena;
      c.aggr.run += v.run;
    } else if (aggr_mode_ < kAggrUnset || aggr_mode_ == kAggrNode) {
      Counts& prev = c.prev_raw[i];
      uint64_t p[3] = {prev.val, prev.ena, prev.run};
      uint64_t raw[3];
      compute_delta(v.val, v.ena, v.run, p, raw);
      prev = {raw[0], raw[1], raw[2]};
      if (scale_) scale_count(v.val, v.ena, v.run);
    }
  }
  if (aggr_mode_ != kAggrGlobal) return;
  uint64_t p[3] = {c.prev_aggr.val, c.prev_aggr.ena, c.prev_aggr.run};
  uint64_t raw[3];
  compute_delta(c.aggr.val, c.aggr.ena, c.aggr.run, p, raw);
  c.prev_aggr = {raw[0], raw[1], raw[2]};
  if (scale_) scale_count(c.aggr.val, c.aggr.ena, c.aggr.run);
}

// __process_stat(): every thread of the THREAD_MAP and cpu of the CPU_MAP.
void ScriptStat::print_counter(const Evsel& evsel, Counter& c, uint64_t time) {
  if (!header_printed_) {
    out_.print("{:>3} {:>8} {:>15} {:>15} {:>15} {:>15} {}\n", "CPU", "THREAD", "VAL", "ENA", "RUN",
               "TIME", "EVENT");
    header_printed_ = true;
  }
  std::string name = event_name(evsel);
  size_t nthreads = std::max<size_t>(threads_.size(), 1);
  for (size_t t = 0; t < threads_.size(); ++t) {
    for (size_t ci = 0; ci < cpus_.size(); ++ci) {
      const Counts& v = c.counts[ci * nthreads + t];
      out_.print("{:3} {:8} {:15} {:15} {:15} {:15} {}\n", cpus_[ci], threads_[t], v.val, v.ena,
                 v.run, time, name);
    }
  }
}

// trace-event-python.c python_process_stat(): AGGR_GLOBAL's sum once, with cpu and thread -1;
// otherwise each thread and cpu.
void ScriptStat::script_counter(const Evsel& evsel, Counter& c, uint64_t time) {
  if (aggr_mode_ == kAggrGlobal) {
    engine_->process_stat(evsel, -1, -1, time, c.aggr.val, c.aggr.ena, c.aggr.run);
    return;
  }
  size_t nthreads = std::max<size_t>(threads_.size(), 1);
  for (size_t t = 0; t < threads_.size(); ++t) {
    for (size_t ci = 0; ci < cpus_.size(); ++ci) {
      const Counts& v = c.counts[ci * nthreads + t];
      engine_->process_stat(evsel, cpus_[ci], threads_[t], time, v.val, v.ena, v.run);
    }
  }
}

}  // namespace readperf
