// The start of each `script` line (builtin-script.c perf_sample__fprintf_start), the text of
// the side-band records --show-*-events prints (event.c perf_event__fprintf), and the branch
// flags column (perf_sample__fprintf_flags).
#include <algorithm>

#include "dump_internal.h"
#include "readperf/format/perf_abi.h"
#include "readperf/session/events.h"
#include "script_fields.h"
#include "script_internal.h"

namespace readperf {

using namespace script;  // NOLINT: the field names

void ScriptLineStart::print(OutBuffer& out, const Sample& s, std::string_view comm, uint64_t f,
                            bool comm_unpadded, uint32_t record_type) {
  if (f & kComm) {
    if (cfg_.latency_format) {
      std::string_view cut = comm.substr(0, 8);  // "%8.8s " (bytes)
      for (size_t i = cut.size(); i < 8; ++i) out.put(' ');
      out.write(cut);
    } else if (comm_unpadded) {
      out.write(comm);  // "%s "
    } else {
      out.padded(comm, 16);  // "%16s "
    }
    out.put(' ');
  }
  if ((f & kPid) && (f & kTid)) {
    out.dec(s.pid, 5);  // "%5d/%-5d "
    out.put('/');
    out.dec(s.tid, 5, /*left=*/true);
    out.put(' ');
  } else if (f & kPid) {
    out.dec(s.pid, 5);  // "%5d "
    out.put(' ');
  } else if (f & kTid) {
    out.dec(s.tid, 5);  // "%5d "
    out.put(' ');
  }
  if (f & kCpu) {
    int32_t cpu = static_cast<int32_t>(s.cpu);
    if (cfg_.latency_format) {
      out.dec(cpu, 3);  // "%3d "
      out.put(' ');
    } else if (cpu >= 0) {
      out.put('[');  // "[%03d] "
      out.dec0(static_cast<uint64_t>(cpu), 3);
      out.write("] ");
    } else {
      out.print("[{:03}] ", cpu);
    }
  }
  if (f & kMisc) {
    int n = 0;
    auto flag = [&](char c) {
      out.put(c);
      ++n;
    };
    // perf's has(m) tests the bits of m in misc, so a GUEST_USER (5) sample also shows
    // as KERNEL (1) and GUEST_KERNEL (4).
    auto has = [&](uint16_t m) { return (s.misc & m) == m; };
    if (has(kMiscKernel)) flag('K');
    if (has(kMiscUser)) flag('U');
    if (has(kMiscHypervisor)) flag('H');
    if (has(kMiscGuestKernel)) flag('G');
    if (has(kMiscGuestUser)) flag('g');
    switch (record_type) {
      case kRecordMmap:
      case kRecordMmap2:
        if (has(kMiscMmapData)) flag('M');
        break;
      case kRecordComm:
        if (has(kMiscCommExec)) flag('E');
        break;
      case kRecordSwitch:
      case kRecordSwitchCpuWide:
        if (has(kMiscSwitchOut)) {
          flag('S');
          if (s.misc & kMiscSwitchOutPreempt) flag('p');
        }
        break;
      default:
        break;
    }
    out.print("{:>{}}", " ", std::max(6 - n, 1));  // "%*s" with 6 - n
  }
  if (f & kTod) out.write(filters_.tod(s.time));
  if (f & kTime) {
    uint64_t t = s.time;
    if (cfg_.reltime) {
      if (!initial_time_) initial_time_ = s.time;
      t = s.time - initial_time_;
    } else if (cfg_.deltatime) {
      t = previous_time_ ? s.time - previous_time_ : 0;
      previous_time_ = s.time;
    }
    uint64_t secs = t / 1000000000ull;
    uint64_t nsecs = t - secs * 1000000000ull;
    if (cfg_.nanosecs) {
      out.dec(secs, 5);  // "%5lu.%09llu: "
      out.put('.');
      out.dec0(nsecs, 9);
      out.write(": ");
    } else {
      // time-utils.c timestamp__scnprintf_usec() in "%12s": "{}.{:06}" right-aligned.
      uint64_t usecs = nsecs / 1000;
      size_t digits = 1;
      for (uint64_t v = secs; v >= 10; v /= 10) ++digits;
      out.pad(' ', digits + 7, 12);
      out.dec(secs);
      out.put('.');
      size_t usec_digits = 1;
      for (uint64_t v = usecs; v >= 10; v /= 10) ++usec_digits;
      out.pad('0', usec_digits, 6);
      out.dec(usecs);
      out.write(": ");
    }
  }
}

void print_record_text(OutBuffer& out, const RecordView& r, ByteOrder order, const Sample& s) {
  out.write("PERF_RECORD_");
  out.write(perf_event_name(r.type));
  switch (r.type) {
    case kRecordMmap:
    case kRecordMmap2: {
      MmapEvent e;
      if (parse_mmap(r, order, e)) print_mmap(out, e);
      return;
    }
    case kRecordComm: {
      CommEvent e;
      if (parse_comm(r, order, e)) print_comm(out, e);
      return;
    }
    case kRecordFork:
    case kRecordExit: {
      TaskEvent e;
      if (parse_task(r, order, e)) print_task(out, e);
      return;
    }
    case kRecordKsymbol: {
      KsymbolEvent e;
      if (parse_ksymbol(r, order, e)) print_ksymbol(out, e);
      return;
    }
    case kRecordLost: {
      ByteCursor c = r.body(order);
      c.u64();                           // id
      out.print(" lost {}\n", c.u64());  // perf_event__fprintf_lost()
      return;
    }
    case kRecordNamespaces:
    case kRecordCgroup:
    case kRecordAux:
    case kRecordItraceStart:
    case kRecordSwitch:
    case kRecordSwitchCpuWide:
    case kRecordBpfEvent:
    case kRecordTextPoke:
    case kRecordAuxOutputHwId:
      print_kernel_record(out, r, order, s, nullptr, DumpTool::kScript);
      return;
    default:
      out.put('\n');
      return;
  }
}

void print_sample_flags(OutBuffer& out, uint32_t flags) {
  // event.h PERF_IP_FLAG_* and builtin-script.c sample_flags[] / perf_sample__sprintf_flags().
  constexpr uint32_t kBranch = 1, kCall = 2, kReturn = 4, kConditional = 8, kSyscallRet = 16,
                     kAsync = 32, kInterrupt = 64, kTxAbort = 128, kTraceBegin = 256,
                     kTraceEnd = 512, kInTx = 1024, kVmEntry = 2048, kVmExit = 4096,
                     kIntrDisable = 8192, kIntrToggle = 16384;
  struct Name {
    uint32_t flags;
    const char* name;
  };
  static constexpr Name kNames[] = {
      {kBranch | kCall, "call"},
      {kBranch | kReturn, "return"},
      {kBranch | kConditional, "jcc"},
      {kBranch, "jmp"},
      {kBranch | kCall | kInterrupt, "int"},
      {kBranch | kReturn | kInterrupt, "iret"},
      {kBranch | kCall | kSyscallRet, "syscall"},
      {kBranch | kReturn | kSyscallRet, "sysret"},
      {kBranch | kAsync, "async"},
      {kBranch | kCall | kAsync | kInterrupt, "hw int"},
      {kBranch | kTxAbort, "tx abrt"},
      {kBranch | kTraceBegin, "tr strt"},
      {kBranch | kTraceEnd, "tr end"},
      {kBranch | kCall | kVmEntry, "vmentry"},
      {kBranch | kCall | kVmExit, "vmexit"},
  };
  auto name_of = [](uint32_t f) -> const char* {
    for (const Name& n : kNames)
      if (n.flags == f) return n.name;
    return nullptr;
  };
  constexpr uint32_t kExtra = kInTx | kIntrDisable | kIntrToggle;
  std::string xs;
  if (flags & kExtra) {
    xs = fmt::format("({}{}{})", (flags & kInTx) ? "x" : "", (flags & kIntrDisable) ? "D" : "",
                     (flags & kIntrToggle) ? "t" : "");
  }
  std::string str;
  if (const char* n = name_of(flags & ~kExtra)) {
    str = fmt::format("{:<15}{:>6}", n, xs);
  } else if (const char* b =
                 (flags & kTraceBegin) ? name_of(flags & ~(kExtra | kTraceBegin)) : nullptr) {
    str = fmt::format("tr strt {:<7}{:>6}", b, xs);
  } else if (const char* e =
                 (flags & kTraceEnd) ? name_of(flags & ~(kExtra | kTraceEnd)) : nullptr) {
    str = fmt::format("tr end  {:<7}{:>6}", e, xs);
  } else {
    static constexpr char kChars[] = "bcrosyiABExghDt";
    for (size_t i = 0; i < 32; ++i) {
      if (flags & (1u << i)) str += i < sizeof(kChars) - 1 ? kChars[i] : '?';
    }
  }
  out.print("  {:<21} ", str);
}

}  // namespace readperf
