#include "readperf/reader/side_band.h"

#include "readperf/format/perf_abi.h"

namespace readperf {

bool parse_switch(const RecordView& r, ByteOrder order, SwitchEvent& out) {
  out = SwitchEvent{};
  out.cpu_wide = r.type == kRecordSwitchCpuWide;
  out.out = r.misc & kMiscSwitchOut;
  out.out_preempt = out.out && (r.misc & kMiscSwitchOutPreempt);
  if (!out.cpu_wide) return true;
  ByteCursor c = r.body(order);
  out.next_prev_pid = c.s32();
  out.next_prev_tid = c.s32();
  return c.ok();
}

bool parse_throttle(const RecordView& r, ByteOrder order, ThrottleEvent& out) {
  ByteCursor c = r.body(order);
  out.throttle = r.type == kRecordThrottle;
  out.time = c.u64();
  out.id = c.u64();
  out.stream_id = c.u64();
  return c.ok();
}

bool parse_auxtrace_error(const RecordView& r, ByteOrder order, AuxtraceErrorEvent& out) {
  constexpr size_t kMsgSize = 64;  // MAX_AUXTRACE_ERROR_MSG
  ByteCursor c = r.body(order);
  out = AuxtraceErrorEvent{};
  out.cpumode = r.misc & kMiscCpumodeMask;
  out.type = c.u32();
  out.code = c.u32();
  out.cpu = c.s32();
  out.pid = c.s32();
  out.tid = c.s32();
  out.fmt = c.u32();
  out.ip = c.u64();
  if (!c.ok()) return false;
  size_t time_at = c.position();
  if (out.fmt) {
    out.time = c.u64();
    out.msg = c.fixed_string(kMsgSize);
  } else {
    // Format 0 had the message right after ip.
    out.msg = c.fixed_string(kMsgSize + 8);
  }
  if (!c.ok()) {
    // A short record: its message is what there is of it.
    ByteCursor rest = r.body(order);
    rest.seek(time_at + (out.fmt ? 8 : 0));
    out.msg = rest.ok() ? rest.fixed_string(rest.remaining()) : std::string_view();
    return true;
  }
  if (out.fmt >= 2) {
    out.machine_pid = c.s32();
    out.vcpu = c.s32();
  }
  return true;
}

}  // namespace readperf
