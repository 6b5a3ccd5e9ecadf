// Feature sections in the other byte order, walked as perf 6.1's header.c process_* functions
// read them (the inverse of what perf does to a file of the other order).
//
//   std::vector<std::byte> out;
//   swap_feature(kFeatHostname, section, ByteOrder::kNative, features.nr_cpus_avail, out);
#pragma once

#include <cstdint>
#include <vector>

#include "readperf/format/byte_cursor.h"

namespace readperf {

// Appends a feature section (`section`, in `from` order) in the other order. `nr_cpus_avail`
// is NRCPUS's, which CPU_TOPOLOGY's per-CPU arrays need. Sections perf does not swap
// (TRACING_DATA, with its own byte order; BPF_PROG_INFO and BPF_BTF, which perf cannot swap)
// are copied as they are.
void swap_feature(uint32_t feature, Bytes section, ByteOrder from, uint32_t nr_cpus_avail,
                  std::vector<std::byte>& out);

}  // namespace readperf
