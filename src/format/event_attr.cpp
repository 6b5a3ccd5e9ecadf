#include "readperf/format/event_attr.h"

#include <fmt/format.h>

namespace readperf {

Result<EventAttr> parse_event_attr(ByteCursor& outer, size_t available) {
  uint64_t start = outer.file_offset();
  if (available < kAttrSizeVer0) {
    return make_error(fmt::format("perf_event_attr of {} bytes is smaller than the first "
                                  "version's 64",
                                  available),
                      start);
  }
  ByteCursor c = outer.sub(available);
  if (!outer.ok()) return make_error("truncated perf_event_attr", start);

  EventAttr a;
  a.type = c.u32();
  a.size = c.u32();
  a.config = c.u64();
  a.sample_period = c.u64();
  a.sample_type = c.u64();
  a.read_format = c.u64();
  a.flags = c.bitfield64();
  a.wakeup_events = c.u32();
  a.bp_type = c.u32();
  a.config1 = c.u64();
  // Later fields exist only when the attr reaches them; each is checked against its own end
  // offset, as perf's read of `size` bytes into a zeroed struct keeps every field it covers.
  auto has = [&](size_t end) { return available >= end; };
  // perf_event__attr_swap() (session.c) leaves clockid, sample_regs_intr, the reserved words,
  // sig_data and config3 of a file of the other byte order as they are: read them so.
  auto raw32 = [&] {
    uint32_t v = c.u32();
    return c.swapped() ? bswap(v) : v;
  };
  auto raw64 = [&] {
    uint64_t v = c.u64();
    return c.swapped() ? bswap(v) : v;
  };
  auto raw16 = [&] {
    uint16_t v = c.u16();
    return c.swapped() ? bswap(v) : v;
  };
  if (has(72)) a.config2 = c.u64();
  if (has(80)) a.branch_sample_type = c.u64();
  if (has(88)) a.sample_regs_user = c.u64();
  if (has(92)) a.sample_stack_user = c.u32();
  if (has(96)) a.clockid = static_cast<int32_t>(raw32());
  if (has(104)) a.sample_regs_intr = raw64();
  if (has(108)) a.aux_watermark = c.u32();
  if (has(110)) a.sample_max_stack = c.u16();
  if (has(112)) a.reserved_2 = raw16();
  if (has(116)) a.aux_sample_size = c.u32();
  if (has(120)) a.reserved_3 = raw32();
  if (has(128)) a.sig_data = raw64();
  if (has(136)) a.config3 = raw64();
  if (has(144)) a.config4 = raw64();
  return a;
}

}  // namespace readperf
