#include "readperf/session/events.h"

#include <algorithm>

#include "readperf/format/perf_abi.h"

namespace readperf {

bool parse_mmap(const RecordView& r, ByteOrder order, MmapEvent& out) {
  ByteCursor c = r.body(order);
  out = MmapEvent{};
  out.is_mmap2 = r.type == kRecordMmap2;
  out.misc = r.misc;
  out.pid = c.s32();
  out.tid = c.s32();
  out.start = c.u64();
  out.len = c.u64();
  out.pgoff = c.u64();
  if (out.is_mmap2) {
    if (r.misc & kMiscMmapBuildId) {
      // perf_event.h: u8 build_id_size, u8 and u16 reserved, u8 build_id[20].
      uint8_t size = c.u8();
      c.skip(3);
      Bytes id = c.bytes(20);
      out.has_build_id = true;
      out.build_id = id.first(std::min<size_t>(size, id.size()));
    } else {
      out.maj = c.u32();
      out.min = c.u32();
      out.ino = c.u64();
      out.ino_generation = c.u64();
    }
    // perf_event__mmap2_swap() leaves prot and flags as they are in a file of the other byte
    // order (session.c), so perf reads them unswapped.
    uint32_t prot = c.u32(), flags = c.u32();
    out.prot = c.swapped() ? bswap(prot) : prot;
    out.flags = c.swapped() ? bswap(flags) : flags;
  } else {
    out.prot = (r.misc & kMiscMmapData) ? 0 : kProtExec;
  }
  out.filename = c.cstring();
  return c.ok();
}

bool parse_comm(const RecordView& r, ByteOrder order, CommEvent& out) {
  ByteCursor c = r.body(order);
  out.pid = c.s32();
  out.tid = c.s32();
  out.comm = c.cstring();
  out.exec = r.misc & kMiscCommExec;
  return c.ok();
}

bool parse_task(const RecordView& r, ByteOrder order, TaskEvent& out) {
  ByteCursor c = r.body(order);
  out.pid = c.s32();
  out.ppid = c.s32();
  out.tid = c.s32();
  out.ptid = c.s32();
  out.time = c.u64();
  out.misc = r.misc;
  return c.ok();
}

bool parse_ksymbol(const RecordView& r, ByteOrder /*order*/, KsymbolEvent& out) {
  // perf 6.1 has no swap op for KSYMBOL (session.c perf_event__swap_ops): its body is read
  // as it is whatever the file's byte order.
  ByteCursor c = r.body(ByteOrder::kNative);
  out.addr = c.u64();
  out.len = c.u32();
  out.ksym_type = c.u16();
  out.flags = c.u16();
  out.name = c.cstring();
  return c.ok();
}

bool parse_build_id(ByteCursor& c, BuildIdEvent& out) {
  size_t begin = c.position();
  c.u32();  // type
  out.misc = c.u16();
  uint16_t size = c.u16();
  if (!c.ok() || size < 8 + 4 + 24 || size_t{size} - 8 > c.remaining()) {
    c.fail();
    return false;
  }
  out.pid = c.s32();
  Bytes id = c.bytes(24);
  // util/build-id.h: with PERF_RECORD_MISC_BUILD_ID_SIZE (1 << 15) the size is in byte 20.
  size_t id_size =
      (out.misc & (1u << 15)) ? std::min<size_t>(static_cast<uint8_t>(id[20]), 20) : 20;
  out.build_id = id.first(id_size);
  ByteCursor name = c.sub(begin + size - c.position());
  out.filename = name.cstring();
  return c.ok();
}

}  // namespace readperf
