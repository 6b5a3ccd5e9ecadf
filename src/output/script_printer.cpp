// `script`: builtin-script.c with no script given. The records build the Machine in perf's
// order (SessionBuilder); each sample that passes the filters of process_sample_event() is
// resolved (Resolver: machine__resolve, thread__resolve_callchain) and printed by
// process_event(); files of `perf stat record` print their counts at each STAT_ROUND.
#include "readperf/output/script_printer.h"

#include <sys/stat.h>
#include <sys/utsname.h>

#include <algorithm>
#include <memory>
#include <optional>
#include <unordered_map>

#include "dump_internal.h"
#include "readperf/analysis/counter_deltas.h"
#include "readperf/analysis/evswitch.h"
#include "readperf/analysis/resolver.h"
#include "readperf/format/perf_abi.h"
#include "readperf/output/header_printer.h"
#include "readperf/output/mem_info.h"
#include "readperf/output/script_dlfilter.h"
#include "readperf/output/script_engine.h"
#include "readperf/output/symbol_sources.h"
#include "readperf/reader/event_name.h"
#include "readperf/reader/side_band.h"
#include "readperf/session/session_builder.h"
#include "readperf/symbols/demangle.h"
#include "readperf/symbols/x86_insn.h"
#include "record_dumper.h"
#include "script_fields.h"
#include "script_internal.h"
#include "script_trace.h"

namespace readperf {

namespace {

using namespace script;  // NOLINT: the field names

void print_page_size(OutBuffer& out, uint64_t size) { out.print(" {}", page_size_name(size)); }

// The script engine the side-band, throttle, AUXTRACE_ERROR and stat records go to: perf's
// Python engine has handlers for them, its Perl engine none (and perf then prints what it
// prints without a script: AUXTRACE_ERROR lines, stat counts).
ScriptEngine* side_band_engine(const ScriptConfig& cfg) {
  return cfg.engine && cfg.engine->has_side_band_handlers() ? cfg.engine : nullptr;
}

class ScriptSink : public EventSink {
 public:
  ScriptSink(PerfData& pd, const ScriptConfig& cfg, OutputTable& table, const ScriptFilters& f,
             OutBuffer& out)
      : pd_(pd),
        cfg_(cfg),
        table_(table),
        filters_(f),
        stdout_(out),
        out_(&out),
        builder_(machine_, pd.order()),
        stat_(pd, out, side_band_engine(cfg)),
        trace_(pd),
        start_(cfg, f) {
    builder_.begin(pd.features());
    // builtin-script.c: tool.show_feat_hdr with --header (or -I, the full info).
    if (pd.kind() == ContainerKind::kPipe && (cfg.header || cfg.show_info)) {
      features_ = std::make_unique<PipeFeaturePrinter>(pd, cfg.show_info, out);
    }
    trace_.set_kernel_lookup(
        [this](const Thread& t, uint64_t addr) { return kernel_symbol(resolver(), t, addr); });
    if (pd.features().arch) arch_ = std::string(normalize_arch(*pd.features().arch));
    // cmd_script(): a pipe is taken to be of this machine; a file is when its ARCH is this
    // machine's (x86_64 also runs i386). Only x86 has arch_fetch_insn().
    struct utsname uts {};
    uname(&uts);
    const std::optional<std::string>& arch = pd.features().arch;
    bool native = pd.kind() == ContainerKind::kPipe ||
                  (arch && (*arch == uts.machine ||
                            (std::string_view(uts.machine) == "x86_64" && *arch == "i386")));
    native_arch_ = native && (std::string_view(uts.machine) == "x86_64" ||
                              std::string_view(uts.machine).ends_with("86"));
  }

  // -D: the raw dump of each record before what script prints for it.
  void dump_records(bool ordered) {
    dumper_.emplace(pd_, stdout_, DumpTool::kScript, ordered, cfg_.show_round_events);
  }

  void on_user_record(const RecordView& r) override {
    sync_pipe_attrs();
    if (dumper_) dumper_->user_record(r);
    if (features_) features_->on_user_record(r);
    builder_.on_user_record(r);
    stat_.on_user_record(r);
    if (r.type == kRecordAuxtraceError) on_auxtrace_error(r);
    // process_finished_round_event(): perf_event__fprintf() with nothing before it.
    if (r.type == kRecordFinishedRound && cfg_.show_round_events) {
      print_record_text(*out_, r, pd_.order(), Sample{});
    }
    out_->maybe_flush();
  }

