// auxtrace.c perf_event__fprintf_auxtrace_error(): the line perf script prints for a
// PERF_RECORD_AUXTRACE_ERROR (perf_event__process_auxtrace_error(), when a script does not
// take it).
#include <cinttypes>

#include "readperf/reader/side_band.h"
#include "script_internal.h"

namespace readperf {

namespace {

// auxtrace.c auxtrace_error_name(): PERF_AUXTRACE_ERROR_ITRACE is the only kind perf names.
const char* auxtrace_error_name(uint32_t type) {
  return type == 1 ? "instruction trace" : "unknown AUX";
}

}  // namespace

void print_auxtrace_error(OutBuffer& out, const AuxtraceErrorEvent& e) {
  out.print(" {} error type {}", auxtrace_error_name(e.type), e.type);
  if (e.fmt && e.time) {
    out.print(" time {}.{:09}", e.time / 1000000000, e.time % 1000000000);
  } else {
    out.write(" time 0");
  }
  if (e.fmt >= 2 && e.machine_pid) out.print(" machine_pid {} vcpu {}", e.machine_pid, e.vcpu);
  // %#lx: "0" for zero, 0x... otherwise.
  if (e.ip) {
    out.print(" cpu {} pid {} tid {} ip {:#x} code {}: {}\n", e.cpu, e.pid, e.tid, e.ip, e.code,
              e.msg);
  } else {
    out.print(" cpu {} pid {} tid {} ip 0 code {}: {}\n", e.cpu, e.pid, e.tid, e.code, e.msg);
  }
}

}  // namespace readperf
