// `report --stats`: perf's record counts per type and sample counts per event
// (builtin-report.c stats_print, ui/stdio/hist.c events_stats__fprintf, util/hist.c
// evlist__fprintf_nr_events).
//
//   StatsCounter counts;               // an EventSink
//   data->process(counts);
//   print_stats(counts, *data, out);
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "readperf/output/out_buffer.h"
#include "readperf/reader/perf_data.h"

namespace readperf {

class StatsCounter : public EventSink {
 public:
  void on_read(const RecordView& r) override;
  void on_kernel_record(const RecordView& r, const Sample& s, const Evsel* evsel) override;

  // Records per type, [0] being the total (perf's events_stats.nr_events).
  std::array<uint64_t, 256> nr_events{};
  std::vector<uint64_t> nr_samples;       // per event
  std::vector<uint64_t> nr_lost_samples;  // per event
  const EventList* events = nullptr;
  ByteOrder order = ByteOrder::kNative;
};

// "\nAggregated stats:\n" and the per-type lines; then "<event> stats:" per event.
void print_aggregated_stats(const StatsCounter& c, const PerfData& data, OutBuffer& out,
                            bool skip_empty = true);
// `names_from_attrs`: name every event from its attr (attr_event_name), as perf's
// `report --stats` does for a pipe, where it ignores the names the pipe records.
void print_event_stats(const StatsCounter& c, const PerfData& data, OutBuffer& out,
                       bool names_from_attrs = false, bool skip_empty = true);

}  // namespace readperf
