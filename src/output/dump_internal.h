// Pieces of the `report -D` printer shared by its dump_*.cpp files (not a public API).
#pragma once

#include <fmt/format.h>

#include <cstdint>
#include <string_view>

#include "readperf/format/byte_cursor.h"
#include "readperf/output/out_buffer.h"
#include "readperf/reader/event_list.h"
#include "readperf/reader/record.h"
#include "readperf/reader/sample.h"

namespace readperf {

// A value printed with C's "%#x": "0" for zero, "0x..." otherwise (fmt's "{:#x}" would print
// "0x0").
struct AltHex {
  uint64_t v;
};

}  // namespace readperf

template <>
struct fmt::formatter<readperf::AltHex> : fmt::formatter<std::string_view> {
  template <class Ctx>
  auto format(readperf::AltHex h, Ctx& ctx) const {
    if (h.v == 0) return fmt::format_to(ctx.out(), "0");
    return fmt::format_to(ctx.out(), "0x{:x}", h.v);
  }
};

namespace readperf {

// What formatting AltHex{v} writes, by hand for the per-record lines.
inline void write_alt_hex(OutBuffer& out, uint64_t v) {
  if (v == 0) {
    out.put('0');
  } else {
    out.alt_hex(v);
  }
}

// Whose handlers a dump shows (dump_trace): the records each tool has no handler for print
// ": unhandled!" (session.c's stubs), and a few print otherwise.
enum class DumpTool {
  kReport,  // builtin-report.c's tool
  kScript,  // builtin-script.c's tool
};

// debug.c trace_event(): the ". ... raw event" hex and character dump of a record.
void print_raw_event(OutBuffer& out, Bytes record);

// util/perf_regs.c perf_reg_name() for perf_env__arch()'s names ("x86", "arm", "arm64").
std::string_view perf_reg_name(unsigned id, std::string_view arch);
// util/env.c normalize_arch(): "x86_64" -> "x86", "aarch64" -> "arm64", "armv7l" -> "arm".
std::string_view normalize_arch(std::string_view raw);

// session.c dump_sample(): the "(IP, 0x..)" line and what follows it, up to (not including)
// the thread and dso lines.
void print_sample(OutBuffer& out, const Evsel& evsel, const RecordView& r, const Sample& s,
                  std::string_view arch);

// The text after "PERF_RECORD_<NAME>" for kernel records other than SAMPLE that perf's
// report or script tool prints (util/event.c perf_event__fprintf_*, machine.c, session.c
// dump_read). Returns false for types handled elsewhere (MMAP, COMM, FORK, EXIT, SAMPLE, KSYMBOL).
bool print_kernel_record(OutBuffer& out, const RecordView& r, ByteOrder order, const Sample& s,
                         const Evsel* evsel, DumpTool tool);

// The text after "PERF_RECORD_<NAME>" for user records (session.c
// perf_session__process_user_event and the tool's handlers). `ordered` is whether perf
// processes in time order (FINISHED_ROUND prints "\n" then, else ": unhandled!").
void print_user_record(OutBuffer& out, const RecordView& r, ByteOrder order, bool ordered,
                       DumpTool tool);

}  // namespace readperf

#include "readperf/session/events.h"

namespace readperf {

// util/event.c perf_event__fprintf_mmap / _mmap2 / _comm / _task and _ksymbol.
void print_mmap(OutBuffer& out, const MmapEvent& e);
void print_comm(OutBuffer& out, const CommEvent& e);
void print_task(OutBuffer& out, const TaskEvent& e);
void print_ksymbol(OutBuffer& out, const KsymbolEvent& e);

}  // namespace readperf

namespace readperf {

// intel-pt.c intel_pt_dump(): the packets of Intel PT AUX data, one a line.
void print_intel_pt_data(OutBuffer& out, Bytes data);

}  // namespace readperf
