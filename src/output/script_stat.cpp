// `perf script` on a `perf stat record` file: the counters' values printed at each STAT_ROUND
// (builtin-script.c process_stat_round_event → __process_stat), for every thread of the
// THREAD_MAP and cpu of the CPU_MAP, as the STAT records left them
// (stat.c perf_event__process_stat_event).
#include <algorithm>

#include "readperf/format/perf_abi.h"
#include "readperf/reader/cpu_map.h"
#include "readperf/reader/event_name.h"
#include "script_internal.h"

namespace readperf {

namespace {

constexpr int kAggrGlobal = 1;  // stat.h AGGR_GLOBAL

}  // namespace

ScriptStat::Counts& ScriptStat::counts(size_t evsel, size_t cpu_idx, size_t thread_idx) {
  size_t nthreads = std::max<size_t>(threads_.size(), 1);
  if (counts_.size() <= evsel) counts_.resize(evsel + 1);
  std::vector<Counts>& v = counts_[evsel];
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
      if (c.ok()) print_round(time);
      break;
    }
    default:
      break;
  }
}

void ScriptStat::print_round(uint64_t time) {
  if (!header_printed_) {
    out_.print("{:>3} {:>8} {:>15} {:>15} {:>15} {:>15} {}\n", "CPU", "THREAD", "VAL", "ENA", "RUN",
               "TIME", "EVENT");
    header_printed_ = true;
  }
  const EventList& events = pd_.events();
  for (size_t e = 0; e < events.size(); ++e) {
    std::string name = event_name(events[e]);
    for (size_t t = 0; t < threads_.size(); ++t) {
      for (size_t ci = 0; ci < cpus_.size(); ++ci) {
        Counts& v = counts(e, ci, t);
        // stat.c process_counter_values(): outside AGGR_GLOBAL each count is scaled in place
        // (perf_counts_values__scale).
        if (aggr_mode_ != kAggrGlobal && scale_) {
          if (v.run == 0) {
            v.val = 0;
          } else if (v.run < v.ena) {
            v.val = static_cast<uint64_t>(static_cast<double>(v.val) * v.ena / v.run);
          }
        }
        out_.print("{:3} {:8} {:15} {:15} {:15} {:15} {}\n", cpus_[ci], threads_[t], v.val, v.ena,
                   v.run, time, name);
      }
    }
  }
}

}  // namespace readperf
