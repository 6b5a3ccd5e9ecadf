// A `perf stat record` counter's counts and what each STAT_ROUND does to them (stat.c
// perf_stat_process_counter()), shared by `stat report` and `script` on such files. Not a
// public API.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace readperf {

// stat.h enum aggr_mode.
enum StatAggrMode : int {
  kAggrNone = 0,
  kAggrGlobal = 1,
  kAggrSocket = 2,
  kAggrDie = 3,
  kAggrCore = 4,
  kAggrThread = 5,
  kAggrUnset = 6,
  kAggrNode = 7,
};

struct StatCounts {
  uint64_t val = 0, ena = 0, run = 0;
};

// One event's counts: per cpu index and thread (cpu_idx * nr_threads + thread) as the STAT
// records left them and, after a round, as its deltas; the previous round's raw counts
// (evsel->prev_raw_counts); AGGR_GLOBAL's sum and its scaling (counts->scaled).
struct StatCounter {
  std::string unit;  // EVENT_UPDATE's (evsel.c evsel__init: "")
  double scale = 1.0;
  std::vector<StatCounts> counts;
  std::vector<StatCounts> prev_raw;
  StatCounts aggr, prev_aggr;
  int8_t scaled = 0;
  bool supported = false;  // a STAT record came for it (perf_event__process_stat_event)
};

// perf_stat_process_counter() with prev_raw_counts (builtin-script.c and builtin-stat.c
// allocate them for a file): AGGR_GLOBAL sums the counts and takes the sum's delta from the
// last round, scaled when `scale`; the other modes turn each count into its delta, scaled, in
// place (process_counter_values()), handing each to `on_count(cpu_idx, thread, count)` (the
// shadow stats of -A and --per-thread).
void process_stat_counter(StatCounter& k, int aggr_mode, bool scale, size_t nr_cpus,
                          size_t nr_threads,
                          const std::function<void(size_t, size_t, const StatCounts&)>& on_count);

}  // namespace readperf
