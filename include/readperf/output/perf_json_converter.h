// `data convert --to-json` (and `export --format perf-json`): perf 6.1's JSON export
// (util/data-convert-json.c), byte for byte. One object: "linux-perf-json-version": 1, the
// "headers" (header version, capture time, data and feature offsets, the env features, the
// record command line) and "samples", one object per sample in perf's time order with its
// timestamp, pid, tid, cpu (when some event samples it), comm and call chain: each recorded
// address with the symbol and DSO short name perf's thread__find_symbol() gives it (the
// sample's own ip alone without a recorded call chain). Written as the samples come.
//
//   PerfJsonConfig cfg;
//   PerfJsonStats stats;
//   Status st = run_perf_json_export(*data, cfg, out, stats);   // out is closed JSON either way
#pragma once

#include <cstdint>

#include "readperf/analysis/sample_selection.h"
#include "readperf/format/error.h"
#include "readperf/output/out_buffer.h"
#include "readperf/reader/perf_data.h"
#include "readperf/symbols/symbol_config.h"

namespace readperf {

struct PerfJsonConfig {
  SymbolConfig symbols;
  SampleSelection selection;  // the samples written (default: all)
};

struct PerfJsonStats {
  uint64_t samples = 0;  // perf's events_count: the samples written
};

// Writes the whole document to `out`. A read error (damage) ends the samples there: the
// document is still closed, and the error returned.
Status run_perf_json_export(PerfData& data, const PerfJsonConfig& config, OutBuffer& out,
                            PerfJsonStats& stats);

}  // namespace readperf
