// The machine's shape: CPU_TOPOLOGY, NUMA_TOPOLOGY, CACHE and MEM_TOPOLOGY, each mirroring
// the process_* function of perf 6.1's util/header.c named beside it.
#include <fmt/format.h>

#include <cstdlib>
#include <set>

#include "feature_parsers.h"
#include "readperf/format/perf_abi.h"

namespace readperf {

using namespace feature_detail;

Result<std::vector<int>> parse_cpu_list(std::string_view list) {
  // libperf cpumap.c perf_cpu_map__new(): entries "N" or "N-M" (strtoul, base 0) separated by
  // commas; a repeated cpu or anything unexpected after a number gives no map at all.
  auto is_digit = [](char ch) { return ch >= '0' && ch <= '9'; };
  std::string s(list);  // NUL-terminated for strtoul
  const char* p = s.c_str();
  if (*p != '\0' && !is_digit(*p)) return make_error(fmt::format("bad cpu list '{}'", list));
  std::set<int> seen;
  std::vector<int> cpus;
  // perf 6.1 takes any cpu below INT_MAX, so "0-2147483646" in a damaged NUMA_TOPOLOGY
  // section had readperf build a set of two billion cpus; newer libperf (whose struct perf_cpu
  // holds an int16_t) refuses cpus from INT16_MAX up, as readperf does, far above any machine.
  constexpr unsigned long kMaxCpu = 0x7fff;
  while (is_digit(*p)) {
    char* end = nullptr;
    unsigned long start = std::strtoul(p, &end, 0);
    if (start >= kMaxCpu || (*end != '\0' && *end != ',' && *end != '-')) {
      return make_error(fmt::format("bad cpu list '{}'", list));
    }
    unsigned long last = start;
    if (*end == '-') {
      p = end + 1;
      last = std::strtoul(p, &end, 0);
      if (last >= kMaxCpu || (*end != '\0' && *end != ',') || last < start) {
        return make_error(fmt::format("bad cpu list '{}'", list));
      }
    }
    for (unsigned long cpu = start; cpu <= last; ++cpu) {
      if (!seen.insert(static_cast<int>(cpu)).second) {
        return make_error(fmt::format("cpu {} twice in cpu list", cpu));
      }
      cpus.push_back(static_cast<int>(cpu));
    }
    if (*end) ++end;
    p = end;
  }
  if (cpus.empty()) return std::vector<int>{-1};  // perf_cpu_map__dummy_new()
  return std::vector<int>(seen.begin(), seen.end());
}

namespace feature_detail {

// process_cpu_topology(): sibling cores and threads (perf 3.x), then a (core, socket) id per
// available CPU (perf 4.1+), then sibling dies and a die id per CPU (perf 5.2+); the section's
// size tells which of these it holds. What perf leaves behind when a read fails is kept the
// same: the printer shows it.
Status parse_cpu_topology(ByteCursor& c, Features& out) {
  constexpr uint32_t kFeat = kFeatCpuTopology;
  const uint64_t section = c.size();
  const uint32_t cpu_nr = out.nr_cpus_avail;
  out.cpu_topology.reset();
  CpuTopology t;
  uint64_t size = 0;

  auto read_strings = [&](std::vector<std::string>& into) -> bool {
    uint32_t nr = c.u32();
    if (!c.ok()) return false;
    size += 4;
    for (uint32_t i = 0; i < nr; ++i) {
      auto s = read_string(c);
      if (!s) return false;
      size += string_size(*s);
      into.push_back(std::move(*s));
    }
    return true;
  };

  if (!read_strings(t.sibling_cores)) return tl::unexpected(truncated(c, kFeat));
  uint32_t nr_threads = c.u32();
  if (!c.ok()) {
    // perf returns here with its zeroed per-CPU table still allocated.
    if (cpu_nr <= (1u << 20)) t.cpus.emplace(cpu_nr);
    out.cpu_topology = std::move(t);
    return tl::unexpected(truncated(c, kFeat));
  }
  size += 4;
  for (uint32_t i = 0; i < nr_threads; ++i) {
    auto s = read_string(c);
    if (!s) {
      t.sibling_threads.clear();
      out.cpu_topology = std::move(t);
      return tl::unexpected(truncated(c, kFeat));
    }
    size += string_size(*s);
    t.sibling_threads.push_back(std::move(*s));
  }
  if (section <= size) {  // perf before 4.1: no core and socket ids
    out.cpu_topology = std::move(t);
    return {};
  }

  // On s390 and aarch64 socket ids need not be below the number of CPUs.
  const std::string arch = out.arch.value_or("");
  const bool check_socket = arch.rfind("s390", 0) != 0 && arch.rfind("aarch64", 0) != 0;
  std::vector<CpuTopology::Cpu> cpus;
  for (uint32_t i = 0; i < cpu_nr; ++i) {
    CpuTopology::Cpu cpu;
    cpu.core_id = static_cast<int32_t>(c.u32());
    uint32_t socket = c.u32();
    if (!c.ok()) {
      out.cpu_topology = std::move(t);
      return tl::unexpected(truncated(c, kFeat));
    }
    if (check_socket && socket != ~0u && socket > cpu_nr) {
      out.cpu_topology = std::move(t);
      return tl::unexpected(invalid(c, kFeat,
                                    fmt::format("socket id {} of cpu {} is above the "
                                                "number of cpus",
                                                socket, i)));
    }
    cpu.socket_id = static_cast<int32_t>(socket);
    size += 8;
    cpus.push_back(cpu);
  }
  t.cpus = std::move(cpus);
  if (section <= size) {  // perf before 5.2: no dies
    out.cpu_topology = std::move(t);
    return {};
  }

  uint32_t nr_dies = c.u32();
  if (!c.ok()) {
    out.cpu_topology = std::move(t);
    return tl::unexpected(truncated(c, kFeat));
  }
  for (uint32_t i = 0; i < nr_dies; ++i) {
    auto s = read_string(c);
    if (!s) {
      t.sibling_dies.clear();
      t.cpus.reset();
      out.cpu_topology = std::move(t);
      return tl::unexpected(truncated(c, kFeat));
    }
    t.sibling_dies.push_back(std::move(*s));
  }
  for (auto& cpu : *t.cpus) {
    cpu.die_id = static_cast<int32_t>(c.u32());
    if (!c.ok()) {
      t.cpus.reset();
      out.cpu_topology = std::move(t);
      return tl::unexpected(truncated(c, kFeat));
    }
  }
  out.cpu_topology = std::move(t);
  return {};
}

// process_numa_topology(): a u32 count, then per node its number, total and free memory and
// its cpu list, which must parse.
Status parse_numa_topology(ByteCursor& c, Features& out) {
  constexpr uint32_t kFeat = kFeatNumaTopology;
  out.numa_nodes.reset();
  uint32_t nr = c.u32();
  if (!c.ok()) return tl::unexpected(truncated(c, kFeat));
  std::vector<NumaNode> nodes;
  for (uint32_t i = 0; i < nr; ++i) {
    NumaNode n;
    n.node = c.u32();
    n.mem_total = c.u64();
    n.mem_free = c.u64();
    auto list = c.ok() ? read_string(c) : std::nullopt;
    if (!list) return tl::unexpected(truncated(c, kFeat));
    auto cpus = parse_cpu_list(*list);
    if (!cpus) return tl::unexpected(invalid(c, kFeat, cpus.error().what()));
    n.cpu_list = std::move(*list);
    n.cpus = std::move(*cpus);
    nodes.push_back(std::move(n));
  }
  out.numa_nodes = std::move(nodes);
  return {};
}

// process_cache(): version 1, a u32 count, then per cache level four u32s and three strings.
Status parse_cache(ByteCursor& c, Features& out) {
  constexpr uint32_t kFeat = kFeatCache;
  out.caches.reset();
  uint32_t version = c.u32();
  if (!c.ok()) return tl::unexpected(truncated(c, kFeat));
  if (version != 1) return tl::unexpected(invalid(c, kFeat, fmt::format("version {}", version)));
  uint32_t nr = c.u32();
  if (!c.ok()) return tl::unexpected(truncated(c, kFeat));
  std::vector<CacheLevel> caches;
  for (uint32_t i = 0; i < nr; ++i) {
    CacheLevel l;
    l.level = c.u32();
    l.line_size = c.u32();
    l.sets = c.u32();
    l.ways = c.u32();
    std::optional<std::string> type, size, map;
    if (c.ok()) type = read_string(c);
    if (type) size = read_string(c);
    if (size) map = read_string(c);
    if (!map) return tl::unexpected(truncated(c, kFeat));
    l.type = std::move(*type);
    l.size = std::move(*size);
    l.map = std::move(*map);
    caches.push_back(std::move(l));
  }
  out.caches = std::move(caches);
  return {};
}

// process_mem_topology(): version 1, block size, a u64 count, then per node its number, a
// size perf does not keep, and a bitmap of its memory blocks (u64 bit count, then words).
Status parse_mem_topology(ByteCursor& c, Features& out) {
  constexpr uint32_t kFeat = kFeatMemTopology;
  out.mem_topology.reset();
  MemTopology t;
  t.version = c.u64();
  if (!c.ok()) return tl::unexpected(truncated(c, kFeat));
  if (t.version != 1) {
    return tl::unexpected(invalid(c, kFeat, fmt::format("version {}", t.version)));
  }
  t.block_size = c.u64();
  uint64_t nr = c.u64();
  if (!c.ok()) return tl::unexpected(truncated(c, kFeat));
  for (uint64_t i = 0; i < nr; ++i) {
    MemoryNode n;
    n.node = c.u64();
    c.u64();  // size
    n.nbits = c.u64();
    uint64_t words = n.nbits / 64 + (n.nbits % 64 != 0);
    for (uint64_t w = 0; w < words && c.ok(); ++w) n.bitmap.push_back(c.u64());
    if (!c.ok()) return tl::unexpected(truncated(c, kFeat));
    t.nodes.push_back(std::move(n));
  }
  out.mem_topology = std::move(t);
  return {};
}

}  // namespace feature_detail
}  // namespace readperf
