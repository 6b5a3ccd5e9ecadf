#include "readperf/output/read_values.h"

#include <algorithm>

#include "readperf/format/perf_abi.h"
#include "readperf/reader/event_name.h"

namespace readperf {

void ReadValues::on_kernel_record(const RecordView& r, const Sample&, const Evsel* evsel) {
  if (r.type != kRecordRead || !evsel) return;
  ByteCursor c = r.body(order_);
  uint32_t pid = c.u32();
  uint32_t tid = c.u32();
  uint64_t value = c.u64();
  if (!c.ok()) return;
  // values.c perf_read_values__findnew_thread() and _findnew_counter().
  auto t = std::find_if(threads_.begin(), threads_.end(),
                        [&](const Thread& x) { return x.pid == pid && x.tid == tid; });
  if (t == threads_.end()) {
    threads_.push_back(Thread{pid, tid, {}});
    t = threads_.end() - 1;
  }
  auto k = std::find_if(counters_.begin(), counters_.end(),
                        [&](const Counter& x) { return x.raw_id == evsel->index; });
  if (k == counters_.end()) {
    counters_.push_back(Counter{evsel->index, event_name(*evsel)});
    k = counters_.end() - 1;
  }
  size_t j = static_cast<size_t>(k - counters_.begin());
  if (t->values.size() <= j) t->values.resize(j + 1, 0);
  t->values[j] += value;
}

void ReadValues::print(OutBuffer& out, bool raw) const {
  auto digits = [](auto v) { return static_cast<int>(fmt::formatted_size("{}", v)); };
  auto value = [](const Thread& t, size_t j) { return j < t.values.size() ? t.values[j] : 0; };
  int pid_w = 3, tid_w = 3;
  for (const Thread& t : threads_) {
    // "%d" of the u32 ids, as perf's int fields print them.
    pid_w = std::max(pid_w, digits(static_cast<int32_t>(t.pid)));
    tid_w = std::max(tid_w, digits(static_cast<int32_t>(t.tid)));
  }
  if (!raw) {
    // perf_read_values__display_pretty().
    std::vector<int> w;
    for (const Counter& k : counters_) w.push_back(static_cast<int>(k.name.size()));
    for (const Thread& t : threads_) {
      for (size_t j = 0; j < counters_.size(); ++j) w[j] = std::max(w[j], digits(value(t, j)));
    }
    out.print("# {:>{}}  {:>{}}", "PID", pid_w, "TID", tid_w);
    for (size_t j = 0; j < counters_.size(); ++j) out.print("  {:>{}}", counters_[j].name, w[j]);
    out.print("\n");
    for (const Thread& t : threads_) {
      out.print("  {:>{}}  {:>{}}", static_cast<int32_t>(t.pid), pid_w, static_cast<int32_t>(t.tid),
                tid_w);
      for (size_t j = 0; j < counters_.size(); ++j) out.print("  {:>{}}", value(t, j), w[j]);
      out.print("\n");
    }
    return;
  }
  // perf_read_values__display_raw().
  int name_w = 4, raw_w = 3, count_w = 5;
  for (const Counter& k : counters_) {
    name_w = std::max(name_w, static_cast<int>(k.name.size()));
    raw_w = std::max(raw_w, static_cast<int>(fmt::formatted_size("{:x}", k.raw_id)));
  }
  for (const Thread& t : threads_) {
    for (size_t j = 0; j < counters_.size(); ++j) count_w = std::max(count_w, digits(value(t, j)));
  }
  out.print("# {:>{}}  {:>{}}  {:>{}}  {:>{}}  {:>{}}\n", "PID", pid_w, "TID", tid_w, "Name",
            name_w, "Raw", raw_w, "Count", count_w);
  for (const Thread& t : threads_) {
    for (size_t j = 0; j < counters_.size(); ++j) {
      out.print("  {:>{}}  {:>{}}  {:>{}}  {:>{}x}  {:>{}}", static_cast<int32_t>(t.pid), pid_w,
                static_cast<int32_t>(t.tid), tid_w, counters_[j].name, name_w, counters_[j].raw_id,
                raw_w, value(t, j), count_w);
    }
  }
}

}  // namespace readperf
