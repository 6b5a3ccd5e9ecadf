// The sink behind run_report_session(), private to its files: every record applied to a
// Machine, every sample resolved and added to its event's histogram (builtin-report.c
// process_sample_event()), and what the entries point into kept alive with them. Its parts:
// report_session.cpp (the records, the histograms, the groups once done),
// report_sink_samples.cpp (a sample added or replayed), report_sink_frames.cpp (resolved
// frames and addresses as histogram keys, the parent and --ignore-callees chain walk) and
// report_sink_branches.cpp (branch mode).
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "readperf/analysis/counter_deltas.h"
#include "readperf/analysis/machine_epochs.h"
#include "readperf/analysis/posix_regex.h"
#include "readperf/analysis/repeat_cache.h"
#include "readperf/analysis/report_session.h"
#include "readperf/analysis/resolver.h"
#include "readperf/format/perf_abi.h"
#include "readperf/session/machine.h"
#include "readperf/session/session_builder.h"
#include "readperf/symbols/symbol_cache.h"

namespace readperf {

// Where a repeat cache's deferred samples go (RepeatCache::drain()).
inline auto replay_into(Hists& hists) {
  return [&hists](std::span<const uint32_t> plan, uint64_t period, uint64_t count) {
    hists.replay(plan, period, count);
  };
}

// What the histogram entries point into, kept alive with them.
struct SessionState {
  SessionState(const SymbolConfig& config, bool callchain, const ReportSetup& setup);
  Machine machine;
  SymbolCache symbols;
  Resolver resolver;  // owns the symbols it makes for KSYMBOL maps
  // ChainFrame::srcline's texts (`-g address|srcline`), read when the report prints.
  std::vector<std::string_view> chain_srclines{std::string_view()};
};

class ReportSink : public EventSink {
 public:
  ReportSink(PerfData& pd, const ReportSetup& setup);

  ReportData take();

  void on_read(const RecordView& r) override;
  void on_skipped(const RecordView& r, const Error& why) override;
  void on_user_record(const RecordView& r) override;
  void on_kernel_record(const RecordView& r, const Sample& s, const Evsel* evsel) override;

 private:
  // report_session.cpp: the histograms.
  Hists& hists_for(const Evsel& evsel);

  // report_sink_samples.cpp: a sample added to its histogram, or replayed.
  void on_sample(const Sample& s, const Evsel& evsel);
  void add_sample(const Sample& s, const Evsel& evsel, uint64_t period);
  void push_comm_key(std::string_view comm);
  void push_frame_key(const HistFrame& f, uint64_t addr);

  // report_sink_frames.cpp: resolved frames and addresses as histogram keys.
  int32_t dso_order(const Dso* d);
  HistFrame hist_frame(const Frame& f, bool chain = true);
  uint32_t chain_srcline_id(std::string_view s);
  BranchAddr branch_addr(const Frame& f, uint64_t ip);
  static MemAddr mem_addr(const Frame& f, uint64_t addr);
  MemSample resolve_mem(const Thread& t, const Sample& s);
  static void set_sample_keys(HistSample& hs, const Sample& s, const Thread& t);
  int32_t socket_of(uint32_t cpu) const;
  uint8_t filter_bits(const Thread& t, const HistFrame& f, bool has_map, uint8_t cpumode) const;
  const Symbol* chain_parent(const ResolvedSample& rs) const;
  void scan_chain(const ResolvedSample& rs, HistSample& hs);

  // report_sink_branches.cpp: branch mode.
  void add_branches(const Sample& s, const Evsel& evsel);