  void on_kernel_record(const RecordView& r, const Sample& s, const Evsel* evsel) override {
    sync_pipe_attrs();
    // process_exit_event() prints its line before perf_event__process_exit() prints the
    // record's dump text.
    bool exit_line_first = r.type == kRecordExit && cfg_.show_task_events;
    if (dumper_) {
      dumper_->kernel_record_header(r, s);
      if (!exit_line_first) dumper_->kernel_record_text(r, s, evsel);
    }
    if (r.type != kRecordSample) {
      on_side_band(r, s);
      if (dumper_ && exit_line_first) dumper_->kernel_record_text(r, s, evsel);
      out_->maybe_flush();
      return;
    }
    if (!evsel) return;
    record_ = r.bytes;
    if (!(evsel->attr.sample_type & kSampleRead)) {
      process_sample(s, *evsel, s.period);
    } else {
      // session.c evlist__deliver_sample(): a sample reading counters is delivered once per
      // counter that moved since its last sample, as a sample of that counter's event.
      counter_deltas_.split(
          s, *evsel, pd_.events(),
          [&](const Evsel& ev, uint64_t, uint64_t period) { process_sample(s, ev, period); });
    }
    out_->maybe_flush();
  }

  // builtin-script.c process_auxtrace_error(): the script's, else
  // perf_event__process_auxtrace_error() prints it (auxtrace.c
  // perf_event__fprintf_auxtrace_error()).
  void on_auxtrace_error(const RecordView& r) {
    AuxtraceErrorEvent e;
    if (!parse_auxtrace_error(r, pd_.order(), e)) return;
    if (ScriptEngine* engine = side_band_engine(cfg_)) {
      engine->process_auxtrace_error(e);
      return;
    }
    print_auxtrace_error(*out_, e);
  }

  // builtin-script.c __cmd_script(): the tool's handlers of side-band records, which
  // print them (print_event_with_time) when their --show-*-events asks.
  void on_side_band(const RecordView& r, const Sample& s) {
    ByteOrder order = pd_.order();
    switch (r.type) {
      case kRecordComm: {
        builder_.apply(r, s);
        CommEvent e;
        if (cfg_.show_task_events && parse_comm(r, order, e))
          print_side_band(r, s, e.pid, e.tid, 0);
        return;
      }
      case kRecordFork: {
        Machine::ForkResult fr = builder_.apply(r, s);
        if (dumper_ && fr.removed_parent) {
          out_->print("removing erroneous parent thread {}/{}\n", fr.removed_pid, fr.removed_tid);
        }
        TaskEvent e;
        if (cfg_.show_task_events && parse_task(r, order, e))
          print_side_band(r, s, e.pid, e.tid, e.time);
        return;
      }
      case kRecordExit: {
        // process_exit_event(): printed before the exit is applied.
        TaskEvent e;
        if (cfg_.show_task_events && parse_task(r, order, e))
          print_side_band(r, s, e.pid, e.tid, e.time);
        builder_.apply(r, s);
        return;
      }
      case kRecordMmap:
      case kRecordMmap2: {
        builder_.apply(r, s);
        MmapEvent e;
        if (cfg_.show_mmap_events && parse_mmap(r, order, e))
          print_side_band(r, s, e.pid, e.tid, 0);
        return;
      }
      case kRecordNamespaces: {
        builder_.apply(r, s);
        if (!cfg_.show_namespace_events) return;
        ByteCursor c = r.body(order);
        int32_t pid = c.s32();
        int32_t tid = c.s32();
        print_side_band(r, s, pid, tid, 0);
        return;
      }
      case kRecordSwitch:
      case kRecordSwitchCpuWide: {
        builder_.apply(r, s);
        // process_switch_event(): the script's before the printed line.
        SwitchEvent e;
        if (ScriptEngine* engine = side_band_engine(cfg_);
            engine && !filters_.skip_cpu(s.cpu) && parse_switch(r, order, e)) {
          engine->process_switch(e, s, machine_);
        }
        if (cfg_.show_switch_events) print_side_band(r, s, s.pid, s.tid, 0);
        return;
      }
      case kRecordThrottle:
      case kRecordUnthrottle: {
        // process_throttle_event(): only a script sees them.
        ThrottleEvent e;
        if (ScriptEngine* engine = side_band_engine(cfg_); engine && parse_throttle(r, order, e)) {
          engine->process_throttle(e, s);
        }
        return;
      }
      case kRecordCgroup:
        builder_.apply(r, s);
        if (cfg_.show_cgroup_events) print_side_band(r, s, s.pid, s.tid, 0);
        return;
      case kRecordLost:
        if (cfg_.show_lost_events) print_side_band(r, s, s.pid, s.tid, 0);
        return;
      case kRecordKsymbol:
        builder_.apply(r, s);
        if (cfg_.show_bpf_events || cfg_.show_text_poke_events) {
          print_side_band(r, s, s.pid, s.tid, 0);
        }
        return;
      case kRecordBpfEvent:
        if (cfg_.show_bpf_events) print_side_band(r, s, s.pid, s.tid, 0);
        return;
      case kRecordTextPoke:
        if (cfg_.show_text_poke_events) print_side_band(r, s, s.pid, s.tid, 0);
        return;
      default:
        builder_.apply(r, s);
        return;
    }
  }

