#include "stat_counts.h"

namespace readperf {

namespace {

// lib/perf/evsel.c perf_counts_values__scale(): -1 when the counter never ran, 1 when scaled.
int8_t scale_counts(StatCounts& c) {
  if (c.run == 0) {
    c.val = 0;
    return -1;
  }
  if (c.run < c.ena) {
    c.val = static_cast<uint64_t>(static_cast<double>(c.val) * c.ena / c.run);
    return 1;
  }
  return 0;
}

// evsel.c evsel__compute_deltas(): the count less the last round's raw one, which it becomes.
void compute_delta(StatCounts& c, StatCounts& prev) {
  StatCounts raw = c;
  c.val -= prev.val;
  c.ena -= prev.ena;
  c.run -= prev.run;
  prev = raw;
}

}  // namespace

void process_stat_counter(StatCounter& k, int aggr_mode, bool scale, size_t nr_cpus,
                          size_t nr_threads,
                          const std::function<void(size_t, size_t, const StatCounts&)>& on_count) {
  k.aggr = StatCounts{};
  k.counts.resize(nr_cpus * nr_threads);
  k.prev_raw.resize(k.counts.size());
  // process_counter_maps(): threads, then cpus.
  for (size_t thread = 0; thread < nr_threads; ++thread) {
    for (size_t idx = 0; idx < nr_cpus; ++idx) {
      StatCounts& v = k.counts[idx * nr_threads + thread];
      switch (aggr_mode) {
        case kAggrGlobal:
          k.aggr.val += v.val;
          k.aggr.ena += v.ena;
          k.aggr.run += v.run;
          break;
        case kAggrNone:
        case kAggrSocket:
        case kAggrDie:
        case kAggrCore:
        case kAggrThread:
        case kAggrNode:
          compute_delta(v, k.prev_raw[idx * nr_threads + thread]);
          if (scale) scale_counts(v);
          if (on_count) on_count(idx, thread, v);
          break;
        default:
          break;
      }
    }
  }
  if (aggr_mode != kAggrGlobal) return;
  compute_delta(k.aggr, k.prev_aggr);
  k.scaled = scale ? scale_counts(k.aggr) : 0;
}

}  // namespace readperf
