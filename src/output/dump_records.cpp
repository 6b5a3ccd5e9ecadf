// The description perf's report tool prints after "PERF_RECORD_<NAME>" for kernel records:
// util/event.c perf_event__fprintf_*, the machine.c handlers that print them, and session.c
// dump_read. Records that also change the Machine are printed from here but applied by the
// dump printer.
#include <algorithm>

#include "dump_internal.h"
#include "readperf/format/perf_abi.h"
#include "readperf/reader/event_name.h"

namespace readperf {

namespace {

void print_namespaces(OutBuffer& out, ByteCursor c) {
  static constexpr const char* kNames[] = {"net", "uts", "ipc", "pid", "user", "mnt", "cgroup"};
  int32_t pid = c.s32();
  int32_t tid = c.s32();
  uint64_t nr = c.u64();
  out.print(" {}/{} - nr_namespaces: {}\n\t\t[", pid, tid, static_cast<uint32_t>(nr));
  // perf (event.c perf_event__fprintf_namespaces) trusts nr_namespaces and reads past the
  // record when it lies; a 24-byte record claiming 24 million entries would have us print
  // 500 MB of zeros. Only the entries the record holds are printed.
  const uint32_t n = static_cast<uint32_t>(std::min<uint64_t>(nr & 0xffffffff, c.remaining() / 16));
  for (uint32_t i = 0; i < n; ++i) {
    if (i && i % 4 == 0) out.write("\n\t\t ");
    uint64_t dev = c.u64();
    uint64_t ino = c.u64();
    out.print("{}/{}: {}/{}{}", i, i < std::size(kNames) ? kNames[i] : "UNKNOWN", dev, AltHex{ino},
              i + 1 != n ? ", " : "]\n");
  }
  if (n == 0 && static_cast<uint32_t>(nr) != 0) out.write("]\n");
}

void print_text_poke_bytes(OutBuffer& out, const unsigned char* p, size_t len, bool old) {
  // event.c text_poke_printer() through binary__fprintf(), 16 bytes a line.
  for (size_t i = 0; i < len; ++i) {
    if (i % 16 == 0) out.print("            {} bytes:", old ? "Old" : "New");
    out.print(" {:02x}", p[i]);
    if (i % 16 == 15 || i == len - 1) out.put('\n');
  }
}

}  // namespace

void print_mmap(OutBuffer& out, const MmapEvent& e) {
  if (!e.is_mmap2) {
    out.print(" {}/{}: [{}({}) @ {}]: {} {}\n", e.pid, e.tid, AltHex{e.start}, AltHex{e.len},
              AltHex{e.pgoff}, (e.misc & kMiscMmapData) ? 'r' : 'x', e.filename);
    return;
  }
  char prot[5] = {(e.prot & kProtRead) ? 'r' : '-', (e.prot & kProtWrite) ? 'w' : '-',
                  (e.prot & kProtExec) ? 'x' : '-', (e.flags & kMapShared) ? 's' : 'p', 0};
  if (e.has_build_id) {
    std::string id;
    for (std::byte b : e.build_id) fmt::format_to(std::back_inserter(id), "{:02x}", uint8_t(b));
    out.print(" {}/{}: [{}({}) @ {} <{}>]: {} {}\n", e.pid, e.tid, AltHex{e.start}, AltHex{e.len},
              AltHex{e.pgoff}, id, prot, e.filename);
  } else {
    out.print(" {}/{}: [{}({}) @ {} {:02x}:{:02x} {} {}]: {} {}\n", e.pid, e.tid, AltHex{e.start},
              AltHex{e.len}, AltHex{e.pgoff}, e.maj, e.min, e.ino, e.ino_generation, prot,
              e.filename);
  }
}

void print_comm(OutBuffer& out, const CommEvent& e) {
  out.print("{}: {}:{}/{}\n", e.exec ? " exec" : "", e.comm, e.pid, e.tid);
}

void print_task(OutBuffer& out, const TaskEvent& e) {
  out.print("({}:{}):({}:{})\n", e.pid, e.tid, e.ppid, e.ptid);
}

void print_ksymbol(OutBuffer& out, const KsymbolEvent& e) {
  out.print(" addr {:x} len {} type {} flags 0x{:x} name {}\n", e.addr, e.len, e.ksym_type, e.flags,
            e.name);
}

bool print_kernel_record(OutBuffer& out, const RecordView& r, ByteOrder order, const Sample& s,
                         const Evsel* evsel, DumpTool tool) {
  const bool script = tool == DumpTool::kScript;
  ByteCursor c = r.body(order);
  switch (r.type) {
    case kRecordNamespaces:
      print_namespaces(out, c);
      return true;
    case kRecordCgroup: {
      uint64_t id = c.u64();
      out.print(" cgroup: {} {}\n", id, c.cstring());
      return true;
    }
    case kRecordLost: {
      // machine.c machine__process_lost_event(); the script tool has no lost handler
      // (but with --show-lost-events).
      if (script) {
        out.write(": unhandled!\n");
        return true;
      }
      uint64_t id = c.u64();
      uint64_t lost = c.u64();
      out.print(": id:{}: lost:{}\n", id, lost);
      return true;
    }
    case kRecordLostSamples:
      out.print(": id:{}: lost samples :{}\n", s.id, c.u64());
      return true;
    case kRecordRead: {
      // session.c dump_read().
      int32_t pid = c.s32();
      int32_t tid = c.s32();
      uint64_t value = c.u64();
      out.print(": {} {} {} {}\n", pid, tid, evsel ? event_name(*evsel) : "", value);
      if (!evsel) return true;
      uint64_t rf = evsel->attr.read_format;
      uint64_t enabled = (rf & kFormatTotalTimeEnabled) ? c.u64() : 0;
      uint64_t running = (rf & kFormatTotalTimeRunning) ? c.u64() : 0;
      uint64_t id = (rf & kFormatId) ? c.u64() : 0;
      uint64_t lost = (rf & kFormatLost) ? c.u64() : 0;
      if (rf & kFormatTotalTimeEnabled) out.print("... time enabled : {}\n", enabled);
      if (rf & kFormatTotalTimeRunning) out.print("... time running : {}\n", running);
      if (rf & kFormatId) out.print("... id           : {}\n", id);
      if (rf & kFormatLost) out.print("... lost         : {}\n", lost);
      // The script tool has no read handler: session.c process_event_sample_stub().
      if (script) out.write(": unhandled!\n");
      return true;
    }
    case kRecordThrottle:
    case kRecordUnthrottle:
      // The report tool has no handler: session.c process_event_stub(); the script tool's
      // (process_throttle_event()) prints nothing, not even the line's end.
      if (!script) out.write(": unhandled!\n");
      return true;
    case kRecordAux: {
      uint64_t offset = c.u64();
      uint64_t size = c.u64();
      uint64_t flags = c.u64();
      out.print(" offset: {} size: {} flags: {} [{}{}{}]\n", AltHex{offset}, AltHex{size},
                AltHex{flags}, (flags & 1) ? "T" : "", (flags & 2) ? "O" : "",
                (flags & 4) ? "P" : "");
      return true;
    }
    case kRecordItraceStart: {
      uint32_t pid = c.u32();
      uint32_t tid = c.u32();
      out.print(" pid: {} tid: {}\n", pid, tid);
      return true;
    }
    case kRecordAuxOutputHwId:
      out.print(" hw_id: {}\n", AltHex{c.u64()});
      return true;
    case kRecordSwitch:
    case kRecordSwitchCpuWide: {
      bool is_out = r.misc & kMiscSwitchOut;
      const char* in_out = !is_out                             ? "IN         "
                           : !(r.misc & kMiscSwitchOutPreempt) ? "OUT        "
                                                               : "OUT preempt";
      if (r.type == kRecordSwitch) {
        out.print(" {}\n", in_out);
      } else {
        int32_t pid = c.s32();
        int32_t tid = c.s32();
        out.print(" {}  {} pid/tid: {:5d}/{:<5d}\n", in_out, is_out ? "next" : "prev", pid, tid);
      }
      return true;
    }
    case kRecordBpfEvent: {
      uint16_t type = c.u16();
      uint16_t flags = c.u16();
      uint32_t id = c.u32();
      out.print(" type {}, flags {}, id {}\n", type, flags, id);
      return true;
    }
    case kRecordTextPoke: {
      // event.c perf_event__fprintf_text_poke(), without the symbol perf finds when it has
      // the kernel's symbols loaded.
      uint64_t addr = c.u64();
      uint16_t old_len = c.u16();
      uint16_t new_len = c.u16();
      out.print(" {:x}  old len {} new len {}\n", addr, old_len, new_len);
      Bytes bytes = c.bytes(std::min<size_t>(c.remaining(), size_t{old_len} + new_len));
      const auto* p = reinterpret_cast<const unsigned char*>(bytes.data());
      size_t o = std::min<size_t>(old_len, bytes.size());
      print_text_poke_bytes(out, p, o, true);
      print_text_poke_bytes(out, p + o, bytes.size() - o, false);
      return true;
    }
    default:
      return false;
  }
}

}  // namespace readperf
