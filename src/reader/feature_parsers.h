// The per-feature parsers behind parse_feature() (features.cpp), one group per file:
// features_strings.cpp (strings, numbers, small records), features_topology.cpp (CPU, NUMA,
// cache, memory), features_events.cpp (events, groups, build-ids, AUX index, BPF).
#pragma once

#include <optional>
#include <string>

#include "readperf/format/byte_cursor.h"
#include "readperf/format/error.h"
#include "readperf/reader/features.h"

namespace readperf::feature_detail {

// header.c do_read_string(): a u32 length, then that many bytes holding a NUL-padded string
// (NAME_ALIGN = 64 when perf wrote it). The text ends at the first NUL; nullopt when the
// section is too short.
std::optional<std::string> read_string(ByteCursor& c);

// header.c string_size(): the bytes perf assumes a string took, to tell sections of older perf
// versions (CPU_TOPOLOGY) from newer ones.
inline uint64_t string_size(const std::string& s) { return (s.size() + 1 + 63) / 64 * 64 + 4; }

// "offset 0x...: truncated NAME feature" at the cursor's position.
Error truncated(const ByteCursor& c, uint32_t feature);
// "offset 0x...: NAME feature: what" at the cursor's position.
Error invalid(const ByteCursor& c, uint32_t feature, std::string_view what);

// features_strings.cpp
Status parse_string(uint32_t feature, ByteCursor& c, std::optional<std::string>& out);
Status parse_nrcpus(ByteCursor& c, Features& out);
Status parse_total_mem(ByteCursor& c, Features& out);
Status parse_cmdline(ByteCursor& c, Features& out);
Status parse_pmu_mappings(ByteCursor& c, Features& out);
Status parse_sample_time(ByteCursor& c, Features& out);
Status parse_clockid(ByteCursor& c, Features& out);
Status parse_clock_data(ByteCursor& c, Features& out);
Status parse_dir_format(ByteCursor& c, const FeatureContext& ctx, Features& out);
Status parse_compressed(ByteCursor& c, Features& out);
Status parse_cpu_pmu_caps(ByteCursor& c, Features& out);
Status parse_pmu_caps(ByteCursor& c, Features& out);
Status parse_hybrid_topology(ByteCursor& c, Features& out);

// features_topology.cpp
Status parse_cpu_topology(ByteCursor& c, Features& out);
Status parse_numa_topology(ByteCursor& c, Features& out);
Status parse_cache(ByteCursor& c, Features& out);
Status parse_mem_topology(ByteCursor& c, Features& out);

// features_events.cpp
Status parse_build_ids(ByteCursor& c, Features& out);
Status parse_group_desc(ByteCursor& c, const FeatureContext& ctx, Features& out);
Status parse_auxtrace(ByteCursor& c, Features& out);
Status parse_bpf_prog_info(ByteCursor& c, const FeatureContext& ctx, Features& out);
Status parse_bpf_btf(ByteCursor& c, const FeatureContext& ctx, Features& out);

}  // namespace readperf::feature_detail
