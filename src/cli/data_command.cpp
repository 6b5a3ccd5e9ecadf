#include "data_command.h"

#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <cstdio>

#include "atomic_output.h"
#include "open_warnings.h"
#include "progress_line.h"
#include "readperf/output/ctf_converter.h"
#include "readperf/output/out_buffer.h"
#include "readperf/output/perf_json_converter.h"
#include "readperf/reader/perf_data.h"
#include "symbol_source_args.h"

namespace readperf::cli {

CLI::App* add_data_command(CLI::App& app, DataConvertOptions& o) {
  CLI::App* data = app.add_subcommand("data", "perf data: convert a recording to another format");
  data->require_subcommand(1);
  CLI::App* c = data->add_subcommand("convert", "converts a recording to JSON or CTF");
  c->add_option("-i,--input", o.input, "input file, - for standard input")->capture_default_str();
  c->add_option("--to-json", o.to_json, "write perf's JSON export to FILE (- for standard output)");
  c->add_option("--to-ctf", o.to_ctf, "write a CTF trace into directory DIR");
  c->add_flag("-f,--force", o.force, "overwrite an existing output");
  c->add_flag("--all", o.all, "convert all events (CTF: comm, fork, exit and mmap records too)");
  c->add_flag("--tod", o.tod, "CTF: convert time to wall clock time");
  c->add_option("--symfs", o.symfs, "JSON: look for files relative to this directory");
  c->add_option("--kallsyms", o.kallsyms, "JSON: kallsyms file for the kernel's symbols");
  c->add_option("--vmlinux", o.vmlinux, "JSON: vmlinux for the kernel's symbols");
  c->add_flag("-v,--verbose")->description("ignored (perf's verbosity)");
  return data;
}

namespace {

int convert_json(const DataConvertOptions& o, PerfData& data) {
  auto file = AtomicFile::create(o.to_json, o.force);
  if (!file) {
    fmt::print(stderr, "readperf: {}\n", file.error().message());
    return 1;
  }
  PerfJsonConfig cfg;
  cfg.symbols = symbol_config(o);
  PerfJsonStats stats;
  Status st;
  {
    OutBuffer out(file->file());
    st = run_perf_json_export(data, cfg, out, stats);
  }
  long bytes = o.to_json == "-" ? -1 : std::ftell(file->file());
  // What precedes damage is converted and kept (the document is closed); the error follows.
  if (Status written = file->commit(); !written) {
    fmt::print(stderr, "readperf: {}\n", written.error().message());
    return 1;
  }
  fmt::print(stderr, "[ readperf data convert: Converted '{}' into JSON data '{}' ]\n", o.input,
             o.to_json);
  if (bytes >= 0) {
    fmt::print(stderr, "[ readperf data convert: Converted and wrote {:.3f} MB ({} samples) ]\n",
               static_cast<double>(bytes) / 1024.0 / 1024.0, stats.samples);
  }
  if (!st) {
    fmt::print(stderr, "readperf: {}\n", st.error().message());
    return 1;
  }
  return 0;
}

int convert_ctf(const DataConvertOptions& o, PerfData& data) {
  auto dir = AtomicDirectory::create(o.to_ctf, o.force);
  if (!dir) {
    fmt::print(stderr, "readperf: {}\n", dir.error().message());
    return 1;
  }
  CtfConfig cfg;
  cfg.all = o.all;
  cfg.tod = o.tod;
  CtfStats stats;
  Status st = run_ctf_export(data, cfg, dir->temp_path(), stats);
  // A trace the writer could not set up (--tod without clock data) is not kept; one cut short
  // by damage in the recording is, with what came before the damage.
  if (!stats.written) {
    fmt::print(stderr, "readperf: {}\n", st.error().message());
    return 1;
  }
  if (Status written = dir->commit(); !written) {
    fmt::print(stderr, "readperf: {}\n", written.error().message());
    return 1;
  }
  fmt::print(stderr, "[ readperf data convert: Converted '{}' into CTF data '{}' ]\n", o.input,
             o.to_ctf);
  fmt::print(stderr, "[ readperf data convert: Converted and wrote {:.3f} MB ({} samples",
             static_cast<double>(stats.bytes) / 1024.0 / 1024.0, stats.samples);
  if (stats.non_samples) fmt::print(stderr, ", {} non-samples", stats.non_samples);
  fmt::print(stderr, ") ]\n");
  if (!st) {
    fmt::print(stderr, "readperf: {}\n", st.error().message());
    return 1;
  }
  return 0;
}

}  // namespace

int run_data_convert(const DataConvertOptions& o) {
  // builtin-data.c cmd_data_convert() and bt_convert__perf2json()'s refusals.
  if (!o.to_json.empty() && !o.to_ctf.empty()) {
    fmt::print(stderr, "readperf: You cannot specify both --to-ctf and --to-json.\n");
    return 1;
  }
  if (o.to_json.empty() && o.to_ctf.empty()) {
    fmt::print(stderr, "readperf: You must specify one of --to-ctf or --to-json.\n");
    return 1;
  }
  if (!o.to_json.empty() && o.all) {
    fmt::print(stderr, "readperf: --all is currently unsupported for JSON output.\n");
    return 1;
  }
  if (!o.to_json.empty() && o.tod) {
    fmt::print(stderr, "readperf: --tod is currently unsupported for JSON output.\n");
    return 1;
  }
  auto data = PerfData::open(o.input);
  if (!data) {
    fmt::print(stderr, "readperf: {}\n", data.error().message());
    return 1;
  }
  print_open_warnings(**data);
  auto progress = attach_progress_line(**data, /*streams_output=*/o.to_json == "-");
  if (!o.to_json.empty()) return convert_json(o, **data);
  return convert_ctf(o, **data);
}

}  // namespace readperf::cli
