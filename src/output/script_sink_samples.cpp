// builtin-script.c process_sample_event(): a sample's filters (--time, --cpu, the threads,
// addresses, --switch-on/--switch-off), the dlfilter's early and late calls, then the script
// engine or process_event(), into the event's --per-event-dump file.
#include "readperf/format/perf_abi.h"
#include "readperf/output/script_dlfilter.h"
#include "readperf/output/script_engine.h"
#include "script_sink.h"

namespace readperf {

using namespace script;  // NOLINT: the field names

// dlfilter__filter_event_early() (no `rs` yet: the filter resolves the sample when it asks)
// and dlfilter__filter_event(). A negative return is an error, as in perf.
bool ScriptSink::keep_for_dlfilter(const Sample& s, const Evsel& evsel, uint64_t period,
                                   const ResolvedSample* rs) {
  // The sample as perf delivers it: a counter's split has its own period
  // (deliver_sample_value()).
  std::optional<Sample> split;
  if (period != s.period) {
    split.emplace(s);
    split->period = period;
  }
  struct Host : DlFilterHost {
    ScriptSink& sink;
    const Sample& s;
    const Evsel& evsel;
    const ResolvedSample* rs;
    Host(ScriptSink& k, const Sample& sample, const Evsel& e, const ResolvedSample* r)
        : sink(k), s(sample), evsel(e), rs(r) {}
    const ResolvedSample& resolve() override {
      if (!rs) rs = &sink.resolver().resolve(s, &evsel, /*callchain=*/false);
      return *rs;
    }
    bool filtered(const ResolvedSample& r) override {
      return !r.thread || sink.filters_.skip_thread(*r.thread) ||
             sink.filters_.skip_address(r.self);
    }
  } host(*this, s, evsel, rs);
  const bool early = rs == nullptr;
  DlFilterSample ds;
  ds.sample = split ? &*split : &s;
  ds.evsel = &evsel;
  ds.event_name = names_.of(evsel).c_str();
  ds.resolver = &resolver();
  ds.host = &host;
  ds.show_kernel_path = cfg_.show_kernel_path;
  ds.native_arch = native_arch_;
  // The filter may print to stdout itself: what script printed before goes first.
  out_->drain();
  if (out_ != &stdout_) stdout_.drain();
  int ret = cfg_.dlfilter->filter(ds, early);
  if (ret < 0 && status_) {
    status_ = make_error(fmt::format("dlfilter: filter_event returned {}", ret));
  }
  return ret == 0;
}

// builtin-script.c process_sample_event().
void ScriptSink::process_sample(const Sample& s, const Evsel& evsel, uint64_t period) {
  if (cfg_.dlfilter && !keep_for_dlfilter(s, evsel, period, nullptr)) return;
  if (filters_.skip_time(s.time)) return;
  if (cfg_.debug_mode) {
    if (s.time < last_timestamp_) {
      std::fprintf(stderr, "Samples misordered, previous: %llu this: %llu\n",
                   static_cast<unsigned long long>(last_timestamp_),
                   static_cast<unsigned long long>(s.time));
      ++nr_unordered_;
    }
    last_timestamp_ = s.time;
    return;
  }
  if (filters_.skip_cpu(s.cpu)) return;
  // machine__resolve()'s dump lines.
  if (dumper_) print_resolve_lines(*out_, machine_, s);
  if (!setup_type(evsel)) return;
  const TypeOutput& o = table_.of(evsel.attr);
  // A script resolves the call chain whatever the fields (python_process_callchain()).
  bool print_ip = (o.fields & kIp) || cfg_.engine;
  bool chain = print_ip && use_callchain() && s.has_callchain && !unwind_refused(s, evsel);
  const ResolvedSample& rs = resolver().resolve(s, &evsel, chain);
  if (filters_.skip_thread(*rs.thread)) return;
  // al.filtered: a guest's sample too (SampleSelection::guest_bits()); with a guest option
  // perf would show it, resolved in a guest machine readperf does not have: counted.
  if (cfg_.perf_guest && SampleSelection::guest_bits(static_cast<uint8_t>(s.cpumode()))) {
    ++guest_samples_;
  }
  if (filters_.skip_address(rs.self)) return;
  // show_event(): with --graph-function, a sample is shown when its branch flags (a call, a
  // return) name a listed function, or while inside one; only samples synthesized from an
  // instruction trace have such flags, and readperf decodes none: none is shown, as perf
  // shows none of a recording without AUX area data. Before --switch-on sees it.
  if (!cfg_.graph_function.empty()) return;
  if (evswitch_discard(evsel)) return;
  if (cfg_.dlfilter && !keep_for_dlfilter(s, evsel, period, &rs)) return;
  if (cfg_.engine) {
    // scripting_ops->process_event() instead of printing; a counter's split carries its
    // own period (deliver_sample_value()).
    if (period == s.period) {
      cfg_.engine->process_sample(s, evsel, rs, resolver(), record_);
    } else {
      Sample split = s;
      split.period = period;
      cfg_.engine->process_sample(split, evsel, rs, resolver(), record_);
    }
    return;
  }
  if (o.fields == 0) return;
  out_ = &out_for(evsel);
  print_event(s, evsel, o, rs, period, chain);
  out_ = &stdout_;
}

// unwind-libunwind-local.c _unwind__get_entries(): with --max-stack 0 the DWARF unwinding
// of a sample with a user stack copy fails (-EINVAL), and perf prints the sample as one
// without a call chain.
bool ScriptSink::unwind_refused(const Sample& s, const Evsel& evsel) const {
  constexpr uint64_t kBoth = kSampleRegsUser | kSampleStackUser;
  return cfg_.max_stack == 0 && (evsel.attr.sample_type & kBoth) == kBoth &&
         !s.user_regs.regs.empty() && s.user_stack_size != 0 &&
         unwinds_user_stacks(pd_.features().arch);
}

// --per-event-dump: the event's INPUT.EVENT.dump (builtin-script.c evsel_script__new()),
// else standard output.
OutBuffer& ScriptSink::out_for(const Evsel& evsel) {
  if (dumps_.size() <= evsel.index) dumps_.resize(evsel.index + 1);
  Dump& d = dumps_[evsel.index];
  ++d.samples;
  if (!cfg_.per_event_dump) return stdout_;
  if (!d.out && !open_dumps()) return stdout_;  // a pipe's events come as records
  return *d.out;
}

}  // namespace readperf
