// The records `perf stat record` writes (lib/perf/include/perf/event.h): THREAD_MAP,
// STAT_CONFIG, STAT and STAT_ROUND, parsed from their bodies (CPU_MAP: cpu_map.h). Strings are
// views into the record.
//
//   StatEvent e;
//   if (parse_stat(record, order, e)) counts[e.cpu] = ...;
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "readperf/format/byte_cursor.h"
#include "readperf/reader/record.h"

namespace readperf {

// perf_record_thread_map: nr, then {u64 pid; char comm[16]} each (as many as the body holds).
struct ThreadMapEvent {
  uint64_t nr = 0;
  struct Entry {
    int32_t pid = 0;
    std::string_view comm;  // up to its NUL, at most 16 bytes (thread_map__new_event())
  };
  std::vector<Entry> entries;
};

// perf_record_stat_config: the terms' values as recorded, the last of each tag
// (stat.c perf_event__read_stat_config(): 0 aggr_mode, 1 interval, 2 scale).
struct StatConfigEvent {
  std::optional<uint64_t> aggr_mode;
  std::optional<uint64_t> interval;
  std::optional<uint64_t> scale;
};

// perf_record_stat: a counter's value on one cpu and thread.
struct StatEvent {
  uint64_t id = 0;
  int32_t cpu = 0;
  uint32_t thread = 0;
  uint64_t val = 0, ena = 0, run = 0;
};

// perf_record_stat_round: type 0 INTERVAL, 1 FINAL.
struct StatRoundEvent {
  uint64_t type = 0;
  uint64_t time = 0;
};

bool parse_thread_map(const RecordView& r, ByteOrder order, ThreadMapEvent& out);
bool parse_stat_config(const RecordView& r, ByteOrder order, StatConfigEvent& out);
bool parse_stat(const RecordView& r, ByteOrder order, StatEvent& out);
bool parse_stat_round(const RecordView& r, ByteOrder order, StatRoundEvent& out);

}  // namespace readperf
