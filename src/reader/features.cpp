#include "readperf/reader/features.h"

#include <array>

#include "readperf/format/perf_abi.h"

namespace readperf {

std::string_view feature_name(uint32_t feature) {
  // header.c feat_ops[].name of perf 6.1.
  static constexpr std::array<std::string_view, 32> kNames = {
      "RESERVED",      "TRACING_DATA", "BUILD_ID",     "HOSTNAME",      "OSRELEASE",
      "VERSION",       "ARCH",         "NRCPUS",       "CPUDESC",       "CPUID",
      "TOTAL_MEM",     "CMDLINE",      "EVENT_DESC",   "CPU_TOPOLOGY",  "NUMA_TOPOLOGY",
      "BRANCH_STACK",  "PMU_MAPPINGS", "GROUP_DESC",   "AUXTRACE",      "STAT",
      "CACHE",         "SAMPLE_TIME",  "MEM_TOPOLOGY", "CLOCKID",       "DIR_FORMAT",
      "BPF_PROG_INFO", "BPF_BTF",      "COMPRESSED",   "CPU_PMU_CAPS",  "CLOCK_DATA",
      "HYBRID_TOPOLOGY", "PMU_CAPS"};
  return feature < kNames.size() ? kNames[feature] : std::string_view();
}

Status parse_feature(uint32_t feature, ByteCursor c, Features& out) {
  Bytes all = c.data();
  out.raw[feature].assign(all.begin(), all.end());
  switch (feature) {
    case kFeatCompressed: {
      Features::Compressed z;
      z.version = c.u32();
      z.type = c.u32();
      z.level = c.u32();
      z.ratio = c.u32();
      z.mmap_len = c.u32();
      if (!c.ok()) return tl::unexpected(c.error("COMPRESSED feature"));
      out.compressed = z;
      return {};
    }
    default:
      return {};
  }
}

}  // namespace readperf
