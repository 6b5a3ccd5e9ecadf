// Features made of strings, numbers and small records: each mirrors the process_* function of
// perf 6.1's util/header.c named beside it, field for field.
#include <fmt/format.h>

#include "feature_parsers.h"
#include "readperf/format/perf_abi.h"

namespace readperf::feature_detail {

// FEAT_PROCESS_STR_FUN: the string, or none (perf's NULL) when it cannot be read.
Status parse_string(uint32_t feature, ByteCursor& c, std::optional<std::string>& out) {
  out = read_string(c);
  if (!out) return tl::unexpected(truncated(c, feature));
  return {};
}

// process_nrcpus(): both counts are stored only once both are read.
Status parse_nrcpus(ByteCursor& c, Features& out) {
  uint32_t avail = c.u32();
  uint32_t online = c.u32();
  if (!c.ok()) return tl::unexpected(truncated(c, kFeatNrCpus));
  out.nr_cpus_avail = avail;
  out.nr_cpus_online = online;
  return {};
}

Status parse_total_mem(ByteCursor& c, Features& out) {
  uint64_t mem = c.u64();
  if (!c.ok()) return tl::unexpected(truncated(c, kFeatTotalMem));
  out.total_mem = mem;
  return {};
}

// process_cmdline(): a u32 count, then the arguments.
Status parse_cmdline(ByteCursor& c, Features& out) {
  uint32_t nr = c.u32();
  if (!c.ok()) return tl::unexpected(truncated(c, kFeatCmdline));
  std::vector<std::string> args;
  for (uint32_t i = 0; i < nr; ++i) {
    auto s = read_string(c);
    if (!s) {
      out.cmdline.reset();
      return tl::unexpected(truncated(c, kFeatCmdline));
    }
    args.push_back(std::move(*s));
  }
  out.cmdline = std::move(args);
  return {};
}

// process_pmu_mappings(): a u32 count, then (u32 type, string name) pairs. A count of 0 is
// "not available", which perf keeps as no mappings.
Status parse_pmu_mappings(ByteCursor& c, Features& out) {
  uint32_t nr = c.u32();
  if (!c.ok()) return tl::unexpected(truncated(c, kFeatPmuMappings));
  std::vector<PmuMapping> maps;
  for (uint32_t i = 0; i < nr; ++i) {
    PmuMapping m;
    m.type = c.u32();
    auto name = read_string(c);
    if (!name) {
      out.pmu_mappings.reset();
      return tl::unexpected(truncated(c, kFeatPmuMappings));
    }
    m.name = std::move(*name);
    maps.push_back(std::move(m));
  }
  out.pmu_mappings = std::move(maps);
  return {};
}

Status parse_sample_time(ByteCursor& c, Features& out) {
  uint64_t first = c.u64();
  uint64_t last = c.u64();
  if (!c.ok()) return tl::unexpected(truncated(c, kFeatSampleTime));
  out.sample_time = {first, last};
  return {};
}

Status parse_clockid(ByteCursor& c, Features& out) {
  uint64_t res = c.u64();
  if (!c.ok()) return tl::unexpected(truncated(c, kFeatClockid));
  out.clockid_res_ns = res;
  return {};
}

// process_clock_data(): version 1 only; the reference times count only when all are read
// (perf's env.clock.enabled).
Status parse_clock_data(ByteCursor& c, Features& out) {
  ClockData d;
  d.version = c.u32();
  if (c.ok() && d.version != 1) {
    return tl::unexpected(invalid(c, kFeatClockData, fmt::format("version {}", d.version)));
  }
  d.clockid = c.u32();
  d.tod_ns = c.u64();
  d.clockid_ns = c.u64();
  if (!c.ok()) return tl::unexpected(truncated(c, kFeatClockData));
  out.clock_data = d;
  return {};
}

// process_dir_format(): only a directory has a data version; perf refuses the feature in a
// single file.
Status parse_dir_format(ByteCursor& c, const FeatureContext& ctx, Features& out) {
  if (!ctx.is_directory) {
    return tl::unexpected(invalid(c, kFeatDirFormat, "in a recording that is not a directory"));
  }
  uint64_t v = c.u64();
  if (!c.ok()) return tl::unexpected(truncated(c, kFeatDirFormat));
  out.dir_format = v;
  return {};
}

// process_compressed(): five u32s, each stored as it is read.
Status parse_compressed(ByteCursor& c, Features& out) {
  Features::Compressed z = out.compressed.value_or(Features::Compressed{});
  uint32_t* fields[] = {&z.version, &z.type, &z.level, &z.ratio, &z.mmap_len};
  for (uint32_t* f : fields) {
    uint32_t v = c.u32();
    if (!c.ok()) break;
    *f = v;
  }
  out.compressed = z;
  if (!c.ok()) return tl::unexpected(truncated(c, kFeatCompressed));
  return {};
}

namespace {
// __process_pmu_caps(): a u32 count, then (name, value) string pairs.
Status read_caps(ByteCursor& c, uint32_t feature, PmuCaps& out) {
  uint32_t nr = c.u32();
  if (!c.ok()) return tl::unexpected(truncated(c, feature));
  for (uint32_t i = 0; i < nr; ++i) {
    auto name = read_string(c);
    auto value = name ? read_string(c) : std::nullopt;
    if (!value) {
      out.caps.clear();
      return tl::unexpected(truncated(c, feature));
    }
    out.caps.emplace_back(std::move(*name), std::move(*value));
  }
  return {};
}
}  // namespace

Status parse_cpu_pmu_caps(ByteCursor& c, Features& out) {
  PmuCaps caps;
  caps.pmu_name = "cpu";
  Status st = read_caps(c, kFeatCpuPmuCaps, caps);
  out.cpu_pmu_caps = std::move(caps);
  return st;
}

// process_pmu_caps(): a u32 count of PMUs, each its capabilities then its name.
Status parse_pmu_caps(ByteCursor& c, Features& out) {
  uint32_t nr = c.u32();
  if (!c.ok()) return tl::unexpected(truncated(c, kFeatPmuCaps));
  std::vector<PmuCaps> pmus;
  for (uint32_t i = 0; i < nr; ++i) {
    PmuCaps p;
    RETURN_IF_ERROR(read_caps(c, kFeatPmuCaps, p));
    auto name = read_string(c);
    if (!name) return tl::unexpected(truncated(c, kFeatPmuCaps));
    p.pmu_name = std::move(*name);
    pmus.push_back(std::move(p));
  }
  out.pmu_caps = std::move(pmus);
  return {};
}

// process_hybrid_topology(): a u32 count, then (pmu name, cpu list) string pairs.
Status parse_hybrid_topology(ByteCursor& c, Features& out) {
  uint32_t nr = c.u32();
  if (!c.ok()) return tl::unexpected(truncated(c, kFeatHybridTopology));
  std::vector<HybridNode> nodes;
  for (uint32_t i = 0; i < nr; ++i) {
    auto name = read_string(c);
    auto cpus = name ? read_string(c) : std::nullopt;
    if (!cpus) return tl::unexpected(truncated(c, kFeatHybridTopology));
    nodes.push_back({std::move(*name), std::move(*cpus)});
  }
  out.hybrid_nodes = std::move(nodes);
  return {};
}

}  // namespace readperf::feature_detail
