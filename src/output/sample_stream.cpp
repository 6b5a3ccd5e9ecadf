#include "sample_stream.h"

#include "readperf/format/perf_abi.h"
#include "readperf/output/event_name.h"

namespace readperf {

SampleStreamSink::SampleStreamSink(PerfData& pd, SymbolConfig symbols, uint32_t max_stack,
                                   StreamResolution resolution)
    : pd_(pd),
      symbol_config_(std::move(symbols)),
      max_stack_(max_stack),
      resolution_(resolution),
      builder_(machine_, pd.order()) {
  builder_.begin(pd.features());
}

void SampleStreamSink::on_kernel_record(const RecordView& r, const Sample& s, const Evsel* evsel) {
  if (r.type != kRecordSample) {
    builder_.apply(r, s);
    on_other(r, s, evsel);
    return;
  }
  if (!evsel) return;
  if (!(evsel->attr.sample_type & kSampleRead)) {
    process_sample(s, *evsel, s.period);
    return;
  }
  // session.c evlist__deliver_sample(): one sample per counter that moved.
  uint64_t rf = evsel->attr.read_format;
  if (rf & kFormatGroup) {
    for (uint64_t i = 0; i < s.read.group_nr; ++i) deliver_value(s, s.read.group_value(i, rf));
  } else {
    deliver_value(s, s.read.one);
  }
}

void SampleStreamSink::deliver_value(const Sample& s, const ReadValue& v) {
  const Evsel* ev = pd_.events().find_id(v.id);
  if (!ev) return;
  uint64_t& last = counter_values_[v.id];
  uint64_t period = v.value - last;
  last = v.value;
  if (!period) return;
  Sample split = s;
  split.id = v.id;
  split.period = period;
  process_sample(split, *ev, period);
}

Resolver& SampleStreamSink::resolver() {
  if (!resolver_) {
    SymbolConfig sc = symbol_config_;
    if (pd_.features().os_release) sc.recorded_os_release = *pd_.features().os_release;
    symbols_ = std::make_unique<SymbolCache>(std::move(sc));
    resolver_ = std::make_unique<Resolver>(
        machine_, *symbols_,
        ResolverOptions{.callchain = true,
                        .max_stack = max_stack_,
                        .unwind_needs_readable_map = pd_.features().arch.has_value()});
  }
  return *resolver_;
}

void SampleStreamSink::process_sample(const Sample& s, const Evsel& evsel, uint64_t period) {
  if (resolution_ == StreamResolution::kThread) {
    thread_only_.thread = machine_.findnew_thread(s.pid, s.tid);
    thread_only_.comm = thread_only_.thread ? std::string_view(thread_only_.thread->comm_str())
                                            : std::string_view();
    thread_only_.self = Frame();
    thread_only_.self.ip = s.ip;
    on_sample(s, evsel, period, thread_only_, std::span<const Frame>(&thread_only_.self, 1));
    return;
  }
  bool chain = s.has_callchain && resolution_ == StreamResolution::kCallchain;
  const ResolvedSample& rs = resolver().resolve(s, &evsel, chain);
  std::span<const Frame> frames(&rs.self, 1);
  if (chain && !rs.callchain.empty()) frames = rs.callchain;
  on_sample(s, evsel, period, rs, frames);
}

const std::string& SampleStreamSink::event_name_of(const Evsel& evsel) {
  if (names_.size() <= evsel.index) names_.resize(evsel.index + 1);
  std::string& n = names_[evsel.index];
  if (n.empty()) n = event_name(evsel);
  return n;
}

PerfData::ProcessOptions stream_process_options(const PerfData& pd) {
  PerfData::ProcessOptions po;
  po.ordered = pd.kind() == ContainerKind::kPipe || pd.events().sample_id_all();
  return po;
}

}  // namespace readperf
