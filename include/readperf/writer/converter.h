// `readperf convert`: reads a recording and writes it again as a perf.data file, in either
// byte order, decompressed or compressed, with the samples a filter keeps. Every record but
// the dropped samples is kept, in the input's order (a directory's data files merged in the
// order perf reads them), so perf prints for the output what it prints for the input.
//
//   auto in = PerfData::open("perf.data");
//   ConvertOptions o;
//   o.byte_order = ConvertOptions::Endian::kBig;
//   Result<ConvertStats> st = convert(**in, "perf.data.be", o);
//
// With `to_pipe` the output is a pipe-mode stream: a pipe input keeps its header records, a
// file's attrs and features become HEADER_ATTR, HEADER_FEATURE, HEADER_TRACING_DATA and
// HEADER_BUILD_ID records ahead of its data (see readperf/writer/pipe_writer.h).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "readperf/format/error.h"
#include "readperf/reader/perf_data.h"

namespace readperf {

// One range of perf's --time (util/time-utils.c): nanoseconds, 0 for an open end, both ends
// included (perf_time__skip_sample).
struct TimeRange {
  uint64_t start = 0, end = 0;
};

// Parses perf's "START,END[ START,END...]" (seconds with up to 9 decimals, either end empty),
// as util/time-utils.c perf_time__parse_str() does; percent forms are not supported.
Result<std::vector<TimeRange>> parse_time_ranges(std::string_view text);

struct ConvertOptions {
  enum class Endian { kKeep, kLittle, kBig };
  Endian byte_order = Endian::kKeep;
  bool decompress = false;
  // zstd level for --compress; unset keeps the input's compression as it is.
  std::optional<int> compress_level;
  // Sample filters (a sample is kept when it passes all given): perf's --time, --pid, --tid,
  // --cpu and --comm.
  std::vector<TimeRange> time;
  std::vector<int> pids, tids, cpus;
  std::vector<std::string> comms;
  // Drop PERF_SAMPLE_RAW from every sample and attr.
  bool strip_raw = false;
  // Write a pipe-mode stream (what `perf record -o -` writes) instead of a file; an output
  // path of "-" (standard output) implies it.
  bool to_pipe = false;
  // Write what perf 6.1 reads (`--compat 6.1`), from a newer perf's recording: attrs of 128
  // bytes (sizeof(struct perf_event_attr) there; header.c read_attr() refuses a larger one),
  // the records decompressed unless --compress is given (perf 6.1 knows no COMPRESSED2), and
  // neither features nor user records perf 6.1 does not know. An attr using what 128 bytes
  // cannot hold (config3, config4) or sample_type bits perf 6.1 does not parse is an error.
  bool compat_perf61 = false;
};

struct ConvertStats {
  uint64_t records_in = 0;
  uint64_t records_out = 0;
  uint64_t samples_dropped = 0;
  uint64_t bytes_out = 0;
  // What the output could not keep, for the user (a feature too large for a pipe record).
  std::vector<std::string> warnings;
};

Result<ConvertStats> convert(PerfData& in, const std::string& out_path,
                             const ConvertOptions& options);

}  // namespace readperf
