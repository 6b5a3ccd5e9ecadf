#include "exports.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "readperf/analysis/symbol_prefetch.h"
#include "readperf/output/out_buffer.h"
#include "readperf/output/pprof_merge.h"
#include "readperf/reader/perf_data.h"

namespace readperf {

namespace {

Error os_error(std::string_view what, const std::string& path) {
  return Error(fmt::format("{} {}: {}", what, path, std::strerror(errno)));
}

// What `write` writes to a FILE, in `out`.
template <class Write>
Status to_string(Write write, std::string_view what, std::string& out) {
  char* buf = nullptr;
  size_t size = 0;
  FILE* mem = open_memstream(&buf, &size);
  if (!mem) return tl::unexpected(os_error("cannot buffer", std::string(what)));
  Status st = write(mem);
  std::fclose(mem);  // sets buf and size
  out.assign(buf, size);
  std::free(buf);
  return st;
}

}  // namespace

Status collapsed_text(const std::string& path, const CollapsedConfig& config, std::string& out) {
  auto data = PerfData::open(path);
  if (!data) return tl::unexpected(data.error());
  prefetch_symbols(**data, config.symbols);
  return to_string(
      [&](FILE* mem) {
        OutBuffer text(mem);
        return run_collapsed_export(**data, config, text, stderr);
      },
      path, out);
}

Status pprof_bytes(const std::string& path, const PprofConfig& config, std::string& out) {
  auto data = PerfData::open(path);
  if (!data) return tl::unexpected(data.error());
  prefetch_symbols(**data, config.symbols);
  return to_string([&](FILE* mem) { return run_pprof_export(**data, config, mem); }, path, out);
}

Status merged_pprof_bytes(const std::vector<std::string>& profiles, bool gzip, std::string& out) {
  std::vector<std::string_view> views(profiles.begin(), profiles.end());
  PprofMergeConfig cfg;
  cfg.gzip = gzip;
  return to_string([&](FILE* mem) { return merge_pprof(views, cfg, mem); }, "the merge", out);
}

Status pprof_file(const std::string& path, const PprofConfig& config, const std::string& out_path) {
  auto data = PerfData::open(path);
  if (!data) return tl::unexpected(data.error());
  prefetch_symbols(**data, config.symbols);
  FILE* f = std::fopen(out_path.c_str(), "wb");
  if (!f) return tl::unexpected(os_error("cannot create", out_path));
  Status st = run_pprof_export(**data, config, f);
  if (std::fclose(f) != 0 && st) return tl::unexpected(os_error("cannot write", out_path));
  return st;
}

Status sqlite_file(const std::string& path, const SqliteConfig& config,
                   const std::string& out_path) {
  auto data = PerfData::open(path);
  if (!data) return tl::unexpected(data.error());
  prefetch_symbols(**data, config.symbols);
  return run_sqlite_export(**data, config, out_path);
}

}  // namespace readperf
