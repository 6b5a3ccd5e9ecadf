// Recording.collapsed(), pprof(), to_pprof() and to_sqlite(), and merge_pprof(): the library's
// exporters, as `readperf export --format collapsed|pprof|sqlite` runs them, on the recording at
// `path`. Each reads the recording again (the exporters take their samples from the session, as the
// CLI's do). An error stops the export: what was written before it is kept.
#pragma once

#include <string>
#include <vector>

#include "readperf/format/error.h"
#include "readperf/output/collapsed_exporter.h"
#include "readperf/output/pprof_exporter.h"
#include "readperf/output/sqlite_exporter.h"

namespace readperf {

// The folded stacks into `out`, the bytes `export --format collapsed` writes.
Status collapsed_text(const std::string& path, const CollapsedConfig& config, std::string& out);

// The profile.proto (gzipped unless config.gzip is false) written to `out_path`.
Status pprof_file(const std::string& path, const PprofConfig& config, const std::string& out_path);

// The profile.proto (gzipped unless config.gzip is false) into `out`.
Status pprof_bytes(const std::string& path, const PprofConfig& config, std::string& out);

// `profiles` merged (pprof_merge.h) into `out`.
Status merged_pprof_bytes(const std::vector<std::string>& profiles, bool gzip, std::string& out);

// The database written to `out_path`, replacing any file there.
Status sqlite_file(const std::string& path, const SqliteConfig& config,
                   const std::string& out_path);

}  // namespace readperf