  // builtin-script.c print_event_with_time(): the line start of the record's event (its
  // sample_id, or for an event without sample_id_all the record's own pid/tid and `time`
  // on cpu 0), then the record as perf_event__fprintf() describes it.
  void print_side_band(const RecordView& r, const Sample& sample, int32_t pid, int32_t tid,
                       uint64_t time) {
    const Evsel* evsel = pd_.events().evsel_for_sample_id(sample.id);
    Sample s = sample;
    s.misc = r.misc;
    if (evsel && !evsel->attr.sample_id_all()) {
      s.cpu = 0;
      s.time = time;
      s.pid = pid;
      s.tid = tid;
    }
    if (filters_.skip_cpu(s.cpu)) return;
    if (evsel) {
      Thread* t = tid != -1 ? machine_.findnew_thread(pid, tid) : nullptr;
      // Both arms string_views: `t ? t->comm_str() : ":-1"` would be a temporary std::string.
      std::string_view comm = t ? std::string_view(t->comm_str()) : std::string_view(":-1");
      const TypeOutput& o = table_.of(evsel->attr);
      start_.print(*out_, s, comm, o.fields, comm_unpadded(*evsel, o.fields), r.type);
    }
    print_record_text(*out_, r, pd_.order(), s);
  }

  // perf_sample__fprintf_start(): the comm is not padded when a call chain follows it.
  bool comm_unpadded(const Evsel& evsel, uint64_t fields) const {
    return (fields & kIp) && (evsel.attr.sample_type & kSampleCallchain) && use_callchain();
  }

  // perf_session__check_output_opt(): a file's events are known before its records, so
  // perf settles (and refuses) the fields of each type before printing anything.
  Status check_output() {
    const EventList& events = pd_.events();
    for (size_t i = 0; i < events.size(); ++i) setup_type(events[i]);
    return status_;
  }

  // util/evswitch.c evswitch__init(): the events named by --switch-on/--switch-off.
  Status setup_evswitch() {
    return evswitch_.init(pd_.events(), names_, cfg_.switch_on, cfg_.switch_off,
                          cfg_.show_on_off_events);
  }

  // builtin-script.c perf_script__fopen_per_event_dump(): one file per event, named after
  // the input and the event.
  Status open_dumps() {
    if (!cfg_.per_event_dump) return {};
    const EventList& events = pd_.events();
    if (dumps_.size() < events.size()) dumps_.resize(events.size());
    for (size_t i = 0; i < events.size(); ++i) {
      Dump& d = dumps_[i];
      if (d.file) continue;
      d.path = fmt::format("{}.{}.dump", cfg_.input_name, event_name_of(events[i]));
      d.file = std::fopen(d.path.c_str(), "w");
      if (!d.file) return make_error("Couldn't create the per event dump files");
      d.out = std::make_unique<OutBuffer>(d.file);
    }
    return {};
  }

