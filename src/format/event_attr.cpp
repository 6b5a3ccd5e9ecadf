#include "readperf/format/event_attr.h"

#include <fmt/format.h>

namespace readperf {

Result<EventAttr> parse_event_attr(ByteCursor& outer, size_t available) {
  uint64_t start = outer.file_offset();
  if (available < kAttrSizeVer0) {
    return make_error(fmt::format("perf_event_attr of {} bytes is smaller than the first "
                                  "version's 64", available),
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
  // Later fields exist only when the attr is large enough to hold them.
  auto has = [&](size_t bytes) { return c.remaining() >= bytes; };
  if (has(8)) a.config2 = c.u64();
  if (has(8)) a.branch_sample_type = c.u64();
  if (has(16)) {
    a.sample_regs_user = c.u64();
    a.sample_stack_user = c.u32();
    a.clockid = c.s32();
  }
  if (has(8)) a.sample_regs_intr = c.u64();
  if (has(8)) {
    a.aux_watermark = c.u32();
    a.sample_max_stack = c.u16();
    a.reserved_2 = c.u16();
  }
  if (has(8)) {
    a.aux_sample_size = c.u32();
    a.reserved_3 = c.u32();
  }
  if (has(8)) a.sig_data = c.u64();
  if (has(8)) a.config3 = c.u64();
  if (has(8)) a.config4 = c.u64();
  return a;
}

}  // namespace readperf
