// `perf report -T/--threads`: the counter values PERF_RECORD_READ records carry per thread
// (`perf record -s`, inherit_stat), summed by thread and event, printed after the report as
// util/values.c perf_read_values_display() does:
//
//   #   PID    TID  task-clock
//     25798  25798    18341096
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "readperf/output/out_buffer.h"
#include "readperf/reader/perf_data.h"

namespace readperf {

class ReadValues : public EventSink {
 public:
  explicit ReadValues(ByteOrder order) : order_(order) {}

  // builtin-report.c process_read_event(): read.value added to the thread's and event's sum
  // (threads and events in order of first appearance).
  void on_kernel_record(const RecordView& r, const Sample& s, const Evsel* evsel) override;

  // perf_read_values_display(): `raw` is `--pretty raw` (one row per thread and counter; perf
  // ends those rows without a newline).
  void print(OutBuffer& out, bool raw) const;

 private:
  struct Thread {
    uint32_t pid, tid;
    std::vector<uint64_t> values;  // by counter
  };
  struct Counter {
    uint64_t raw_id;  // the event's index
    std::string name;
  };
  ByteOrder order_;
  std::vector<Thread> threads_;
  std::vector<Counter> counters_;
};

}  // namespace readperf