  // perf_script__exit_per_event_dump_stats(): what each file got; -d's count.
  void finish(FILE* err) {
    if (cfg_.per_event_dump) {
      open_dumps();
      for (Dump& d : dumps_) {
        if (!d.file) continue;
        d.out->flush();
        std::fflush(d.file);
        struct stat st {};
        fstat(fileno(d.file), &st);
        // perf fstat()s its FILE before fclose(): stdio still holds the last partial block
        // (glibc writes whole st_blksize blocks), which the size it prints leaves out.
        uint64_t size = static_cast<uint64_t>(st.st_size);
        if (st.st_blksize > 0) size -= size % static_cast<uint64_t>(st.st_blksize);
        stdout_.print("[ perf script: Wrote {:.3f} MB {} ({} samples) ]\n",
                      static_cast<double>(size) / 1024.0 / 1024.0, d.path, d.samples);
        std::fclose(d.file);
        d.file = nullptr;
      }
    }
    if (cfg_.debug_mode) fmt::print(err, "Misordered timestamps: {}\n", nr_unordered_);
    if (guest_samples_) {
      fmt::print(err,
                 "readperf: {} guest sample{} not shown: guest machines (--guestmount, "
                 "--guestkallsyms, ...) are not supported\n",
                 guest_samples_, guest_samples_ == 1 ? "" : "s");
    }
  }

  // Null when no sample was resolved.
  const Resolver* used_resolver() const { return resolver_.get(); }
  Status status() const { return status_; }
  bool done() const override { return !status_; }

 private:
  // Settles the fields of `evsel`'s type the first time one of its samples comes:
  // perf_session__check_output_opt() (file mode) or process_attr() (pipe mode) did it for the
  // first event of each type.
  bool setup_type(const Evsel& evsel) {
    if (!status_) return false;  // perf stops before the first sample then
    if (pd_.kind() == ContainerKind::kPipe) {
      sync_pipe_attrs();
      return static_cast<bool>(status_);
    }
    int type = output_type(evsel.attr.type);
    if (type_ready_[type]) return true;
    type_ready_[type] = true;
    const Evsel* first = &evsel;
    const EventList& events = pd_.events();
    for (size_t i = 0; i < events.size(); ++i) {
      const EventAttr& a = events[i].attr;
      if (a.type == kTypeSoftware && a.config == 9) continue;  // dummy events
      if (output_type(a.type) == type) {
        first = &events[i];
        break;
      }
    }
    TypeOutput& o = table_[type];
    if (o.fields) {
      Status st = table_.check_attr(*first, pd_.header().features[kFeatStat],
                                    pd_.header().features[kFeatAuxtrace], combined_branch_type());
      if (!st) {
        status_ = st;
        return false;
      }
    }
    // Tracepoints with call chains print where they fired (check_output_opt).
    if (type == kTypeTracepoint && !o.user_set && use_callchain() &&
        (first->attr.sample_type & kSampleCallchain)) {
      o.fields |= kIp | kSym | kSymoffset | kDso;
    }
    table_.set_print_ip_opts(first->attr);
    return true;
  }

  // Pipe mode: builtin-script.c process_attr() for each event once its HEADER_ATTR has been
  // read (the reader adds the event after on_user_record(); nothing is printed in between).
  void sync_pipe_attrs() {
    if (pd_.kind() != ContainerKind::kPipe) return;
    const EventList& events = pd_.events();
    for (; attrs_seen_ < events.size(); ++attrs_seen_) {
      if (status_) process_attr(events[attrs_seen_]);
    }
  }

