// What perf's report tool prints after "PERF_RECORD_<NAME>" for perf's own records
// (session.c perf_session__process_user_event with builtin-report.c's tool: the stubs that
// print ": unhandled!", perf_event__fprintf_* of event.c, stat.c, tsc.c, header.c, and
// session.c perf_event__process_id_index).
#include <cstring>
#include <vector>

#include "dump_internal.h"
#include "readperf/format/perf_abi.h"
#include "readperf/reader/cpu_map.h"
#include "readperf/reader/stat_records.h"

namespace readperf {

namespace {

// util/cpumap.c cpu_map__snprint(): runs of consecutive cpus as "a-b", joined by ','.
void print_cpu_list(OutBuffer& out, const std::vector<int>& cpus) {
  size_t start = 0;
  bool first = true;
  for (size_t i = 1; i <= cpus.size(); ++i) {
    bool last = i == cpus.size();
    if (!last && cpus[i] - cpus[start] == static_cast<int>(i - start)) continue;
    size_t end = i - 1;
    if (start == end) {
      out.print("{}{}", first ? "" : ",", cpus[start]);
    } else {
      out.print("{}{}-{}", first ? "" : ",", cpus[start], cpus[end]);
    }
    first = false;
    start = i;
  }
  out.put('\n');
}

void print_cpu_map(OutBuffer& out, ByteCursor& c, const char* failed) {
  Result<std::vector<int>> cpus = decode_cpu_map(c);
  if (cpus && !cpus->empty()) {
    print_cpu_list(out, *cpus);
  } else {
    out.print("{}\n", failed);
  }
}

void print_event_update(OutBuffer& out, ByteCursor c) {
  // header.c perf_event__fprintf_event_update().
  uint64_t type = c.u64();
  uint64_t id = c.u64();
  out.print("\n... id:    {}\n", id);
  switch (type) {
    case 1: {  // PERF_EVENT_UPDATE__SCALE
      uint64_t bits = c.u64();
      // perf_event__event_update_swap() swaps only type and id: the payload is read as it is.
      if (c.swapped()) bits = bswap(bits);
      double scale;
      std::memcpy(&scale, &bits, sizeof scale);
      out.print("... scale: {:f}\n", scale);
      break;
    }
    case 0:  // PERF_EVENT_UPDATE__UNIT
      out.print("... unit:  {}\n", c.cstring());
      break;
    case 2:  // PERF_EVENT_UPDATE__NAME
      out.print("... name:  {}\n", c.cstring());
      break;
    case 3: {  // PERF_EVENT_UPDATE__CPUS
      out.write("... ");
      ByteCursor payload(c.data().subspan(std::min(c.position(), c.size())), ByteOrder::kNative);
      print_cpu_map(out, payload, "failed to get cpus");
      break;
    }
    default:
      out.write("... unknown type\n");
      break;
  }
}

void print_id_index(OutBuffer& out, const RecordView& r, ByteCursor c) {
  // session.c perf_event__process_id_index(): entries of 4 u64s, optionally followed by a
  // second table of (machine_pid, vcpu).
  uint64_t nr = c.u64();
  size_t sz = r.size - 16;
  if (nr > sz / 32) {
    out.print("Too big: nr {} max_nr {}\n", nr, sz / 32);
    return;
  }
  bool e2 = sz >= nr * 48;
  out.print(" nr: {}\n", nr);
  ByteCursor c2 = c;
  c2.skip(nr * 32);
  for (uint64_t i = 0; i < nr; ++i) {
    uint64_t id = c.u64();
    uint64_t idx = c.u64();
    int64_t cpu = c.s64();
    int64_t tid = c.s64();
    out.print(" ... id: {}  idx: {}  cpu: {}  tid: {}", id, idx, cpu, tid);
    if (e2) {
      int64_t machine_pid = c2.s64();
      uint64_t vcpu = c2.u64();
      out.print("  machine_pid: {}  vcpu: {}\n", machine_pid, vcpu);
    } else {
      out.put('\n');
    }
  }
}

void print_time_conv(OutBuffer& out, const RecordView& r, ByteCursor c) {
  // tsc.c perf_event__fprintf_time_conv(); the fields from time_cycles on only when the
  // record has them.
  uint64_t shift = c.u64();
  uint64_t mult = c.u64();
  uint64_t zero = c.u64();
  out.print("\n... Time Shift      {}\n", shift);
  out.print("... Time Muliplier  {}\n", mult);
  out.print("... Time Zero       {}\n", zero);
  if (r.size >= 8 + 8 * 4) {
    uint64_t cycles = c.u64();
    uint64_t mask = c.u64();
    uint8_t cap_zero = c.u8();
    uint8_t cap_short = c.u8();
    out.print("... Time Cycles     {}\n", cycles);
    out.print("... Time Mask       {}\n", AltHex{mask});
    out.print("... Cap Time Zero   {}\n", cap_zero);
    out.print("... Cap Time Short  {}\n", cap_short);
  }
}

void print_intel_pt_info(OutBuffer& out, const RecordView& r, ByteCursor c);

void print_auxtrace_info(OutBuffer& out, const RecordView& r, ByteCursor c) {
  uint32_t type = c.u32();
  c.u32();
  out.print(" type: {}\n", type);
  if (type == 1) print_intel_pt_info(out, r, c);
}

// intel-pt.c intel_pt_process_auxtrace_info() through intel_pt_print_info(): the priv
// words, those present in the record.
void print_intel_pt_info(OutBuffer& out, const RecordView& r, ByteCursor c) {
  enum {
    kPmuType,
    kTimeShift,
    kTimeMult,
    kTimeZero,
    kCapUserTimeZero,
    kTscBit,
    kNoretcompBit,
    kHaveSchedSwitch,
    kSnapshotMode,
    kPerCpuMmaps,
    kMtcBit,
    kMtcFreqBits,
    kTscCtcN,
    kTscCtcD,
    kCycBit,
    kMaxNonturboRatio,
    kFilterStrLen,
    kPrivMax
  };
  std::vector<uint64_t> priv;
  while (c.remaining() >= 8) priv.push_back(c.u64());
  if (priv.size() < kPerCpuMmaps + 1) return;
  auto has = [&](size_t pos) { return r.size >= 16 + 8 * (pos + 1); };
  auto d = [&](const char* name, uint64_t v) { out.print("  {:<20}{}\n", name, v); };
  auto x = [&](const char* name, uint64_t v) { out.print("  {:<20}{}\n", name, AltHex{v}); };
  d("PMU Type", priv[kPmuType]);
  d("Time Shift", priv[kTimeShift]);
  d("Time Muliplier", priv[kTimeMult]);
  d("Time Zero", priv[kTimeZero]);
  d("Cap Time Zero", priv[kCapUserTimeZero]);
  x("TSC bit", priv[kTscBit]);
  x("NoRETComp bit", priv[kNoretcompBit]);
  d("Have sched_switch", priv[kHaveSchedSwitch]);
  d("Snapshot mode", priv[kSnapshotMode]);
  d("Per-cpu maps", priv[kPerCpuMmaps]);
  if (has(kCycBit)) {
    x("MTC bit", priv[kMtcBit]);
    x("MTC freq bits", priv[kMtcFreqBits]);
    d("TSC:CTC numerator", priv[kTscCtcN]);
    d("TSC:CTC denominator", priv[kTscCtcD]);
    x("CYC bit", priv[kCycBit]);
  }
  if (has(kMaxNonturboRatio)) d("Max non-turbo ratio", priv[kMaxNonturboRatio]);
  if (has(kFilterStrLen)) {
    uint64_t len = priv[kFilterStrLen];
    d("Filter string len.", len);
    std::string filter;
    if (len) {
      Bytes all = r.bytes.subspan(16 + 8 * kPrivMax);
      size_t n = std::min<size_t>(len, all.size());
      filter.assign(reinterpret_cast<const char*>(all.data()), n);
      filter = filter.c_str();
    }
    out.print("  {:<20}{}\n", "Filter string", filter);
  }
}

}  // namespace

void print_user_record(OutBuffer& out, const RecordView& r, ByteOrder order, bool ordered,
                       DumpTool tool) {
  ByteCursor c = r.body(order);
  // The script tool has handlers for THREAD_MAP, CPU_MAP (printing what the stubs print),
  // STAT_CONFIG, STAT, STAT_ROUND (printing nothing, not even the line's end) and
  // AUXTRACE_ERROR (perf_event__process_auxtrace_error(): its line, printed by the script
  // printer as without -D).
  const bool script = tool == DumpTool::kScript;
  const char* unhandled = script ? "" : ": unhandled!\n";
  switch (r.type) {
    case kRecordHeaderAttr:
    case kRecordHeaderEventType:
    case kRecordHeaderBuildId:
    case kRecordHeaderFeature:
    case kRecordHeaderTracingData:
      // Handled without a word (the report tool's attr, build_id and feature handlers).
      return;
    case kRecordEventUpdate:
      print_event_update(out, c);
      return;
    case kRecordFinishedRound:
      out.write(ordered ? "\n" : ": unhandled!\n");
      return;
    case kRecordIdIndex:
      print_id_index(out, r, c);
      return;
    case kRecordAuxtraceInfo:
      print_auxtrace_info(out, r, c);
      return;
    case kRecordAuxtrace: {
      uint64_t size = c.u64();
      uint64_t offset = c.u64();
      uint64_t ref = c.u64();
      uint32_t idx = c.u32();
      int32_t tid = c.s32();
      int32_t cpu = c.s32();
      out.print(" size: {}  offset: {}  ref: {}  idx: {}  tid: {}  cpu: {}\n", AltHex{size},
                AltHex{offset}, AltHex{ref}, idx, tid, cpu);
      return;
    }
    case kRecordThreadMap: {
      // event.c perf_event__fprintf_thread_map(), thread_map.c thread_map__fprintf().
      ThreadMapEvent map;
      parse_thread_map(r, order, map);
      out.write(" nr: ");
      int n = static_cast<int>(map.nr);
      out.print("{} thread{}: ", n, n > 1 ? "s" : "");
      for (size_t i = 0; i < map.entries.size() && static_cast<int64_t>(i) < n; ++i) {
        out.print("{}{}", i ? ", " : "", map.entries[i].pid);
      }
      out.write("\n");
      out.write(unhandled);
      return;
    }
    case kRecordCpuMap:
      out.write(": ");
      print_cpu_map(out, c, "failed to get cpumap from event");
      out.write(unhandled);
      return;
    case kRecordStatConfig: {
      if (script) return;
      StatConfigEvent config;
      parse_stat_config(r, order, config);
      int64_t aggr_mode = static_cast<int32_t>(config.aggr_mode.value_or(0));
      int64_t interval = static_cast<uint32_t>(config.interval.value_or(0));
      int64_t scale = config.scale.value_or(0) != 0;
      out.print("\n... aggr_mode {}\n... scale     {}\n... interval  {}\n: unhandled!\n", aggr_mode,
                scale, interval);
      return;
    }
    case kRecordStat: {
      if (script) return;
      StatEvent stat;
      parse_stat(r, order, stat);
      out.print(
          "\n... id {}, cpu {}, thread {}\n... value {}, enabled {}, running {}\n"
          ": unhandled!\n",
          stat.id, stat.cpu, static_cast<int32_t>(stat.thread), stat.val, stat.ena, stat.run);
      return;
    }
    case kRecordStatRound: {
      if (script) return;
      StatRoundEvent round;
      parse_stat_round(r, order, round);
      out.print("\n... time {}, type {}\n: unhandled!\n", round.time,
                round.type == 1 ? "FINAL" : "INTERVAL");
      return;
    }
    case kRecordTimeConv:
      print_time_conv(out, r, c);
      out.write(": unhandled!\n");
      return;
    case kRecordAuxtraceError:
      out.write(unhandled);
      return;
    case kRecordFinishedInit:
      out.write(": unhandled!\n");
      return;
    default:
      return;
  }
}

}  // namespace readperf
