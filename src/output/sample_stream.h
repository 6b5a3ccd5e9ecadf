// The resolved sample stream the pprof and chrome exporters share: the session (Machine,
// SessionBuilder) kept up to date record by record, each SAMPLE resolved with its call chain
// by the same Resolver as `script` and `report`, and read-format samples split into one sample
// per counter that moved, as session.c evlist__deliver_sample() does.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "readperf/analysis/resolver.h"
#include "readperf/reader/perf_data.h"
#include "readperf/session/session_builder.h"
#include "readperf/symbols/symbol_config.h"

namespace readperf {

// How much of each sample the stream resolves before on_sample(): nothing (the thread only:
// `rs` has its thread and comm), the sample's own ip (perf's machine__resolve), or that and
// its call chain (thread__resolve_callchain).
enum class StreamResolution { kThread, kSample, kCallchain };

class SampleStreamSink : public EventSink {
 public:
  SampleStreamSink(PerfData& pd, SymbolConfig symbols, uint32_t max_stack,
                   StreamResolution resolution = StreamResolution::kCallchain);

  void on_user_record(const RecordView& r) override { builder_.on_user_record(r); }
  void on_kernel_record(const RecordView& r, const Sample& s, const Evsel* evsel) override;

  // perf's event name for `evsel` (cached).
  const std::string& event_name_of(const Evsel& evsel);
  // The resolver the samples went through; null before the first sample.
  const Resolver* used_resolver() const { return resolver_.get(); }

 protected:
  // One sample: `frames` is its call chain leaf first (the sample's ip alone without one),
  // `period` what it weighs (a read-format sample's split has `s.id` and `s.period` set to
  // the counter's, as session.c deliver_sample_value() sets them). Inline frames (Frame::inlined)
  // come before the frame they were inlined into, with the same ip.
  virtual void on_sample(const Sample& s, const Evsel& evsel, uint64_t period,
                         const ResolvedSample& rs, std::span<const Frame> frames) = 0;
  // Every other kernel record, after the session applied it.
  virtual void on_other(const RecordView& /*r*/, const Sample& /*s*/, const Evsel* /*evsel*/) {}

  // The resolver (created at the first sample, when the recording's features are known).
  Resolver& resolver();
  // The machine the records built so far.
  Machine& machine() { return machine_; }

  PerfData& pd_;

 private:
  void deliver_value(const Sample& s, const ReadValue& v);
  void process_sample(const Sample& s, const Evsel& evsel, uint64_t period);

  SymbolConfig symbol_config_;
  uint32_t max_stack_;
  StreamResolution resolution_;
  Machine machine_;
  SessionBuilder builder_;
  std::unique_ptr<SymbolCache> symbols_;
  std::unique_ptr<Resolver> resolver_;
  ResolvedSample thread_only_;  // what kThread hands out
  std::unordered_map<uint64_t, uint64_t> counter_values_;
  std::vector<std::string> names_;
};

// Options for the process() call the exporters make: ordered when perf would sort.
PerfData::ProcessOptions stream_process_options(const PerfData& pd);

}  // namespace readperf
