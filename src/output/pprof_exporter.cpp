// The pprof exporter: the resolved sample stream folded into profile.proto messages by
// PprofBuilder (pprof_builder.h), gzipped (profile.proto: "On-disk, the serialized proto must
// be gzip-compressed").
#include "readperf/output/pprof_exporter.h"

#include <fmt/format.h>

#include <string>
#include <vector>

#include "pprof_builder.h"
#include "readperf/format/perf_abi.h"
#include "sample_stream.h"

namespace readperf {

namespace {

class PprofSink : public SampleStreamSink {
 public:
  PprofSink(PerfData& pd, const PprofConfig& cfg)
      : SampleStreamSink(pd, cfg.symbols, cfg.max_stack),
        symbolized_(cfg.symbols.symbol_tables),
        builder_(symbolized_, nullptr) {}

  void write(GzipWriter& out) {
    PprofHeader h;
    // sample_type: samples/count, then the events in first-sample order.
    h.sample_types.emplace_back("samples", "count");
    for (const EventSlot& e : events_) h.sample_types.emplace_back(e.name, e.unit);
    if (!events_.empty()) {
      h.has_period_type = true;
      h.period_type = {events_[0].name, events_[0].unit};
      h.default_sample_type = events_[0].name;
      h.period = static_cast<int64_t>(events_[0].fixed_period);
    }
    if (last_time_ > first_time_ && first_time_ != ~0ull) {
      h.duration_nanos = static_cast<int64_t>(last_time_ - first_time_);
    }
    h.comments.emplace_back("readperf export --format pprof");
    if (!symbolized_) h.comments.push_back(unsymbolized_mark());
    builder_.write(h, out);
  }

 protected:
  void on_sample(const Sample& s, const Evsel& evsel, uint64_t period, const ResolvedSample& rs,
                 std::span<const Frame> frames) override {
    size_t slot = event_slot(evsel);
    if (s.time != ~0ull) {
      if (first_time_ == ~0ull || s.time < first_time_) first_time_ = s.time;
      if (s.time > last_time_) last_time_ = s.time;
    }
    if (symbolized_) builder_.set_lines(&resolver());
    // `frames` is the call chain when there is one: its unwound part starts where the
    // resolver says.
    size_t unwound = frames.data() == rs.callchain.data() ? rs.unwound_begin : frames.size();
    std::vector<int64_t>& v = builder_.sample(rs.comm, s.pid, frames, unwound);
    if (v.size() < slot + 2) v.resize(slot + 2);
    v[0] += 1;
    v[slot + 1] += static_cast<int64_t>(period);
  }

 private:
  struct EventSlot {
    std::string name, unit;
    uint64_t fixed_period = 0;
  };

  size_t event_slot(const Evsel& evsel) {
    if (slots_.size() <= evsel.index) slots_.resize(evsel.index + 1, ~size_t{0});
    size_t& slot = slots_[evsel.index];
    if (slot == ~size_t{0}) {
      slot = events_.size();
      const EventAttr& a = evsel.attr;
      // The software clocks count nanoseconds (PERF_COUNT_SW_CPU_CLOCK 0, TASK_CLOCK 1).
      bool clock = a.type == kTypeSoftware && (a.config == 0 || a.config == 1);
      events_.push_back(EventSlot{event_name_of(evsel), clock ? "nanoseconds" : "count",
                                  a.freq() ? 0 : a.sample_period});
    }
    return slot;
  }

  // The mark of an unsymbolized profile, with what `readperf symbolize` needs to find the
  // kernel's symbols: the recorded address of its relocation reference symbol.
  std::string unsymbolized_mark() const {
    std::string mark(kUnsymbolizedMark);
    const Resolver* r = used_resolver();
    if (r && r->machine().kernel_ref()) {
      const Machine::KernelRef& ref = *r->machine().kernel_ref();
      mark += fmt::format(" kernel-ref={}:{:#x}", ref.name, ref.addr);
    }
    return mark;
  }

  bool symbolized_;
  PprofBuilder builder_;
  std::vector<size_t> slots_;
  std::vector<EventSlot> events_;
  uint64_t first_time_ = ~0ull, last_time_ = 0;
};

}  // namespace

Status run_pprof_export(PerfData& data, const PprofConfig& config, FILE* out) {
  PprofSink sink(data, config);
  Status st = data.process(sink, stream_process_options(data));
  // What was read before a damaged record is written, as the other exporters do.
  GzipWriter gz(out, config.gzip);
  sink.write(gz);
  RETURN_IF_ERROR(gz.finish());
  return st;
}

}  // namespace readperf