  PerfData& pd_;
  bool os_release_seen_ = false;
  bool version_seen_ = false;
  const ReportSetup& setup_;
  const bool with_srcline_ = setup_.hist.sort.has(SortKey::kSrcline);  // after setup_
  // sort.c sort__srcline_cmp(): with srcline the first key, perf asks addr2line for the
  // srcline of every entry it adds (map__srcline() keeps no answer), which decides when it
  // stops asking about a DSO (Resolver::A2lState). As a later key, only for entries whose
  // earlier keys tie with one met in the tree: not modelled.
  const bool srcline_asked_ = with_srcline_ && !setup_.hist.sort.keys.empty() &&
                              setup_.hist.sort.keys.front() == SortKey::kSrcline;
  std::unordered_map<const char*, uint32_t> chain_srcline_ids_;
  // Children over events with and without call chains: perf's stale cursor (add_sample()),
  // tracked through every sample, none replayed.
  const bool mixed_chains_ = setup_.hist.children && setup_.hist.use_callchain && [this] {
    bool with = false, without = false;
    for (size_t i = 0; i < pd_.events().size(); ++i) {
      ((pd_.events()[i].attr.sample_type & kSampleCallchain) ? with : without) = true;
    }
    return with && without;
  }();
  uint64_t total_cycles_ = 0;  // report.total_cycles: every accounted branch's cycles
  std::vector<HistFrame> cursor_frames_;
  bool cursor_set_ = false;
  const bool with_trace_ = setup_.hist.sort.has(SortKey::kTrace);
  // The dynamic keys (tracepoint fields) read the sample's raw data, and the trace text for
  // the fields printed formatted.
  const bool with_dynamic_ = !setup_.hist.sort.dynamic.empty();
  const bool with_srcfile_ = setup_.hist.sort.has(SortKey::kSrcfile);
  const bool with_branch_srclines_ =
      setup_.hist.sort.has(SortKey::kSrclineFrom) || setup_.hist.sort.has(SortKey::kSrclineTo);
  // Sort keys that tell samples apart by more than their thread and addresses: repeat keys
  // carry them.
  const bool by_cpu_ = setup_.hist.sort.has(SortKey::kCpu);
  const bool by_time_ = setup_.hist.sort.has(SortKey::kTime);
  const bool by_dso_size_ = setup_.hist.sort.has(SortKey::kDsoSize);
  const bool by_transaction_ = setup_.hist.sort.has(SortKey::kTransaction);
  const bool by_cgroup_ = setup_.hist.sort.has(SortKey::kCgroup);
  const bool by_cgroup_id_ = setup_.hist.sort.has(SortKey::kCgroupId);
  const bool by_addr_ = setup_.hist.sort.has(SortKey::kAddr);
  const bool by_values_ =
      std::any_of(setup_.hist.sort.keys.begin(), setup_.hist.sort.keys.end(), is_sample_value_key);
  // --socket-filter reads the socket of an entry's first sample: samples of other CPUs are
  // not the same either.
  const bool by_socket_ = setup_.hist.sort.has(SortKey::kSocket) || setup_.hist.socket_filter > -1;
  const PosixRegex ignore_callees_{setup_.ignore_callees};
  const bool by_parent_ = setup_.hist.sort.has(SortKey::kParent);
  const PosixRegex parent_{setup_.parent_pattern};
  std::shared_ptr<SessionState> state_;
  Machine& machine_;
  Resolver& resolver_;
  SessionBuilder builder_;
  ReportData data_;
  std::vector<HistFrame> frames_;
  struct BranchEnds {
    Frame from;
    Frame to;
  };
  std::vector<BranchEnds> branch_ends_;  // the sample's branches, resolved
  // builtin-report.c: "handle more cases than just ANY?"
  const bool nonany_branch_mode_ = [this] {
    uint64_t combined = 0;
    for (size_t i = 0; i < pd_.events().size(); ++i) {
      combined |= pd_.events()[i].attr.branch_sample_type;
    }
    return !(combined & kBranchSampleAny);
  }();
  struct Repeats {
    RepeatCache raw;
    RepeatCache resolved;
  };
  std::vector<Repeats> repeats_;  // by event index
  std::vector<uint32_t> plan_;
  std::vector<uint64_t> key_;
  MemSample mem_;  // the sample being added, in memory mode
  std::vector<uint64_t> resolved_key_;
  // The Machine's changes as repeat-key epochs: a plan of before a change is never found.
  MachineEpochs epochs_;
  CounterDeltas counter_deltas_;
  std::unordered_map<const Dso*, int32_t> dso_order_;
  size_t indexed_ = 0;
};

}  // namespace readperf
