// The one sample pipeline the exporters and the Python binding share: the session (Machine,
// SessionBuilder) kept up to date record by record; each SAMPLE selected (--time, --cpu,
// --comms, --pid, --tid, --dsos, --symbols: SampleSelection), resolved once with its call
// chain by the same Resolver as `script` and `report` (thread, maps, symbols, unwinding,
// inline frames), and handed on; read-format samples split into one sample per counter that
// moved, as session.c evlist__deliver_sample() does.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "readperf/analysis/counter_deltas.h"
#include "readperf/analysis/machine_epochs.h"
#include "readperf/analysis/repeat_cache.h"
#include "readperf/analysis/resolver.h"
#include "readperf/analysis/sample_selection.h"
#include "readperf/reader/event_name.h"
#include "readperf/reader/perf_data.h"
#include "readperf/session/session_builder.h"
#include "readperf/symbols/symbol_config.h"

namespace readperf {

// How much of each sample the stream resolves before on_sample(): nothing (the thread only:
// `rs` has its thread and comm), the sample's own ip (perf's machine__resolve), or that and
// its call chain (thread__resolve_callchain).
enum class StreamResolution { kThread, kSample, kCallchain };

struct PipelineConfig {
  SymbolConfig symbols;
  uint32_t max_stack = 127;  // PERF_MAX_STACK_DEPTH
  StreamResolution resolution = StreamResolution::kCallchain;
  // Unwind `--call-graph dwarf` stack copies of every architecture the unwinder knows (the
  // viewers); false: only where perf 6.1 does (unwinds_user_stacks(), what mirrors perf
  // script's output does).
  bool unwind_foreign_arches = true;
  // The samples handed on; the others are dropped, before resolution where the thread or
  // time decide. Selecting by DSO or symbol resolves the sample's ip even under kThread.
  SampleSelection selection;
  // Key the resolved samples (repeat_key()), and offer on_repeat() a sample whose key was
  // handed on before, so that a consumer that keeps what it made of a key need not have the
  // sample resolved again.
  bool repeat_keys = false;
};

class SamplePipeline : public EventSink {
 public:
  SamplePipeline(PerfData& pd, PipelineConfig config);

  void on_user_record(const RecordView& r) override { builder_.on_user_record(r); }
  void on_kernel_record(const RecordView& r, const Sample& s, const Evsel* evsel) override;

  // perf's event name for `evsel` (cached).
  const std::string& event_name_of(const Evsel& evsel);
  // The resolver the samples went through; null before the first sample.
  const Resolver* used_resolver() const { return resolver_.get(); }
  // Samples the selection dropped (read-format splits count one each).
  uint64_t dropped_samples() const { return dropped_; }

 protected:
  // One sample: `frames` is its call chain leaf first (the sample's ip alone without one),
  // `period` what it weighs (a read-format sample's split has `s.id` and `s.period` set to
  // the counter's, as session.c deliver_sample_value() sets them). Inline frames (Frame::inlined)
  // come before the frame they were inlined into, with the same ip.
  virtual void on_sample(const Sample& s, const Evsel& evsel, uint64_t period,
                         const ResolvedSample& rs, std::span<const Frame> frames) = 0;
  // Every other kernel record, after the session applied it.
  virtual void on_other(const RecordView& /*r*/, const Sample& /*s*/, const Evsel* /*evsel*/) {}
  // With repeat_keys, before resolving a sample: `key` is what decides its resolution (its
  // thread, event, cpumode, ip, call-chain words and the Machine's epoch for its process).
  // True: the consumer handled the sample as the one of the same key it was handed before,
  // and nothing is resolved; false: the sample is resolved and handed to on_sample().
  virtual bool on_repeat(const Sample& /*s*/, const Evsel& /*evsel*/, uint64_t /*period*/,
                         const RepeatCache::Hash& /*key*/) {
    return false;
  }
  // During on_sample(): the sample's key, or null when it has none (repeat_keys off, or a
  // sample whose resolution its words do not decide: a stack copy to unwind, a branch stack).
  const RepeatCache::Hash* repeat_key() const { return keyed_ ? &key_hash_ : nullptr; }

  // The resolver (created at the first sample, when the recording's features are known).
  Resolver& resolver();
  // The machine the records built so far.
  Machine& machine() { return machine_; }

  PerfData& pd_;

 private:
  void process_sample(const Sample& s, const Evsel& evsel, uint64_t period);
  bool make_repeat_key(const Sample& s, const Evsel& evsel, bool chain);

  PipelineConfig config_;
  uint64_t dropped_ = 0;
  Machine machine_;
  SessionBuilder builder_;
  std::unique_ptr<SymbolCache> symbols_;
  std::unique_ptr<Resolver> resolver_;
  ResolvedSample thread_only_;  // what kThread hands out
  CounterDeltas counter_deltas_;
  EventNames names_;
  MachineEpochs epochs_;
  std::vector<uint64_t> key_;
  RepeatCache::Hash key_hash_;
  bool keyed_ = false;
};

// Options for the process() call the exporters make: ordered when perf would sort.
PerfData::ProcessOptions stream_process_options(const PerfData& pd);

}  // namespace readperf
