// Feature sections in the other byte order, each walked as perf 6.1's process_* function in
// util/header.c reads it (and the reader's features_*.cpp mirrors): u32 and u64 fields
// swapped, strings (do_write_string: a u32 length, then the bytes) kept.
#include "readperf/reader/feature_swap.h"

#include "readperf/format/perf_abi.h"
#include "readperf/format/transcoder.h"
#include "readperf/reader/record_swap.h"

namespace readperf {

namespace {

void strings(Transcoder& t) {
  uint32_t nr = t.u32();
  for (uint32_t i = 0; i < nr && t.ok(); ++i) t.string();
}

// read_event_desc(): nr, attr size, then per event the attr, its id count, name and ids.
void event_desc(Transcoder& t) {
  uint32_t nr = t.u32();
  uint32_t sz = t.u32();
  for (uint32_t i = 0; i < nr && t.ok(); ++i) {
    if (t.remaining() < sz) return t.fail();
    size_t end = t.position() + sz;
    swap_attr_fields(t, sz);
    if (t.position() < end) t.raw(end - t.position());
    uint32_t ids = t.u32();
    t.string();
    if (ids > t.remaining() / 8) return t.fail();
    t.u64s(ids);
  }
}

// perf_header__read_build_ids(): records whose header perf swaps, and nothing else (the
// pid and the name are read as they are).
void build_ids(Transcoder& t) {
  while (t.remaining() >= 8 && t.ok()) {
    t.u32();
    t.u16();
    uint16_t size = t.u16();
    if (size < 8 || size - 8u > t.remaining()) return t.fail();
    t.raw(size - 8u);
  }
}

// process_cpu_topology(): sibling cores and threads, then per CPU its core and socket ids,
// then (perf 5.2+) the die lists and per CPU its die id.
void cpu_topology(Transcoder& t, uint32_t nr_cpus) {
  strings(t);
  strings(t);
  if (!t.remaining()) return;
  for (uint32_t i = 0; i < nr_cpus && t.remaining() >= 8; ++i) t.u32(), t.u32();
  if (!t.remaining()) return;
  strings(t);
  for (uint32_t i = 0; i < nr_cpus && t.remaining() >= 4; ++i) t.u32();
}

void numa_topology(Transcoder& t) {
  uint32_t nr = t.u32();
  for (uint32_t i = 0; i < nr && t.ok(); ++i) {
    t.u32();
    t.u64s(2);
    t.string();
  }
}

void pmu_mappings(Transcoder& t) {
  uint32_t nr = t.u32();
  for (uint32_t i = 0; i < nr && t.ok(); ++i) {
    t.u32();
    t.string();
  }
}

void group_desc(Transcoder& t) {
  uint32_t nr = t.u32();
  for (uint32_t i = 0; i < nr && t.ok(); ++i) {
    t.string();
    t.u32(), t.u32();
  }
}

void cache(Transcoder& t) {
  t.u32();  // version
  uint32_t nr = t.u32();
  for (uint32_t i = 0; i < nr && t.ok(); ++i) {
    t.u32(), t.u32(), t.u32(), t.u32();
    t.string(), t.string(), t.string();
  }
}

void mem_topology(Transcoder& t) {
  t.u64s(2);  // version, block_size
  uint64_t nr = t.u64();
  for (uint64_t i = 0; i < nr && t.ok(); ++i) {
    t.u64(), t.u64();
    uint64_t nbits = t.u64();
    uint64_t words = (nbits + 63) / 64;
    if (words > t.remaining() / 8) return t.fail();
    t.u64s(words);
  }
}

void pmu_caps(Transcoder& t, bool named) {
  uint32_t nr_pmus = named ? t.u32() : 1;
  for (uint32_t p = 0; p < nr_pmus && t.ok(); ++p) {
    uint32_t nr = t.u32();
    for (uint32_t i = 0; i < nr && t.ok(); ++i) t.string(), t.string();
    if (named) t.string();
  }
}

}  // namespace

void swap_feature(uint32_t feature, Bytes section, ByteOrder from, uint32_t nr_cpus_avail,
                  std::vector<std::byte>& out) {
  out.reserve(out.size() + section.size());
  Transcoder t(section, from, out);
  switch (feature) {
    case kFeatBuildId:
      build_ids(t);
      break;
    case kFeatHostname:
    case kFeatOsRelease:
    case kFeatVersion:
    case kFeatArch:
    case kFeatCpuDesc:
    case kFeatCpuId:
      t.string();
      break;
    case kFeatNrCpus:
      t.u32(), t.u32();
      break;
    case kFeatTotalMem:
    case kFeatClockid:
    case kFeatDirFormat:
      t.u64();
      break;
    case kFeatCmdline:
      strings(t);
      break;
    case kFeatEventDesc:
      event_desc(t);
      break;
    case kFeatCpuTopology:
      cpu_topology(t, nr_cpus_avail);
      break;
    case kFeatNumaTopology:
      numa_topology(t);
      break;
    case kFeatPmuMappings:
      pmu_mappings(t);
      break;
    case kFeatGroupDesc:
      group_desc(t);
      break;
    case kFeatAuxtrace:
    case kFeatSampleTime:
      t.rest_u64();
      break;
    case kFeatCache:
      cache(t);
      break;
    case kFeatMemTopology:
      mem_topology(t);
      break;
    case kFeatCompressed:
      while (t.remaining() >= 4) t.u32();
      break;
    case kFeatCpuPmuCaps:
      pmu_caps(t, false);
      break;
    case kFeatPmuCaps:
      pmu_caps(t, true);
      break;
    case kFeatClockData:
      t.u32(), t.u32(), t.u64s(2);
      break;
    case kFeatHybridTopology: {
      uint32_t nr = t.u32();
      for (uint32_t i = 0; i < nr && t.ok(); ++i) t.string(), t.string();
      break;
    }
    default:
      // TRACING_DATA (its own byte order), BPF_PROG_INFO and BPF_BTF (perf skips them in a
      // file of the other order), BRANCH_STACK and STAT (empty), features of newer perf.
      break;
  }
  t.rest_raw();
}

}  // namespace readperf
