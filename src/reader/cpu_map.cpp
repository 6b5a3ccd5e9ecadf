#include "readperf/reader/cpu_map.h"

#include <fmt/format.h>

namespace readperf {

Result<std::vector<int>> decode_cpu_map(ByteCursor c) {
  std::vector<int> cpus;
  uint16_t type = c.u16();
  switch (type) {
    case 0: {  // PERF_CPU_MAP__CPUS: cpu_map__from_entries(), (u16)-1 is any cpu
      uint16_t nr = c.u16();
      for (uint16_t i = 0; i < nr && c.ok(); ++i) {
        uint16_t cpu = c.u16();
        cpus.push_back(cpu == 0xffff ? -1 : cpu);
      }
      break;
    }
    case 1: {  // PERF_CPU_MAP__MASK: cpu_map__from_mask()
      uint16_t nr = c.u16();
      uint16_t long_size = c.u16();
      // perf_record_cpu_map_data__read_one_mask(): 4 is mask32_data, anything else
      // mask64_data, whose u64 words follow 4 bytes of padding.
      if (long_size != 4) c.skip(4);
      for (uint16_t i = 0; i < nr && c.ok(); ++i) {
        uint64_t word = long_size == 4 ? c.u32() : c.u64();
        if (!c.ok()) break;
        int base = i * long_size * 8;
        for (int bit = 0; bit < 64; ++bit) {
          if (word >> bit & 1) cpus.push_back(base + bit);
        }
      }
      break;
    }
    case 2: {  // PERF_CPU_MAP__RANGE_CPUS: cpu_map__from_range()
      uint8_t any_cpu = c.u8();
      c.u8();
      uint16_t start = c.u16();
      uint16_t end = c.u16();
      if (!c.ok()) break;
      if (any_cpu) cpus.push_back(-1);
      for (int cpu = start; cpu <= end; ++cpu) cpus.push_back(cpu);
      break;
    }
    default:
      return make_error(fmt::format("cpu map of unknown type {}", type), c.base_offset());
  }
  if (!c.ok()) return tl::unexpected(c.error("cpu map"));
  return cpus;
}

}  // namespace readperf
