// The CPUs of a perf_record_cpu_map_data (tools/lib/perf/include/perf/event.h): the body of a
// PERF_RECORD_CPU_MAP, and the payload of an EVENT_UPDATE of type CPUS. Four encodings, as
// util/cpumap.c cpu_map__new_data() reads them:
//
//   u16 type 0 (CPUS):        u16 nr, u16 cpu[nr]                 (0xffff is "any", -1)
//   u16 type 1 (MASK), 32-bit: u16 nr, u16 long_size 4, u32 mask[nr]
//   u16 type 1 (MASK), 64-bit: u16 nr, u16 long_size 8, 4 bytes pad, u64 mask[nr]
//   u16 type 2 (RANGE_CPUS):  u8 any_cpu, u8 pad, u16 start, u16 end   (-1 first if any_cpu)
//
//   Result<std::vector<int>> cpus = decode_cpu_map(record.body(order));
#pragma once

#include <vector>

#include "readperf/format/byte_cursor.h"
#include "readperf/format/error.h"

namespace readperf {

// The CPUs in the record's order (mask bits low to high, word by word); an error naming the
// offset for an unknown type or a body too short for what it declares.
Result<std::vector<int>> decode_cpu_map(ByteCursor c);

}  // namespace readperf
