// `export --format pprof`: the samples as a gzipped profile.proto (github.com/google/pprof,
// proto/profile.proto), the input of `pprof` and of most profile viewers.
// - sample types: `samples/count` (every sample counts 1), then one per event that has
//   samples: `<event>/nanoseconds` for the software clocks (cpu-clock, task-clock, whose period
//   is time) and `<event>/count` for the others, each sample adding its period to its event's
//   value; the first event is the default;
// - one Sample per distinct (comm, pid, call stack), labelled `comm` and `pid`, its values
//   summed: the memory grows with the distinct stacks, locations and functions, not with the
//   samples;
// - a Location per (mapping, address, inline chain), its Lines the inline frames innermost
//   first and the function they were inlined into last (the hook for DWARF inline frames: the
//   resolver's Frame::inlined entries);
// - a Function per (name, file), a Mapping per mapped file with its build-id in hex.
//
//   PprofConfig cfg;
//   cfg.symbols = SymbolConfig::from_environment();
//   Status st = run_pprof_export(*data, cfg, file);
#pragma once

#include <cstdint>
#include <cstdio>

#include "readperf/analysis/sample_selection.h"
#include "readperf/format/error.h"
#include "readperf/reader/perf_data.h"
#include "readperf/symbols/symbol_config.h"

namespace readperf {

struct PprofConfig {
  SymbolConfig symbols;
  uint32_t max_stack = 127;
  SampleSelection selection;  // the samples exported (default: all)
  bool gzip = true;  // false: the bare protobuf bytes (for `protoc --decode`)
};

Status run_pprof_export(PerfData& data, const PprofConfig& config, FILE* out);

}  // namespace readperf
