// `report -D`: builtin-report.c with dump_trace set. Every record is printed where perf's
// session.c prints it: user records as they are read (perf_session__process_user_event),
// kernel records as they leave the ordered queue (machines__deliver_event), each as
// dump_event()'s header and hex dump, then its description; samples add the thread and dso
// lines of event.c machine__resolve(), which need the Machine the records build. The closing
// stats are those of `report --stats`, but with the samples the report tool counted.
#include "readperf/output/dump_printer.h"

#include <unordered_map>

#include "dump_internal.h"
#include "readperf/format/perf_abi.h"
#include "readperf/output/stats_printer.h"
#include "readperf/reader/record_swap.h"
#include "readperf/session/machine.h"
#include "readperf/session/session_builder.h"

namespace readperf {

namespace {

class DumpSink : public EventSink {
 public:
  DumpSink(PerfData& pd, OutBuffer& out, bool ordered) : pd_(pd), out_(out), ordered_(ordered) {
    stats_.events = &pd.events();
    stats_.order = pd.order();
    if (pd.features().arch) arch_ = std::string(normalize_arch(*pd.features().arch));
    builder_.begin(pd.features());
  }

  void on_read(const RecordView& r) override { stats_.on_read(r); }

  void on_user_record(const RecordView& r) override {
    // perf's report tool decompresses COMPRESSED records without dumping them.
    if (r.type == kRecordCompressed || r.type == kRecordCompressed2) return;
    Sample zero;
    zero.cpu = 0;
    zero.time = 0;
    print_header(r, zero);
    print_user_record(out_, r, pd_.order(), ordered_);
    if (r.type == kRecordAuxtraceInfo) {
      // auxtrace.c perf_event__process_auxtrace_info(): Intel PT (type 1) with at least its
      // first ten words decodes, and dumps, the AUX data that follows.
      ByteCursor c = r.body(pd_.order());
      intel_pt_ = c.u32() == 1 && r.size >= 16 + 8 * 10;
    }
    builder_.on_user_record(r);
    out_.maybe_flush();
  }

  void on_auxtrace_data(const RecordView& /*r*/, Bytes data) override {
    // intel-pt.c intel_pt_process_auxtrace_event() dumps each buffer as it is queued.
    if (intel_pt_) print_intel_pt_data(out_, data);
  }

  void on_kernel_record(const RecordView& r, const Sample& s, const Evsel* evsel) override {
    print_header(r, s);
    ByteOrder order = pd_.order();
    switch (r.type) {
      case kRecordSample:
        if (evsel) on_sample(r, s, *evsel);
        break;
      case kRecordMmap:
      case kRecordMmap2: {
        MmapEvent e;
        if (!parse_mmap(r, order, e)) break;
        print_mmap(out_, e);
        builder_.apply(r, s);
        break;
      }
      case kRecordComm: {
        CommEvent e;
        if (!parse_comm(r, order, e)) break;
        print_comm(out_, e);
        builder_.apply(r, s);
        break;
      }
      case kRecordFork: {
        TaskEvent e;
        if (!parse_task(r, order, e)) break;
        print_task(out_, e);
        Machine::ForkResult fr = builder_.apply(r, s);
        if (fr.removed_parent) {
          out_.print("removing erroneous parent thread {}/{}\n", fr.removed_pid, fr.removed_tid);
        }
        break;
      }
      case kRecordExit: {
        TaskEvent e;
        if (!parse_task(r, order, e)) break;
        print_task(out_, e);
        builder_.apply(r, s);
        break;
      }
      case kRecordKsymbol: {
        KsymbolEvent e;
        if (!parse_ksymbol(r, order, e)) break;
        print_ksymbol(out_, e);
        builder_.apply(r, s);
        break;
      }
      case kRecordNamespaces:
        builder_.apply(r, s);
        print_kernel_record(out_, r, order, s, evsel);
        break;
      default:
        print_kernel_record(out_, r, order, s, evsel);
        break;
    }
    out_.maybe_flush();
  }

  void finish(bool skip_empty) {
    print_aggregated_stats(stats_, pd_, out_, skip_empty);
    // evlist__fprintf_nr_events() with the samples the report tool added to its histograms.
    stats_.nr_samples = samples_;
    stats_.nr_lost_samples.assign(samples_.size(), 0);
    print_event_stats(stats_, pd_, out_, false, skip_empty);
  }