  // The first event of each type settles its fields: evsel__check_attr(), and with call
  // chains in any event so far, the ip and sym fields unless -F took them away.
  void process_attr(const Evsel& evsel) {
    constexpr uint32_t kPerfTypeMax = 6;
    constexpr uint32_t kPerfTypeSynth = 0x80000000u;
    const EventAttr& attr = evsel.attr;
    if (attr.type >= kPerfTypeMax && attr.type != kPerfTypeSynth) return;
    const EventList& events = pd_.events();
    uint64_t combined = 0;
    for (size_t i = 0; i <= evsel.index && i < events.size(); ++i) {
      if (i < evsel.index && events[i].attr.type == attr.type) return;
      combined |= events[i].attr.sample_type;
    }
    if (attr.sample_type) {
      Status st = table_.check_attr(evsel, pd_.header().features[kFeatStat],
                                    pd_.header().features[kFeatAuxtrace], combined_branch_type());
      if (!st) {
        status_ = st;
        return;
      }
    }
    TypeOutput& o = table_[output_type(attr.type)];
    bool chains = (combined & kSampleCallchain) || (combined & kSampleBranchStack) ||
                  ((combined & kSampleRegsUser) && (combined & kSampleStackUser));
    if (!cfg_.hide_call_graph && chains) {
      if (!(o.user_unset_fields & kIp)) o.fields |= kIp;
      if (!(o.user_unset_fields & kSym)) o.fields |= kSym;
    }
    table_.set_print_ip_opts(attr);
  }

  // The symbols are set up at the first sample: in a pipe the header features (the
  // recorded kernel release among them) come as records before it.
  Resolver& resolver() {
    if (!resolver_) {
      SymbolConfig sc = cfg_.symbols;
      if (pd_.features().os_release) sc.recorded_os_release = *pd_.features().os_release;
      if (pd_.features().version) {
        sc.demangle_params = perf_version_demangles_with_params(*pd_.features().version);
      }
      symbols_ = std::make_unique<SymbolCache>(std::move(sc));
      // builtin-script.c: --stitch-lbr needs callchain_param_setup()'s LBR record mode
      // (branch stacks, and not the user registers and stack of DWARF unwinding).
      bool stitch = false;
      if (cfg_.stitch_lbr) {
        uint64_t t = pd_.events().combined_sample_type();
        stitch = (t & kSampleBranchStack) &&
                 (t & (kSampleRegsUser | kSampleStackUser)) != (kSampleRegsUser | kSampleStackUser);
        if (!stitch) {
          fmt::print(stderr,
                     "Can't find LBR callchain. Switch off --stitch-lbr.\n"
                     "Please apply --call-graph lbr when recording.\n");
        }
      }
      resolver_ = std::make_unique<Resolver>(
          machine_, *symbols_,
          ResolverOptions{.callchain = !cfg_.hide_call_graph,
                          .max_stack = cfg_.max_stack,
                          .dwarf_unwind = unwinds_user_stacks(pd_.features().arch),
                          .unwind_needs_readable_map = pd_.features().arch.has_value(),
                          .stitch_lbr = stitch,
                          .max_lbr = pmu_max_branches(pd_.features())});
    }
    return *resolver_;
  }

  // evlist.c evlist__combined_branch_type().
  uint64_t combined_branch_type() const {
    uint64_t type = 0;
    for (size_t i = 0; i < pd_.events().size(); ++i)
      type |= pd_.events()[i].attr.branch_sample_type;
    return type;
  }

  // symbol_conf.use_callchain: on unless -G, and off when no event records call chains
  // (perf_session__check_output_opt; in pipe mode the events are not known then, so it
  // stays on).
  bool use_callchain() const {
    if (cfg_.hide_call_graph) return false;
    if (pd_.kind() == ContainerKind::kPipe) return true;
    return (pd_.events().combined_sample_type() & kSampleCallchain) != 0;
  }

