// `export --format sqlite -o FILE.db`: the samples as an SQLite database in the shape of perf's
// scripts/python/export-to-sqlite.py (tables selected_events, machines, threads, comms,
// comm_threads, dsos, symbols, samples, call_paths and their *_view views), so that queries
// and tools written for perf's database (exported-sql-viewer.py) work on it. docs/sqlite.md
// has the schema and example queries.
//
// Differences from perf's script: no id 0 "unknown" row in `samples` (so count(*) is the
// number of samples; the other tables keep theirs), absent times and cpus are NULL, and a view
// `events` names `selected_events` as the table readperf documents.
//
//   SqliteConfig cfg;
//   cfg.symbols = SymbolConfig::from_environment();
//   Status st = run_sqlite_export(*data, cfg, "perf.db");
#pragma once

#include <cstdint>
#include <string>

#include "readperf/analysis/sample_selection.h"
#include "readperf/format/error.h"
#include "readperf/reader/perf_data.h"
#include "readperf/symbols/symbol_config.h"

namespace readperf {

struct SqliteConfig {
  SymbolConfig symbols;
  bool callchains = true;    // call_paths from the samples' call chains (perf's --call-chains)
  uint32_t max_stack = 127;  // PERF_MAX_STACK_DEPTH
  SampleSelection selection;  // the samples exported (default: all)
};

// Writes the database to `path`, replacing any file there.
Status run_sqlite_export(PerfData& data, const SqliteConfig& config, const std::string& path);

}  // namespace readperf
