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
#include "record_dumper.h"

namespace readperf {

namespace {

class DumpSink : public EventSink {
 public:
  DumpSink(PerfData& pd, OutBuffer& out, bool ordered)
      : pd_(pd), out_(out), dumper_(pd, out, DumpTool::kReport, ordered) {
    stats_.events = &pd.events();
    stats_.order = pd.order();
    builder_.begin(pd.features());
  }

  void on_read(const RecordView& r) override { stats_.on_read(r); }

  void on_user_record(const RecordView& r) override {
    dumper_.user_record(r);
    if (r.type != kRecordCompressed && r.type != kRecordCompressed2) builder_.on_user_record(r);
  }

  void on_auxtrace_data(const RecordView& /*r*/, Bytes data) override {
    dumper_.auxtrace_data(data);
  }

  void on_kernel_record(const RecordView& r, const Sample& s, const Evsel* evsel) override {
    dumper_.kernel_record(r, s, evsel);
    switch (r.type) {
      case kRecordSample:
        if (evsel) on_sample(s, *evsel);
        break;
      case kRecordFork: {
        Machine::ForkResult fr = builder_.apply(r, s);
        if (fr.removed_parent) {
          out_.print("removing erroneous parent thread {}/{}\n", fr.removed_pid, fr.removed_tid);
        }
        break;
      }
      case kRecordMmap:
      case kRecordMmap2:
      case kRecordComm:
      case kRecordExit:
      case kRecordKsymbol:
      case kRecordNamespaces:
        builder_.apply(r, s);
        break;
      default:
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
  void on_sample(const Sample& s, const Evsel& evsel) {
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
    print_resolve_lines(out_, machine_, s);
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
  RecordDumper dumper_;
  Machine machine_;
  SessionBuilder builder_{machine_, pd_.order()};
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
