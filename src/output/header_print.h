// The pieces of `report --header-only` (header_printer.cpp): the print_* function of each
// feature (util/header.c feat_ops[].print of perf 6.1), printing from a Features that plays
// perf's env.
#pragma once

#include <cstdint>
#include <ctime>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "readperf/format/byte_cursor.h"
#include "readperf/output/out_buffer.h"
#include "readperf/reader/event_list.h"
#include "readperf/reader/features.h"
#include "readperf/reader/perf_data.h"

namespace readperf::header_detail {

// What the print functions read besides the env.
struct PrintContext {
  const Features& env;
  const EventList& events;
  ByteOrder order = ByteOrder::kNative;
  // -I: print the features perf marks full_only instead of "... info available" lines.
  bool full = false;
  // File mode: print_event_desc reads the section again from the file (here: from
  // env.raw), whatever processing made of it. Pipe mode: it prints what processing kept.
  bool file_mode = true;
};

// Whether feat_ops[feature] of perf 6.1 has a print function (TRACING_DATA and BUILD_ID have
// none).
bool has_print(uint32_t feature);

// Prints one feature as perf_file_section__fprintf_info() / perf_event__process_feature() do:
// the "# NAME info available, use -I to display" line for full_only features without -I.
void print_feature(uint32_t feature, const PrintContext& ctx, OutBuffer& out);

// header_event_desc.cpp: the "# event : ..." lines (print_event_desc and
// perf_event_attr__fprintf).
void print_event_desc(const PrintContext& ctx, OutBuffer& out);

// header_bpf.cpp: print_bpf_prog_info, with program names from BTF as libbpf finds them.
void print_bpf_prog_info(const PrintContext& ctx, OutBuffer& out);

// The modification time of the recording as perf fstat()s it (standard input for "-",
// perf.data/data in a directory); none if it cannot be read.
std::optional<time_t> recording_mtime(const PerfData& data);

// The data section as the file header records it (the reader shortens it for a recording cut
// short, where perf's header shows the recorded numbers).
FileSection recorded_data_section(const PerfData& data);

// perf_header.version of the recording (header_version()), read again from its first bytes.
// A pipe is not read twice: 1, where perf says 0 for the legacy magic (no perf since 2011
// writes it; perf 2.6.3x's pipes did).
uint32_t recorded_header_version(const PerfData& data);

// util/clockid.c clockid_name(): the first name of the clock in perf's table ("monotonic"),
// "(not found)" for others.
std::string_view clockid_name(int32_t id);

// libperf cpumap.c cpu_map__snprint(): "0-3,8".
std::string cpu_list_string(const std::vector<int>& cpus);

}  // namespace readperf::header_detail
