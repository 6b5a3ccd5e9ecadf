// The sink behind run_script(), private to its files: builtin-script.c's tool with no script
// given (or with one, its engine). Its parts: script_printer.cpp (the records in, the
// per-event dump files, the symbols), script_sink_types.cpp (the fields settled per event
// type), script_sink_side_band.cpp (side-band records), script_sink_samples.cpp
// (process_sample_event(): the filters, the dlfilter, the script engine) and
// script_sink_print.cpp (process_event(): a sample's line).
#pragma once

#include <cstdint>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "readperf/analysis/counter_deltas.h"
#include "readperf/analysis/evswitch.h"
#include "readperf/analysis/resolver.h"
#include "readperf/output/header_printer.h"
#include "readperf/output/script_printer.h"
#include "readperf/reader/event_name.h"
#include "readperf/session/session_builder.h"
#include "record_dumper.h"
#include "script_fields.h"
#include "script_internal.h"
#include "script_trace.h"

namespace readperf {

// The script engine the side-band, throttle, AUXTRACE_ERROR and stat records go to: perf's
// Python engine has handlers for them, its Perl engine none (and perf then prints what it
// prints without a script: AUXTRACE_ERROR lines, stat counts).
ScriptEngine* side_band_engine(const ScriptConfig& cfg);

class ScriptSink : public EventSink {
 public:
  ScriptSink(PerfData& pd, const ScriptConfig& cfg, script::OutputTable& table,
             const ScriptFilters& f, OutBuffer& out);

  void dump_records(bool ordered);
  void on_user_record(const RecordView& r) override;
  void on_kernel_record(const RecordView& r, const Sample& s, const Evsel* evsel) override;
  void on_auxtrace_error(const RecordView& r);
  void on_side_band(const RecordView& r, const Sample& s);
  void print_side_band(const RecordView& r, const Sample& sample, int32_t pid, int32_t tid,
                       uint64_t time);
  bool comm_unpadded(const Evsel& evsel, uint64_t fields) const;
  Status check_output();
  Status setup_evswitch();
  Status open_dumps();
  void finish(FILE* err);
  // Null when no sample was resolved.
  const Resolver* used_resolver() const { return resolver_.get(); }
  Status status() const { return status_; }
  bool done() const override { return !status_; }

 private:
  // script_sink_types.cpp: the fields of each event type.
  bool setup_type(const Evsel& evsel);
  void sync_pipe_attrs();
  void process_attr(const Evsel& evsel);
  uint64_t combined_branch_type() const;
  bool use_callchain() const;

  // script_printer.cpp.
  Resolver& resolver();

  // script_sink_samples.cpp: process_sample_event().
  bool keep_for_dlfilter(const Sample& s, const Evsel& evsel, uint64_t period,
                         const ResolvedSample* rs);
  void process_sample(const Sample& s, const Evsel& evsel, uint64_t period);
  bool unwind_refused(const Sample& s, const Evsel& evsel) const;
  bool evswitch_discard(const Evsel& evsel) { return evswitch_.discard(evsel); }
  OutBuffer& out_for(const Evsel& evsel);

  // script_sink_print.cpp: process_event().
  void print_sym(const Frame& fr, unsigned opts);
  std::string_view dso_name(const Frame& fr) const;
  void print_dso(std::string_view name);
  void print_ip(const Sample& s, const ResolvedSample& rs, unsigned opts, bool chain);
  void print_srcline(const Frame& fr);
  void print_regs(const RegsDump& regs, uint64_t mask);
  void print_insn(const Sample& s, const Thread& thread, uint64_t f);
  void print_data_src(uint64_t data_src);
  void print_event(const Sample& s, const Evsel& evsel, const script::TypeOutput& o,
                   const ResolvedSample& rs, uint64_t period, bool chain);
  const std::string& event_name_of(const Evsel& evsel) { return names_.of(evsel); }
  int max_name_len();

  PerfData& pd_;
  const ScriptConfig& cfg_;
  script::OutputTable& table_;
  const ScriptFilters& filters_;
  OutBuffer& stdout_;  // side-band records, and samples without --per-event-dump
  OutBuffer* out_;     // where the line being printed goes
  Machine machine_;
  SessionBuilder builder_;
  std::unique_ptr<SymbolCache> symbols_;
  std::unique_ptr<Resolver> resolver_;
  std::optional<RecordDumper> dumper_;  // -D
  Bytes record_;                        // the SAMPLE record being processed, for a script engine
  ScriptStat stat_;
  ScriptTrace trace_;
  ScriptLineStart start_;
  ScriptSourceLines srccode_;
  size_t data_src_width_ = 0;
  std::string arch_ = "x86";
  bool native_arch_ = false;
  bool type_ready_[script::kOutputTypes] = {};
  size_t attrs_seen_ = 0;  // pipe mode: events process_attr() has seen
  // Pipe mode with --header or -I: the HEADER_FEATURE records as they come.
  std::unique_ptr<PipeFeaturePrinter> features_;
  int name_width_ = 0;
  EventNames names_;
  CounterDeltas counter_deltas_;
  Status status_;
  EvSwitch evswitch_;            // --switch-on/--switch-off
  mutable std::string pad_buf_;  // dso_name()'s padded name
  uint64_t guest_samples_ = 0;   // with perf_guest: samples of guest cpumodes, not shown
  // -d/--debug-mode.
  uint64_t last_timestamp_ = 0;
  uint64_t nr_unordered_ = 0;
  // Per event: its samples printed and, with --per-event-dump, its file.
  struct Dump {
    std::string path;
    FILE* file = nullptr;
    std::unique_ptr<OutBuffer> out;
    uint64_t samples = 0;
  };
  std::vector<Dump> dumps_;
};

}  // namespace readperf