 private:
  // session.c dump_event() and evlist__print_tstamp().
  void print_header(const RecordView& r, const Sample& s) {
    out_.print("\n{}@{} [{:#x}]: event: {}\n", AltHex{r.file_offset}, pd_.source_names()[r.source],
               r.size, r.type);
    const EventList& events = pd_.events();
    if (pd_.order() == ByteOrder::kSwapped) {
      // session.c perf_session__process_event() swaps a record of the other byte order in
      // place before dump_event() prints it: dump those bytes.
      swapped_.clear();
      const Evsel* ev =
          r.type < kRecordUserTypeStart ? events.evsel_for_record(r, pd_.order()) : nullptr;
      swap_record(r.bytes, pd_.order(), ev ? &ev->attr : nullptr, events.sample_id_all(), swapped_,
                  SwapMode::kPerfInPlace);
      print_raw_event(out_, swapped_);
    } else {
      print_raw_event(out_, r.bytes);
    }
    if (r.type != kRecordSample && !events.sample_id_all()) {
      out_.write("-1 -1 ");
    } else {
      uint64_t t = events.combined_sample_type();
      if (t & kSampleCpu) {
        out_.dec(s.cpu);
        out_.put(' ');
      }
      if (t & kSampleTime) {
        out_.dec(s.time);
        out_.put(' ');
      }
    }
    // "{} [{:#x}]: PERF_RECORD_{}" with the offset as AltHex.
    write_alt_hex(out_, r.file_offset);
    out_.write(" [");
    out_.alt_hex(r.size);
    out_.write("]: PERF_RECORD_");
    out_.write(perf_event_name(r.type));
  }

  void on_sample(const RecordView& r, const Sample& s, const Evsel& evsel) {
    print_sample(out_, evsel, r, s, arch_);
    if (!(evsel.attr.sample_type & kSampleRead)) {
      report_sample(s, evsel);
      return;
    }
    // session.c evlist__deliver_sample(): a sample that reads counters is delivered once per
    // counter that moved since its last sample, as a sample of that counter's event.
    uint64_t rf = evsel.attr.read_format;
    if (rf & kFormatGroup) {
      for (uint64_t i = 0; i < s.read.group_nr; ++i) deliver_value(s, s.read.group_value(i, rf));
    } else {
      deliver_value(s, s.read.one);
    }
  }

  // session.c deliver_sample_value().
  void deliver_value(const Sample& s, const ReadValue& v) {
    const Evsel* ev = pd_.events().find_id(v.id);
    if (!ev) return;  // nr_unknown_id
    uint64_t& last = counter_values_[v.id];
    uint64_t period = v.value - last;
    last = v.value;
    if (!period) return;
    report_sample(s, *ev);
  }

  // builtin-report.c process_sample_event(): event.c machine__resolve() prints the thread
  // and dso lines; the sample then goes to its event's histogram.
  void report_sample(const Sample& s, const Evsel& evsel) {
    Thread* t = machine_.findnew_thread(s.pid, s.tid);
    out_.print(" ... thread: {}:{}\n", t->comm_str(), t->tid);
    char level = 0;
    const Map* m = machine_.find_map(*t, s.cpumode(), s.ip, &level);
    std::string_view dso = m              ? std::string_view(m->dso->long_name)
                           : level == 'H' ? "[hypervisor]"
                                          : "<not found>";
    out_.print(" ...... dso: {}\n", dso);
    // hist.c: one histogram entry per sample, or per branch in branch mode.
    uint64_t n = 1;
    if (branch_mode()) n = s.has_branch_stack ? s.branch_stack.nr : 0;
    if (samples_.size() <= evsel.index) samples_.resize(evsel.index + 1);
    samples_[evsel.index] += n;
  }

  // builtin-report.c: a file with the BRANCH_STACK feature (and no user stacks) is reported
  // by branch.
  bool branch_mode() const {
    return pd_.header().features[kFeatBranchStack] &&
           !(pd_.events().combined_sample_type() & kSampleStackUser);
  }

  PerfData& pd_;
  OutBuffer& out_;
  bool ordered_;
  bool intel_pt_ = false;     // an Intel PT AUXTRACE_INFO was seen
  std::string arch_ = "x86";  // perf_env__arch() of a file without ARCH: this machine's
  Machine machine_;
  SessionBuilder builder_{machine_, pd_.order()};
  std::vector<std::byte> swapped_;  // the record being dumped, swapped as perf swaps it
  StatsCounter stats_;
  std::vector<uint64_t> samples_;
  std::unordered_map<uint64_t, uint64_t> counter_values_;  // by sample id (sid->period)
};

}  // namespace

Status run_dump(PerfData& data, OutBuffer& out, bool skip_empty) {
  // session.c __perf_session__new(): without sample_id_all perf cannot order by time.
  bool ordered = true;
  if (data.kind() != ContainerKind::kPipe && !data.events().sample_id_all()) {
    out.write("WARNING: No sample_id_all support, falling back to unordered processing\n");
    ordered = false;
  }
  out.write(
      "# To display the perf.data header info, please use --header/--header-only options.\n#\n");
  DumpSink sink(data, out, ordered);
  PerfData::ProcessOptions po;
  po.ordered = ordered;
  Status st = data.process(sink, po);
  if (!st) return st;
  sink.finish(skip_empty);
  out.flush();
  return {};
}

}  // namespace readperf
