// perf_event_attr (include/uapi/linux/perf_event.h), decoded from any of its sizes: 64 bytes
// (PERF_ATTR_SIZE_VER0) up to 136 (VER8, perf 6.12) and beyond (perf 7.2 writes 144). Fields
// past the recorded size read as zero, as the kernel's own copy_struct_from_user() does.
//
//   ByteCursor c(bytes, order);
//   Result<EventAttr> attr = parse_event_attr(c, /*available=*/bytes.size());
#pragma once

#include <cstdint>

#include "readperf/format/byte_cursor.h"
#include "readperf/format/error.h"

namespace readperf {

constexpr uint32_t kAttrSizeVer0 = 64;

struct EventAttr {
  uint32_t type = 0;
  uint32_t size = 0;  // as recorded (0 in some old files means VER0)
  uint64_t config = 0;
  uint64_t sample_period = 0;  // or sample_freq when freq
  uint64_t sample_type = 0;
  uint64_t read_format = 0;
  uint64_t flags = 0;  // the bit-field word, bit 0 = disabled (see accessors)
  uint32_t wakeup_events = 0;
  uint32_t bp_type = 0;
  uint64_t config1 = 0;  // bp_addr, kprobe_func, uprobe_path
  uint64_t config2 = 0;  // bp_len, kprobe_addr, probe_offset
  uint64_t branch_sample_type = 0;
  uint64_t sample_regs_user = 0;
  uint32_t sample_stack_user = 0;
  int32_t clockid = 0;
  uint64_t sample_regs_intr = 0;
  uint32_t aux_watermark = 0;
  uint16_t sample_max_stack = 0;
  uint16_t reserved_2 = 0;
  uint32_t aux_sample_size = 0;
  uint32_t reserved_3 = 0;
  uint64_t sig_data = 0;
  uint64_t config3 = 0;  // perf_event.h of Linux 6.3+ (attr size 136)
  uint64_t config4 = 0;  // attr size 144 (perf 7.x)

  bool flag(int bit) const { return (flags >> bit) & 1; }
  bool disabled() const { return flag(0); }
  bool inherit() const { return flag(1); }
  bool exclude_kernel() const { return flag(5); }
  bool freq() const { return flag(10); }
  unsigned precise_ip() const { return (flags >> 15) & 3; }
  bool sample_id_all() const { return flag(18); }
  bool mmap2() const { return flag(23); }
  bool comm_exec() const { return flag(24); }
  bool use_clockid() const { return flag(25); }
  bool build_id() const { return flag(34); }
  // event.c sample_addr_correlates_sym(): a page fault's addr is a data address worth a
  // symbol (PERF_COUNT_SW_PAGE_FAULTS, _MIN, _MAJ).
  bool addr_correlates_sym() const {
    return type == 1 && (config == 2 || config == 5 || config == 6);
  }
};

// Names of the bit-fields in declaration order (bit i is kAttrFlagNames[i]); the
// reserved bits have no name.
inline constexpr const char* kAttrFlagNames[] = {
    "disabled",
    "inherit",
    "pinned",
    "exclusive",
    "exclude_user",
    "exclude_kernel",
    "exclude_hv",
    "exclude_idle",
    "mmap",
    "comm",
    "freq",
    "inherit_stat",
    "enable_on_exec",
    "task",
    "watermark",
    "precise_ip",
    "precise_ip",
    "mmap_data",
    "sample_id_all",
    "exclude_host",
    "exclude_guest",
    "exclude_callchain_kernel",
    "exclude_callchain_user",
    "mmap2",
    "comm_exec",
    "use_clockid",
    "context_switch",
    "write_backward",
    "namespaces",
    "ksymbol",
    "bpf_event",
    "aux_output",
    "cgroup",
    "text_poke",
    "build_id",
    "inherit_thread",
    "remove_on_exec",
    "sigtrap",
};

// Decodes an attr from the next `available` bytes of `c` (the cursor advances by exactly
// `available`). Fails if fewer than 64 bytes are available.
Result<EventAttr> parse_event_attr(ByteCursor& c, size_t available);

}  // namespace readperf
