#include "convert_command.h"

#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdlib>

#include "progress_line.h"
#include "readperf/reader/perf_data.h"
#include "readperf/writer/converter.h"

namespace readperf::cli {

namespace {

std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> out;
  size_t at = 0;
  while (at <= s.size()) {
    size_t comma = s.find(',', at);
    if (comma == std::string::npos) comma = s.size();
    if (comma > at) out.push_back(s.substr(at, comma - at));
    at = comma + 1;
  }
  return out;
}

bool to_ints(const std::string& s, std::vector<int>& out) {
  for (const std::string& part : split(s)) {
    char* end = nullptr;
    long v = std::strtol(part.c_str(), &end, 10);
    if (*end != '\0') return false;
    out.push_back(static_cast<int>(v));
  }
  return true;
}

}  // namespace

CLI::App* add_convert_command(CLI::App& app, ConvertCliOptions& o) {
  CLI::App* c = app.add_subcommand("convert", "write a recording again as a perf.data file");
  c->add_option("-i,--input", o.input, "input file, directory, or - for a pipe")
      ->capture_default_str();
  c->add_option("-o,--output", o.output, "output file, or - for a pipe-mode stream on stdout")
      ->required();
  auto* to_file =
      c->add_flag("--to-file", o.to_file, "write a single file (from a pipe or a directory)");
  c->add_flag("--to-pipe", o.to_pipe, "write a pipe-mode stream (perf record -o -)")
      ->excludes(to_file);
  c->add_flag("--decompress", o.decompress, "write PERF_RECORD_COMPRESSED contents plainly");
  c->add_option("--compress", o.compress, "zstd-compress the records (default level 1)")
      ->expected(0, 1)
      ->default_str("1");
  c->add_option("--byte-order", o.byte_order, "write big- or little-endian")
      ->check(CLI::IsMember({"big", "little"}));
  c->add_option("--time", o.time, "only samples in START,END (seconds, as perf's --time)");
  c->add_option("--pid", o.pid, "only samples of these processes (comma-separated)");
  c->add_option("--tid", o.tid, "only samples of these threads (comma-separated)");
  c->add_option("--cpu", o.cpu, "only samples on these CPUs (comma-separated)");
  c->add_option("--comm", o.comm, "only samples of these commands (comma-separated)");
  c->add_flag("--strip-raw", o.strip_raw, "drop the raw data (PERF_SAMPLE_RAW) of samples");
  c->add_option("--compat", o.compat,
                "write what this perf version reads (6.1: a newer perf's recording for perf 6.1)")
      ->check(CLI::IsMember({"6.1"}));
  c->add_flag("-v,--verbose", o.verbose, "print what was written and how fast");
  return c;
}

int run_convert(const ConvertCliOptions& o) {
  ConvertOptions co;
  if (o.byte_order == "big") co.byte_order = ConvertOptions::Endian::kBig;
  if (o.byte_order == "little") co.byte_order = ConvertOptions::Endian::kLittle;
  co.decompress = o.decompress;
  co.compress_level = o.compress;
  co.strip_raw = o.strip_raw;
  co.compat_perf61 = o.compat == "6.1";
  co.to_pipe = o.to_pipe || o.output == "-";
  if (o.to_file && o.output == "-") {
    fmt::print(stderr, "readperf: -o - writes a pipe-mode stream: --to-file needs a file name\n");
    return 2;
  }
  co.comms = split(o.comm);
  if (!to_ints(o.pid, co.pids) || !to_ints(o.tid, co.tids) || !to_ints(o.cpu, co.cpus)) {
    fmt::print(stderr, "readperf: --pid, --tid and --cpu take comma-separated numbers\n");
    return 2;
  }
  if (!o.time.empty()) {
    auto t = parse_time_ranges(o.time);
    if (!t) {
      fmt::print(stderr, "readperf: {}\n", t.error().message());
      return 2;
    }
    co.time = *t;
  }
  auto start = std::chrono::steady_clock::now();
  auto data = PerfData::open(o.input);
  if (!data) {
    fmt::print(stderr, "readperf: {}\n", data.error().message());
    return 1;
  }
  // The output is a single file unless --to-pipe or -o -; --to-file says so explicitly for
  // pipes and directories.
  auto progress = attach_progress_line(**data, /*streams_output=*/o.output == "-");
  auto st = convert(**data, o.output, co);
  if (!st) {
    fmt::print(stderr, "readperf: {}\n", st.error().message());
    return 1;
  }
  for (const std::string& w : st->warnings) fmt::print(stderr, "readperf: warning: {}\n", w);
  if (o.verbose) {
    double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    fmt::print(stderr,
               "readperf: {} records read, {} written ({} samples filtered out), {} bytes in "
               "{:.3f} s\n",
               st->records_in, st->records_out, st->samples_dropped, st->bytes_out, secs);
  }
  return 0;
}

}  // namespace readperf::cli
