#include "readperf/reader/features.h"

#include <fmt/format.h>

#include <array>
#include <cstdlib>

#include "feature_parsers.h"
#include "readperf/format/perf_abi.h"

namespace readperf {

namespace feature_detail {

std::optional<std::string> read_string(ByteCursor& c) {
  uint32_t len = c.u32();
  Bytes b = c.bytes(len);
  if (!c.ok()) return std::nullopt;
  std::string_view s = as_string_view(b);
  return std::string(s.substr(0, s.find('\0')));
}

Error truncated(const ByteCursor& c, uint32_t feature) {
  return Error(fmt::format("truncated {} feature", feature_name(feature)), c.file_offset());
}

Error invalid(const ByteCursor& c, uint32_t feature, std::string_view what) {
  return Error(fmt::format("{} feature: {}", feature_name(feature), what), c.file_offset());
}

}  // namespace feature_detail

using namespace feature_detail;

std::string_view feature_name(uint32_t feature) {
  // header.c feat_ops[].name of perf 6.1.
  static constexpr std::array<std::string_view, 32> kNames = {
      "RESERVED",        "TRACING_DATA", "BUILD_ID",     "HOSTNAME",     "OSRELEASE",
      "VERSION",         "ARCH",         "NRCPUS",       "CPUDESC",      "CPUID",
      "TOTAL_MEM",       "CMDLINE",      "EVENT_DESC",   "CPU_TOPOLOGY", "NUMA_TOPOLOGY",
      "BRANCH_STACK",    "PMU_MAPPINGS", "GROUP_DESC",   "AUXTRACE",     "STAT",
      "CACHE",           "SAMPLE_TIME",  "MEM_TOPOLOGY", "CLOCKID",      "DIR_FORMAT",
      "BPF_PROG_INFO",   "BPF_BTF",      "COMPRESSED",   "CPU_PMU_CAPS", "CLOCK_DATA",
      "HYBRID_TOPOLOGY", "PMU_CAPS"};
  return feature < kNames.size() ? kNames[feature] : std::string_view();
}

uint32_t pmu_max_branches(const Features& f) {
  uint32_t max = 0;
  if (f.cpu_pmu_caps) {
    for (const auto& [name, value] : f.cpu_pmu_caps->caps) {
      if (name == "branches") max = static_cast<uint32_t>(std::atoi(value.c_str()));
    }
  }
  return max;
}

bool perf_stops_on_error(uint32_t feature) {
  switch (feature) {
    case kFeatBuildId:    // process_build_id() only logs a failure
    case kFeatEventDesc:  // process_event_desc() returns 0 when read_event_desc() fails
    case kFeatBranchStack:
    case kFeatStat:  // no process function at all
      return false;
    default:
      return feature > kFeatReserved && feature < kFeatLastFeature6_1;
  }
}

Status parse_feature(uint32_t feature, ByteCursor c, const FeatureContext& ctx, Features& out) {
  Bytes all = c.data();
  out.raw[feature].assign(all.begin(), all.end());
  switch (feature) {
    case kFeatBuildId:
      return parse_build_ids(c, out);
    case kFeatHostname:
      return parse_string(feature, c, out.hostname);
    case kFeatOsRelease:
      return parse_string(feature, c, out.os_release);
    case kFeatVersion:
      return parse_string(feature, c, out.version);
    case kFeatArch:
      return parse_string(feature, c, out.arch);
    case kFeatNrCpus:
      return parse_nrcpus(c, out);
    case kFeatCpuDesc:
      return parse_string(feature, c, out.cpudesc);
    case kFeatCpuId:
      return parse_string(feature, c, out.cpuid);
    case kFeatTotalMem:
      return parse_total_mem(c, out);
    case kFeatCmdline:
      return parse_cmdline(c, out);
    case kFeatEventDesc: {
      // header.c process_event_desc(): keeps nothing when the section cannot be read.
      auto desc = parse_event_desc(c);
      if (!desc) {
        out.event_desc.reset();
        return tl::unexpected(desc.error());
      }
      out.event_desc = std::move(*desc);
      return {};
    }
    case kFeatCpuTopology:
      return parse_cpu_topology(c, out);
    case kFeatNumaTopology:
      return parse_numa_topology(c, out);
    case kFeatPmuMappings:
      return parse_pmu_mappings(c, out);
    case kFeatGroupDesc:
      return parse_group_desc(c, ctx, out);
    case kFeatAuxtrace:
      return parse_auxtrace(c, out);
    case kFeatCache:
      return parse_cache(c, out);
    case kFeatSampleTime:
      return parse_sample_time(c, out);
    case kFeatMemTopology:
      return parse_mem_topology(c, out);
    case kFeatClockid:
      return parse_clockid(c, out);
    case kFeatDirFormat:
      return parse_dir_format(c, ctx, out);
    case kFeatBpfProgInfo:
      return parse_bpf_prog_info(c, ctx, out);
    case kFeatBpfBtf:
      return parse_bpf_btf(c, ctx, out);
    case kFeatCompressed:
      return parse_compressed(c, out);
    case kFeatCpuPmuCaps:
      return parse_cpu_pmu_caps(c, out);
    case kFeatClockData:
      return parse_clock_data(c, out);
    case kFeatHybridTopology:
      return parse_hybrid_topology(c, out);
    case kFeatPmuCaps:
      return parse_pmu_caps(c, out);
    default:
      // TRACING_DATA (kept as bytes), BRANCH_STACK and STAT (flags without data), and the
      // features of newer perf versions.
      return {};
  }
}

}  // namespace readperf
