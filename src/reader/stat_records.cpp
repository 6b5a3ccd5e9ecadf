#include "readperf/reader/stat_records.h"

namespace readperf {

bool parse_thread_map(const RecordView& r, ByteOrder order, ThreadMapEvent& out) {
  ByteCursor c = r.body(order);
  out.nr = c.u64();
  out.entries.clear();
  for (uint64_t i = 0; i < out.nr && c.remaining() >= 24; ++i) {
    ThreadMapEvent::Entry e;
    e.pid = static_cast<int32_t>(c.u64());
    e.comm = c.fixed_string(16);
    out.entries.push_back(e);
  }
  return c.ok();
}

bool parse_stat_config(const RecordView& r, ByteOrder order, StatConfigEvent& out) {
  ByteCursor c = r.body(order);
  out = StatConfigEvent{};
  uint64_t nr = c.u64();
  for (uint64_t i = 0; i < nr && c.remaining() >= 16; ++i) {
    uint64_t tag = c.u64();
    uint64_t val = c.u64();
    if (tag == 0) out.aggr_mode = val;
    if (tag == 1) out.interval = val;
    if (tag == 2) out.scale = val;
  }
  return c.ok();
}

bool parse_stat(const RecordView& r, ByteOrder order, StatEvent& out) {
  ByteCursor c = r.body(order);
  out.id = c.u64();
  out.cpu = c.s32();
  out.thread = c.u32();
  out.val = c.u64();
  out.ena = c.u64();
  out.run = c.u64();
  return c.ok();
}

bool parse_stat_round(const RecordView& r, ByteOrder order, StatRoundEvent& out) {
  ByteCursor c = r.body(order);
  out.type = c.u64();
  out.time = c.u64();
  return c.ok();
}

}  // namespace readperf
