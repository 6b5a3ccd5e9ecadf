// Header features (tools/perf/util/header.c, the HEADER_* sections after the data, or
// PERF_RECORD_HEADER_FEATURE records in pipe mode), parsed into typed values.
//
//   Features f;
//   FeatureContext ctx;
//   Status ok = parse_feature(kFeatHostname, cursor_over_section, ctx, f);
//   if (f.hostname) fmt::print("{}\n", *f.hostname);
//
// `Features` plays the part of perf's `struct perf_env` (util/env.h): each parse_* reads what
// perf's process_* function reads, in the same order and with the same checks, and leaves in
// `Features` what that function leaves in the env, including the partial state some of them
// leave when they fail (CPU_TOPOLOGY, NRCPUS, COMPRESSED). A malformed section gives an Error;
// whether perf stops processing the sections that follow is perf_stops_on_error().
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "readperf/format/byte_cursor.h"
#include "readperf/format/error.h"
#include "readperf/format/event_attr.h"

namespace readperf {

// One EVENT_DESC entry: an attr as recorded, the event's name and its ids.
struct EventDesc {
  EventAttr attr;
  std::string name;
  std::vector<uint64_t> ids;
};

// One BUILD_ID entry (util/event.h struct perf_record_header_build_id).
struct BuildIdRecord {
  uint16_t misc = 0;              // cpumode, and PERF_RECORD_MISC_BUILD_ID_SIZE (1 << 15)
  int32_t pid = -1;               // -1: the host kernel (HOST_KERNEL_ID); 0: the default guest
  std::vector<uint8_t> build_id;  // 20 bytes, or the recorded size when misc says so
  std::string filename;
};

struct CpuTopology {
  std::vector<std::string> sibling_cores;  // printed as "sibling sockets"
  std::vector<std::string> sibling_threads;
  std::vector<std::string> sibling_dies;
  struct Cpu {
    int32_t core_id = 0, socket_id = 0, die_id = 0;
  };
  // One per available CPU (NRCPUS), absent when the section stops after the sibling lists
  // (perf before 4.1) or when the ids could not be read.
  std::optional<std::vector<Cpu>> cpus;
};

struct NumaNode {
  uint32_t node = 0;
  uint64_t mem_total = 0, mem_free = 0;
  std::string cpu_list;   // as recorded
  std::vector<int> cpus;  // parsed as libperf's perf_cpu_map__new() does: sorted, unique
};

struct PmuMapping {
  uint32_t type = 0;
  std::string name;
};

struct GroupDesc {
  std::string name;  // "{anon_group}" for a group without a name
  uint32_t leader_idx = 0;
  uint32_t nr_members = 0;
};

struct CacheLevel {
  uint32_t level = 0, line_size = 0, sets = 0, ways = 0;
  std::string type, size, map;
};

struct MemoryNode {
  uint64_t node = 0;
  uint64_t nbits = 0;            // bits in `bitmap` (perf's memory_node.size)
  std::vector<uint64_t> bitmap;  // memory blocks of this node, 64 per word
};

struct MemTopology {
  uint64_t version = 0, block_size = 0;
  std::vector<MemoryNode> nodes;
};

struct ClockData {
  uint32_t version = 0, clockid = 0;
  uint64_t tod_ns = 0, clockid_ns = 0;
};

struct HybridNode {
  std::string pmu_name, cpus;
};

// "name=value" capabilities of one PMU (CPU_PMU_CAPS, PMU_CAPS).
struct PmuCaps {
  std::string pmu_name;
  std::vector<std::pair<std::string, std::string>> caps;
};

// One BPF_PROG_INFO entry: a struct bpf_prog_info (of the writer's size, at most perf 6.1's
// 232 bytes) and the arrays it points into, with offsets relative to `data`
// (util/bpf-utils.c perf_bpil).
struct BpfProgInfo {
  uint64_t arrays = 0;          // which arrays are present (1 << PERF_BPIL_*)
  std::vector<std::byte> info;  // zero-padded to 232 bytes
  std::vector<std::byte> data;
};

struct BpfBtf {
  uint32_t id = 0;
  std::vector<std::byte> data;
};

struct AuxtraceIndexEntry {
  uint64_t file_offset = 0, size = 0;
};

struct Features {
  // Raw bytes of every section seen, by feature id, features 32+ (newer perf) included.
  std::map<uint32_t, std::vector<std::byte>> raw;

