// perf's raw dump of records as a tool sees them (dump_trace: `report -D`, `script -D`):
// session.c dump_event()'s header and hex dump of each record, then the text perf's handlers
// print for it. The report and script tools have different handlers: a record the tool has
// none for is followed by ": unhandled!" (session.c's stubs), and a few print otherwise.
#pragma once

#include <string>
#include <vector>

#include "dump_internal.h"
#include "readperf/output/out_buffer.h"
#include "readperf/reader/perf_data.h"

namespace readperf {

class Machine;

class RecordDumper {
 public:
  // `round_handler`: the tool handles FINISHED_ROUND itself (script --show-round-events),
  // which then prints no text of its own after the header.
  RecordDumper(PerfData& pd, OutBuffer& out, DumpTool tool, bool ordered,
               bool round_handler = false);

  // A user record as it is read (perf_session__process_user_event()).
  void user_record(const RecordView& r);
  // A kernel record as it is delivered (machines__deliver_event()): its header and text; a
  // SAMPLE's dump_sample() lines, without machine__resolve()'s thread and dso lines.
  void kernel_record(const RecordView& r, const Sample& s, const Evsel* evsel) {
    kernel_record_header(r, s);
    kernel_record_text(r, s, evsel);
  }
  // Its two parts, for a tool that prints its own line between them (script's
  // process_exit_event() prints before perf_event__process_exit() does).
  void kernel_record_header(const RecordView& r, const Sample& s) { print_header(r, s); }
  void kernel_record_text(const RecordView& r, const Sample& s, const Evsel* evsel);
  // An AUXTRACE record's data (Intel PT's packets, when its AUXTRACE_INFO said so).
  void auxtrace_data(Bytes data);

 private:
  void print_header(const RecordView& r, const Sample& s);

  PerfData& pd_;
  OutBuffer& out_;
  DumpTool tool_;
  bool ordered_;
  bool round_handler_;
  bool intel_pt_ = false;           // an Intel PT AUXTRACE_INFO was seen
  std::string arch_ = "x86";        // perf_env__arch() of a file without ARCH: this machine's
  std::vector<std::byte> swapped_;  // the record being dumped, swapped as perf swaps it
};

// event.c machine__resolve()'s dump lines for a sample: " ... thread: COMM:TID" and
// " ...... dso: NAME" (the map of its ip as `machine` has it then).
void print_resolve_lines(OutBuffer& out, Machine& machine, const Sample& s);

}  // namespace readperf
