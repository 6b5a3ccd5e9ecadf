// Kernel and user records that a tool hands on rather than builds a machine from
// (perf_event.h PERF_RECORD_SWITCH, SWITCH_CPU_WIDE, THROTTLE, UNTHROTTLE; perf's
// PERF_RECORD_AUXTRACE_ERROR), parsed from their bytes. Strings are views into the record.
//
//   SwitchEvent e;
//   if (parse_switch(record, order, e) && e.out) ...
#pragma once

#include <cstdint>
#include <string_view>

#include "readperf/format/byte_cursor.h"
#include "readperf/reader/record.h"

namespace readperf {

// PERF_RECORD_SWITCH (no body) and PERF_RECORD_SWITCH_CPU_WIDE (next_prev_pid/tid).
struct SwitchEvent {
  bool cpu_wide = false;
  bool out = false;          // PERF_RECORD_MISC_SWITCH_OUT
  bool out_preempt = false;  // out, and PERF_RECORD_MISC_SWITCH_OUT_PREEMPT
  int32_t next_prev_pid = -1;
  int32_t next_prev_tid = -1;
};

// PERF_RECORD_THROTTLE and UNTHROTTLE: time, id, stream_id.
struct ThrottleEvent {
  bool throttle = false;  // THROTTLE, not UNTHROTTLE
  uint64_t time = 0;
  uint64_t id = 0;
  uint64_t stream_id = 0;
};

// perf_record_auxtrace_error (lib/perf/include/perf/event.h). A record of format 0 has no
// time: its message starts where the time would be (auxtrace.c
// perf_event__fprintf_auxtrace_error()); machine_pid and vcpu come with format 2.
struct AuxtraceErrorEvent {
  uint32_t type = 0;
  uint32_t code = 0;
  int32_t cpu = 0;
  int32_t pid = 0;
  int32_t tid = 0;
  uint32_t fmt = 0;
  uint64_t ip = 0;
  uint64_t time = 0;  // 0 for format 0
  std::string_view msg;
  int32_t machine_pid = 0;
  int32_t vcpu = 0;
  uint8_t cpumode = 0;  // header.misc & PERF_RECORD_MISC_CPUMODE_MASK
};

bool parse_switch(const RecordView& r, ByteOrder order, SwitchEvent& out);
bool parse_throttle(const RecordView& r, ByteOrder order, ThrottleEvent& out);
bool parse_auxtrace_error(const RecordView& r, ByteOrder order, AuxtraceErrorEvent& out);

}  // namespace readperf
