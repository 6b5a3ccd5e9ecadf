#include "record_dumper.h"

#include "dump_internal.h"
#include "readperf/format/perf_abi.h"
#include "readperf/reader/record_swap.h"
#include "readperf/session/machine.h"

namespace readperf {

RecordDumper::RecordDumper(PerfData& pd, OutBuffer& out, DumpTool tool, bool ordered,
                           bool round_handler)
    : pd_(pd), out_(out), tool_(tool), ordered_(ordered), round_handler_(round_handler) {
  if (pd.features().arch) arch_ = std::string(normalize_arch(*pd.features().arch));
}

void RecordDumper::user_record(const RecordView& r) {
  // perf's tools decompress COMPRESSED records without dumping them.
  if (r.type == kRecordCompressed || r.type == kRecordCompressed2) return;
  Sample zero;
  zero.cpu = 0;
  zero.time = 0;
  print_header(r, zero);
  if (!(r.type == kRecordFinishedRound && round_handler_)) {
    print_user_record(out_, r, pd_.order(), ordered_, tool_);
  }
  if (r.type == kRecordAuxtraceInfo) {
    // auxtrace.c perf_event__process_auxtrace_info(): Intel PT (type 1) with at least its
    // first ten words decodes, and dumps, the AUX data that follows.
    ByteCursor c = r.body(pd_.order());
    intel_pt_ = c.u32() == 1 && r.size >= 16 + 8 * 10;
  }
  out_.maybe_flush();
}

void RecordDumper::auxtrace_data(Bytes data) {
  // intel-pt.c intel_pt_process_auxtrace_event() dumps each buffer as it is queued.
  if (intel_pt_) print_intel_pt_data(out_, data);
}

void RecordDumper::kernel_record_text(const RecordView& r, const Sample& s, const Evsel* evsel) {
  ByteOrder order = pd_.order();
  switch (r.type) {
    case kRecordSample:
      if (evsel) print_sample(out_, *evsel, r, s, arch_);
      break;
    case kRecordMmap:
    case kRecordMmap2: {
      MmapEvent e;
      if (parse_mmap(r, order, e)) print_mmap(out_, e);
      break;
    }
    case kRecordComm: {
      CommEvent e;
      if (parse_comm(r, order, e)) print_comm(out_, e);
      break;
    }
    case kRecordFork:
    case kRecordExit: {
      TaskEvent e;
      if (parse_task(r, order, e)) print_task(out_, e);
      break;
    }
    case kRecordKsymbol: {
      KsymbolEvent e;
      if (parse_ksymbol(r, order, e)) print_ksymbol(out_, e);
      break;
    }
    default:
      print_kernel_record(out_, r, order, s, evsel, tool_);
      break;
  }
}

// session.c dump_event() and evlist__print_tstamp().
void RecordDumper::print_header(const RecordView& r, const Sample& s) {
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

void print_resolve_lines(OutBuffer& out, Machine& machine, const Sample& s) {
  Thread* t = machine.findnew_thread(s.pid, s.tid);
  out.print(" ... thread: {}:{}\n", t->comm_str(), t->tid);
  char level = 0;
  const Map* m = machine.find_map(*t, s.cpumode(), s.ip, &level);
  std::string_view dso = m              ? std::string_view(m->dso->long_name)
                         : level == 'H' ? "[hypervisor]"
                                        : "<not found>";
  out.print(" ...... dso: {}\n", dso);
}

}  // namespace readperf
