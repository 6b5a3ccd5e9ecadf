#include "readperf/analysis/sample_pipeline.h"

#include "readperf/format/perf_abi.h"
#include "readperf/reader/event_name.h"
#include "readperf/session/thread.h"

namespace readperf {

SamplePipeline::SamplePipeline(PerfData& pd, PipelineConfig config)
    : pd_(pd), config_(std::move(config)), builder_(machine_, pd.order()) {
  builder_.begin(pd.features());
}

void SamplePipeline::on_kernel_record(const RecordView& r, const Sample& s, const Evsel* evsel) {
  if (r.type != kRecordSample) {
    if (config_.repeat_keys) epochs_.note(r, pd_.order());
    if (builder_.apply(r, s).removed_parent) epochs_.change_all();
    on_other(r, s, evsel);
    return;
  }
  if (!evsel) return;
  if (!(evsel->attr.sample_type & kSampleRead)) {
    process_sample(s, *evsel, s.period);
    return;
  }
  // session.c evlist__deliver_sample(): one sample per counter that moved, with the counter's
  // id and growth as deliver_sample_value() sets them.
  counter_deltas_.split(s, *evsel, pd_.events(), [&](const Evsel& ev, uint64_t id, uint64_t p) {
    Sample split = s;
    split.id = id;
    split.period = p;
    process_sample(split, ev, p);
  });
}

Resolver& SamplePipeline::resolver() {
  if (!resolver_) {
    SymbolConfig sc = config_.symbols;
    if (pd_.features().os_release) sc.recorded_os_release = *pd_.features().os_release;
    symbols_ = std::make_unique<SymbolCache>(std::move(sc));
    resolver_ = std::make_unique<Resolver>(
        machine_, *symbols_,
        ResolverOptions{.callchain = true,
                        .max_stack = config_.max_stack,
                        .dwarf_unwind = config_.unwind_foreign_arches ||
                                        unwinds_user_stacks(pd_.features().arch),
                        .unwind_needs_readable_map = pd_.features().arch.has_value()});
  }
  return *resolver_;
}

void SamplePipeline::process_sample(const Sample& s, const Evsel& evsel, uint64_t period) {
  const SampleSelection& sel = config_.selection;
  if (!sel.empty()) {
    // builtin-script.c process_sample_event(): the time and CPU first, then the thread and
    // the sample's own address as machine__resolve() finds them.
    if (sel.skip_sample(s.time, s.cpu)) {
      ++dropped_;
      return;
    }
    const Thread* t = machine_.findnew_thread(s.pid, s.tid);
    if (t && sel.thread_bits(*t)) {
      ++dropped_;
      return;
    }
  }
  // A guest's sample is filtered wherever it is resolved (SampleSelection::guest_bits()).
  if (SampleSelection::guest_bits(static_cast<uint8_t>(s.cpumode()))) {
    ++dropped_;
    return;
  }
  bool by_address = sel.selects_dsos() || sel.selects_symbols();
  if (config_.resolution == StreamResolution::kThread && !by_address) {
    thread_only_.thread = machine_.findnew_thread(s.pid, s.tid);
    thread_only_.comm = thread_only_.thread ? std::string_view(thread_only_.thread->comm_str())
                                            : std::string_view();
    thread_only_.self = Frame();
    thread_only_.self.ip = s.ip;
    on_sample(s, evsel, period, thread_only_, std::span<const Frame>(&thread_only_.self, 1));
    return;
  }
  bool chain = s.has_callchain && config_.resolution == StreamResolution::kCallchain;
  keyed_ = config_.repeat_keys && make_repeat_key(s, evsel, chain);
  if (keyed_ && on_repeat(s, evsel, period, key_hash_)) return;
  const ResolvedSample& rs = resolver().resolve(s, &evsel, chain);
  if (by_address && sel.frame_bits(rs.self)) {
    ++dropped_;
    return;
  }
  std::span<const Frame> frames(&rs.self, 1);
  if (chain && !rs.callchain.empty()) frames = rs.callchain;
  on_sample(s, evsel, period, rs, frames);
}

bool SamplePipeline::make_repeat_key(const Sample& s, const Evsel& evsel, bool chain) {
  // A `--call-graph dwarf` chain comes from the registers and stack copy, an LBR one from the
  // branch stack: words the key leaves out.
  if (s.has_branch_stack || (chain && (s.sample_type & (kSampleRegsUser | kSampleStackUser)))) {
    return false;
  }
  key_.clear();
  key_.push_back((uint64_t{static_cast<uint32_t>(s.pid)} << 32) | static_cast<uint32_t>(s.tid));
  key_.push_back(uint64_t{s.cpumode()} | (uint64_t{chain} << 8) | (uint64_t{evsel.index} << 16));
  key_.push_back(s.ip);
  key_.push_back(epochs_.of(s.pid));
  if (chain) RepeatCache::append_words(key_, s.callchain.bytes());
  key_hash_ = RepeatCache::hash(key_);
  return true;
}

const std::string& SamplePipeline::event_name_of(const Evsel& evsel) { return names_.of(evsel); }

PerfData::ProcessOptions stream_process_options(const PerfData& pd) {
  PerfData::ProcessOptions po;
  po.ordered = pd.kind() == ContainerKind::kPipe || pd.events().sample_id_all();
  return po;
}

}  // namespace readperf
