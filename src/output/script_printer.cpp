// `script`: builtin-script.c with no script given. The records build the Machine in perf's
// order (SessionBuilder); each sample that passes the filters of process_sample_event() is
// resolved (Resolver: machine__resolve, thread__resolve_callchain) and printed by
// process_event(); files of `perf stat record` print their counts at each STAT_ROUND.
#include "readperf/output/script_printer.h"

#include <sys/stat.h>
#include <sys/utsname.h>

#include "dump_internal.h"
#include "readperf/format/perf_abi.h"
#include "readperf/output/script_dlfilter.h"
#include "readperf/output/script_engine.h"
#include "readperf/output/symbol_sources.h"
#include "readperf/symbols/demangle.h"
#include "script_sink.h"

namespace readperf {

using namespace script;  // NOLINT: the field names

ScriptSink::ScriptSink(PerfData& pd, const ScriptConfig& cfg, OutputTable& table,
                       const ScriptFilters& f, OutBuffer& out)
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
void ScriptSink::dump_records(bool ordered) {
  dumper_.emplace(pd_, stdout_, DumpTool::kScript, ordered, cfg_.show_round_events);
}

void ScriptSink::on_user_record(const RecordView& r) {
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

void ScriptSink::on_kernel_record(const RecordView& r, const Sample& s, const Evsel* evsel) {
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
    counter_deltas_.split(s, *evsel, pd_.events(), [&](const Evsel& ev, uint64_t, uint64_t period) {
      process_sample(s, ev, period);
    });
  }
  out_->maybe_flush();
}

// perf_session__check_output_opt(): a file's events are known before its records, so
// perf settles (and refuses) the fields of each type before printing anything.
Status ScriptSink::check_output() {
  const EventList& events = pd_.events();
  for (size_t i = 0; i < events.size(); ++i) setup_type(events[i]);
  return status_;
}

// util/evswitch.c evswitch__init(): the events named by --switch-on/--switch-off.
Status ScriptSink::setup_evswitch() {
  return evswitch_.init(pd_.events(), names_, cfg_.switch_on, cfg_.switch_off,
                        cfg_.show_on_off_events);
}

// builtin-script.c perf_script__fopen_per_event_dump(): one file per event, named after
// the input and the event.
Status ScriptSink::open_dumps() {
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
void ScriptSink::finish(FILE* err) {
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

// The symbols are set up at the first sample: in a pipe the header features (the
// recorded kernel release among them) come as records before it.
Resolver& ScriptSink::resolver() {
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