  std::vector<BuildIdRecord> build_ids;
  std::optional<std::string> hostname, os_release, version, arch, cpudesc, cpuid;
  // NRCPUS: both 0 until the section is read whole, as perf leaves them.
  uint32_t nr_cpus_avail = 0, nr_cpus_online = 0;
  std::optional<uint64_t> total_mem;
  std::optional<std::vector<std::string>> cmdline;
  std::optional<std::vector<EventDesc>> event_desc;
  std::optional<CpuTopology> cpu_topology;
  std::optional<std::vector<NumaNode>> numa_nodes;
  std::optional<std::vector<PmuMapping>> pmu_mappings;
  std::optional<std::vector<GroupDesc>> group_desc;
  std::optional<std::vector<AuxtraceIndexEntry>> auxtrace_index;
  std::optional<std::vector<CacheLevel>> caches;
  // SAMPLE_TIME: first and last sample time.
  std::optional<std::pair<uint64_t, uint64_t>> sample_time;
  std::optional<MemTopology> mem_topology;
  std::optional<uint64_t> clockid_res_ns;
  std::optional<uint64_t> dir_format;
  // BPF_PROG_INFO and BPF_BTF keyed by id, the first of equal ids kept (util/env.c).
  std::map<uint32_t, BpfProgInfo> bpf_progs;
  std::map<uint32_t, BpfBtf> bpf_btfs;
  // COMPRESSED: zstd, level, ratio, and the decompression buffer size perf uses. Fields
  // are set one by one, as perf does, so a short section leaves the later ones 0.
  struct Compressed {
    uint32_t version = 0, type = 0, level = 0, ratio = 0, mmap_len = 0;
  };
  std::optional<Compressed> compressed;
  std::optional<PmuCaps> cpu_pmu_caps;
  std::optional<ClockData> clock_data;
  std::optional<std::vector<HybridNode>> hybrid_nodes;
  std::optional<std::vector<PmuCaps>> pmu_caps;

  // The first section whose parse failed where perf stops (perf_stops_on_error()); perf
  // processes no feature after it, and neither does the reader.
  std::optional<std::pair<uint32_t, Error>> stopped_at;
};

// What a section's parse needs to know beyond the section itself.
struct FeatureContext {
  // Sections are in the opposite byte order (BPF_PROG_INFO and BPF_BTF are then skipped,
  // as perf does: it cannot swap them).
  bool swapped = false;
  // DIR_FORMAT is valid only in a `perf record --threads` directory.
  bool is_directory = false;
  // Events of the recording, for GROUP_DESC's check that the groups cover them.
  size_t nr_events = 0;
};

// Parses one feature section into `out` (which also carries what earlier sections said:
// CPU_TOPOLOGY needs NRCPUS and ARCH). `c` covers exactly the section; its byte order is the
// file's. Features perf 6.1 does not know (32+) only keep their raw bytes.
Status parse_feature(uint32_t feature, ByteCursor c, const FeatureContext& ctx, Features& out);
inline Status parse_feature(uint32_t feature, ByteCursor c, Features& out) {
  return parse_feature(feature, c, FeatureContext{.swapped = c.swapped()}, out);
}

// Whether perf, whose process_* function failed for this feature, stops processing the
// sections after it (header.c perf_header__process_sections stops at the first error; some
// process_* functions never report one: EVENT_DESC, BUILD_ID, and those without one).
bool perf_stops_on_error(uint32_t feature);

// The name perf gives a feature (header.c feat_ops[].name), e.g. "HOSTNAME"; "" if unknown.
std::string_view feature_name(uint32_t feature);

// header.c process_cpu_pmu_caps(): env->max_branches, the "branches" capability of the CPU
// PMU (its LBR depth); 0 when not recorded.
uint32_t pmu_max_branches(const Features& f);

// Parses an EVENT_DESC section (header.c read_event_desc()), for the printer, which reads it
// again as perf does. Fails where perf gives up: a short section, or an attr that
// perf_attr_check() refuses.
Result<std::vector<EventDesc>> parse_event_desc(ByteCursor c);

// Parses a cpu list ("0-3,8") as libperf's perf_cpu_map__new() does: sorted, duplicates
// refused; "" gives {-1} (the dummy map); an error where perf gets no map.
Result<std::vector<int>> parse_cpu_list(std::string_view list);

}  // namespace readperf