  // dlfilter__filter_event_early() (no `rs` yet: the filter resolves the sample when it asks)
  // and dlfilter__filter_event(). A negative return is an error, as in perf.
  bool keep_for_dlfilter(const Sample& s, const Evsel& evsel, uint64_t period,
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
  void process_sample(const Sample& s, const Evsel& evsel, uint64_t period) {
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
  bool unwind_refused(const Sample& s, const Evsel& evsel) const {
    constexpr uint64_t kBoth = kSampleRegsUser | kSampleStackUser;
    return cfg_.max_stack == 0 && (evsel.attr.sample_type & kBoth) == kBoth &&
           !s.user_regs.regs.empty() && s.user_stack_size != 0 &&
           unwinds_user_stacks(pd_.features().arch);
  }

  bool evswitch_discard(const Evsel& evsel) { return evswitch_.discard(evsel); }

  // --per-event-dump: the event's INPUT.EVENT.dump (builtin-script.c evsel_script__new()),
  // else standard output.
  OutBuffer& out_for(const Evsel& evsel) {
    if (dumps_.size() <= evsel.index) dumps_.resize(evsel.index + 1);
    Dump& d = dumps_[evsel.index];
    ++d.samples;
    if (!cfg_.per_event_dump) return stdout_;
    if (!d.out && !open_dumps()) return stdout_;  // a pipe's events come as records
    return *d.out;
  }

  // __symbol__fprintf_symname_offs() and map__fprintf_dsoname() for one frame.
  void print_sym(const Frame& fr, unsigned opts) {
    out_->put(' ');
    out_->write(fr.symbol_name());
    if (fr.sym && (opts & kPrintSymoffset)) {
      out_->write("+0x");  // "+{:#x}"
      out_->hex(fr.symoff());
    }
  }

  std::string_view dso_name(const Frame& fr) const {
    std::string_view name = fr.dso_name(cfg_.show_kernel_path);
    if (!cfg_.pad_dso) return name;
    // scnprintf_pad(buf, pad, "%s", name): at most pad - 1 characters, then spaces to pad.
    pad_buf_.assign(name.substr(0, cfg_.pad_dso - 1));
    pad_buf_.resize(cfg_.pad_dso, ' ');
    return pad_buf_;
  }

  void print_dso(std::string_view name) {  // " ({})"
    out_->write(" (");
    out_->write(name);
    out_->put(')');
  }

  // evsel_fprintf.c sample__fprintf_sym() / sample__fprintf_callchain().
  void print_ip(const Sample& s, const ResolvedSample& rs, unsigned opts, bool chain) {
    if (chain) {
      for (const Frame& fr : rs.callchain) {
        if (opts & kPrintIp) {
          out_->put('\t');  // "\t{:16x}"
          out_->hex(fr.chain_ip(), 16, ' ');
        }
        if (opts & kPrintSym) print_sym(fr, opts);
        if ((opts & kPrintDso) && !fr.inlined) print_dso(dso_name(fr));
        if (opts & kPrintSrcline) print_srcline(fr);
        if (fr.inlined) out_->write(" (inlined)");
        out_->put('\n');
        // symbol_conf.bt_stop_list (--stop-bt).
        if (fr.sym && !cfg_.stop_bt.empty() &&
            std::find(cfg_.stop_bt.begin(), cfg_.stop_bt.end(), fr.sym->name) !=
                cfg_.stop_bt.end()) {
          break;
        }
      }
      return;
    }
    if (opts & kPrintIp) out_->hex(s.ip, 16, ' ');  // "{:16x}"
    if (opts & kPrintSym) print_sym(rs.self, opts);
    if (opts & kPrintDso) print_dso(dso_name(rs.self));
    if (opts & kPrintSrcline) print_srcline(rs.self);
  }

  void print_srcline(const Frame& fr) {  // "\n  {}"
    std::string_view s = resolver().script_srcline(fr);
    if (s.empty()) return;
    out_->write("\n  ");
    out_->write(s);
  }

  void print_regs(const RegsDump& regs, uint64_t mask) {
    // builtin-script.c perf_sample__fprintf_regs().
    if (regs.regs.empty()) return;
    out_->print(" ABI:{} ", regs.abi);
    size_t i = 0;
    for (unsigned r = 0; r < 64; ++r) {
      if (!(mask & (1ull << r))) continue;
      uint64_t v = i < regs.regs.size() ? regs.regs[i] : 0;
      ++i;
      out_->print("{:>5}:{:#x} ", perf_reg_name(r, arch_), v);
    }
  }

  // builtin-script.c perf_sample__fprintf_insn() after script_fetch_insn(): the bytes of
  // the instruction at the sample's ip, read from the binary when the recording is of this
  // machine's architecture (native_arch), with their length.
  void print_insn(const Sample& s, const Thread& thread, uint64_t f) {
    uint8_t code[16];  // perf's MAX_INSN
    int len = 0;
    if (native_arch_ && s.ip) {
      bool is_64bit = false;
      size_t n = resolver().read_code(thread, s.ip, code, sizeof code, &is_64bit);
      if (n) len = x86_insn_length(code, n, is_64bit);
    }
    if (f & kInsnlen) out_->print(" ilen: {}", len);
    if ((f & kInsn) && len) {
      out_->write(" insn:");
      for (int i = 0; i < len; ++i) out_->print(" {:02x}", code[i]);
    }
  }

  // builtin-script.c data_src__fprintf(): the value and its decoding, padded to the longest
  // such text printed so far (a static maxlen in perf: one for every event).
  void print_data_src(uint64_t data_src) {
    std::string text = script_data_src_text(data_src);
    data_src_width_ = std::max(data_src_width_, text.size());
    out_->print("{:<{}}", text, data_src_width_);
  }

  // builtin-script.c process_event().
  void print_event(const Sample& s, const Evsel& evsel, const TypeOutput& o,
                   const ResolvedSample& rs, uint64_t period, bool chain) {
    uint64_t f = o.fields;
    start_.print(*out_, s, rs.comm, f, comm_unpadded(evsel, f), kRecordSample);
    if (f & kPeriod) {
      out_->dec(period, 10);  // "{:10} "
      out_->put(' ');
    }
    if (f & kEvname) {
      if (!name_width_) name_width_ = max_name_len();
      const std::string& name = event_name_of(evsel);
      out_->padded(name, name_width_);  // "{:>{}}: "
      out_->write(": ");
    }
    // Only samples synthesized from AUX data carry branch flags (perf_sample.flags).
    if (table_.print_flags()) print_sample_flags(*out_, 0);
    if ((f & kTrace) && s.raw_size) trace_.print(s, evsel, *rs.thread, *out_);
    if (f & kAddr) {
      out_->print("{:16x}", s.addr);
      if (evsel.attr.addr_correlates_sym()) {
        Frame fr = resolver().resolve_addr_fb(*rs.thread, s.cpumode(), s.addr);
        if (f & kSym) {
          out_->put(' ');
          out_->write(fr.symbol_name());
          if (fr.sym && (f & kSymoffset)) out_->print("+{:#x}", fr.symoff());
        }
        if (f & kDso) out_->print(" ({})", dso_name(fr));
      }
    }
    if (f & kDataSrc) print_data_src(s.data_src);
    if (f & kWeight) out_->print("{:16}", s.weight);
    if (f & kInsLat) out_->print("{:16}", s.ins_lat);
    if (f & kIp) {
      out_->put(chain ? '\n' : ' ');
      print_ip(s, rs, o.print_ip_opts, chain);
    }
    if (f & kIregs) print_regs(s.intr_regs, evsel.attr.sample_regs_intr);
    if (f & kUregs) print_regs(s.user_regs, evsel.attr.sample_regs_user);
    if (f & (kBrstack | kBrstacksym | kBrstackoff)) {
      print_branch_stack(
          *out_, resolver(), *rs.thread, s, f,
          [](const Frame& fr, const void* self) {
            return static_cast<const ScriptSink*>(self)->dso_name(fr);
          },
          this);
    }
    // perf_sample__fprintf_insn() → arch_fetch_insn(): every printed sample's instruction is
    // fetched on its own architecture (thread__memcpy(), which asks where the kernel starts).
    if (native_arch_ && s.ip) resolver().use_kernel_start();
    if (f & (kInsn | kInsnlen)) print_insn(s, *rs.thread, f);
    if (f & (kBrstackinsn | kBrstackinsnlen)) {
      print_branch_stack_insns(*out_, resolver(), *rs.thread, s, f, cfg_.max_blocks,
                               {&srccode_, &stdout_});
    }
    if (f & kPhysAddr) out_->print("{:16x}", s.phys_addr);
    if (f & kDataPageSize) print_page_size(*out_, s.data_page_size);
    if (f & kCodePageSize) print_page_size(*out_, s.code_page_size);
    out_->put('\n');
    // process_event() prints the source line to standard output, whichever file the sample's
    // line went to.
    if ((f & kSrccode) && srccode_.print(stdout_, resolver(), rs.self, rs.thread)) {
      stdout_.put('\n');
    }
  }

  const std::string& event_name_of(const Evsel& evsel) { return names_.of(evsel); }

  // evlist__max_name_len().
  int max_name_len() {
    size_t len = 0;
    for (size_t i = 0; i < pd_.events().size(); ++i) {
      len = std::max(len, event_name_of(pd_.events()[i]).size());
    }
    return static_cast<int>(len);
  }

  PerfData& pd_;
  const ScriptConfig& cfg_;
  OutputTable& table_;
  const ScriptFilters& filters_;
  OutBuffer& stdout_;  // side-band records, and samples without --per-event-dump
  OutBuffer* out_;     // where the line being printed goes
  Machine machine_;
  SessionBuilder builder_;
  std::unique_ptr<SymbolCache> symbols_;
  std::unique_ptr<Resolver> resolver_;
  std::optional<RecordDumper> dumper_;  // -D
  Bytes record_;  // the SAMPLE record being processed, for a script engine
  ScriptStat stat_;
  ScriptTrace trace_;
  ScriptLineStart start_;
  ScriptSourceLines srccode_;
  size_t data_src_width_ = 0;
  std::string arch_ = "x86";
  bool native_arch_ = false;
  bool type_ready_[kOutputTypes] = {};
  size_t attrs_seen_ = 0;  // pipe mode: events process_attr() has seen
  // Pipe mode with --header or -I: the HEADER_FEATURE records as they come.
  std::unique_ptr<PipeFeaturePrinter> features_;
  int name_width_ = 0;
  EventNames names_;
  CounterDeltas counter_deltas_;
  Status status_;
  EvSwitch evswitch_;  // --switch-on/--switch-off
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

}  // namespace

Status check_script_fields(std::string_view arg) {
  OutputTable table;
  std::string warnings;
  return table.parse(arg, warnings);
}

Status run_script(PerfData& data, const ScriptConfig& config, OutBuffer& out, FILE* err) {
  OutputTable table;
  std::string warnings;
  for (const std::string& f : config.fields) {
    Status st = table.parse(f, warnings);
    if (!warnings.empty()) {
      std::fputs(warnings.c_str(), err);
      warnings.clear();
    }
    if (!st) return st;
  }
  ScriptFilters filters;
  RETURN_IF_ERROR(filters.setup(config, data));

  // builtin-script.c cmd_script(): --header and --header-only print perf_session__fprintf_info()
  // first.
  if (config.header || config.header_only) {
    print_header_info(data, config.show_info, out);
    if (config.header_only) {
      out.flush();
      return {};
    }
  }
  // session.c __perf_session__new(): without sample_id_all perf cannot order by time;
  // --show-round-events turns the ordering off.
  PerfData::ProcessOptions po;
  po.ordered = (data.kind() == ContainerKind::kPipe || data.events().sample_id_all()) &&
               !config.show_round_events && !config.dump_unsorted;
  ScriptSink sink(data, config, table, filters, out);
  if (config.dump_raw_trace || config.dump_unsorted) {
    if (data.kind() != ContainerKind::kPipe && !data.events().sample_id_all()) {
      out.write("WARNING: No sample_id_all support, falling back to unordered processing\n");
    }
    sink.dump_records(po.ordered);
  }
  if (data.kind() != ContainerKind::kPipe) RETURN_IF_ERROR(sink.check_output());
  RETURN_IF_ERROR(sink.setup_evswitch());
  RETURN_IF_ERROR(sink.open_dumps());
  // builtin-script.c: the dlfilter and the script start before the records are read, and
  // end after.
  if (config.dlfilter) {
    if (int ret = config.dlfilter->start(); ret != 0) {
      return make_error(fmt::format("dlfilter: start() returned {}", ret));
    }
  }
  if (config.engine) RETURN_IF_ERROR(config.engine->start(data));
  Status st = data.process(sink, po);
  sink.finish(err);
  // What perf itself prints beside a script (stat counts, AUXTRACE_ERROR lines of a Perl
  // script, side-band lines) sits in its stdout buffer until it exits, after the script's
  // interpreter wrote its own output when it stopped.
  if (config.engine) {
    Status stopped = config.engine->stop();
    out.flush();
    if (!stopped) return stopped;
  }
  out.flush();
  if (config.verbose && sink.used_resolver()) print_symbol_sources(*sink.used_resolver(), err);
  if (!sink.status()) return sink.status();
  return st;
}

}  // namespace readperf
