// `export --format gecko`: the Firefox Profiler's Gecko profile format (what newer perf's
// `perf script report gecko` writes, and what profiler.firefox.com opens: "Load a profile from
// file"), version 27 (the frame table without "optimizations"), fields as the profiler's
// importer reads them (firefox-devtools/profiler src/types/gecko-profile.ts,
// src/profile-logic/process-profile.ts):
// - one subprocess profile per process (pid) with its libs (the mappings its samples hit, with
//   address ranges and build-ids as breakpadId/codeId) and one thread per tid: its name (the
//   thread's comm), the process's name, its samples (time in ms since meta.startTime, and the
//   sample's period in threadCPUDelta: nanoseconds for the cpu-clock and task-clock events,
//   "variable CPU cycles" for the others), stack table, frame table and string table;
// - frames named "function (in library)" (inline frames "function (inlined) (in library)"),
//   inline frames with their source line, the others too with `srclines`; unresolved addresses as
//   "0x..." (the profiler places those in the libs); category User or Kernel (meta.categories);
// - tracepoint samples as instant markers named after the event, with the tracepoint's fields,
//   and context switches (perf record --switch-events) as "switch-in"/"switch-out" markers,
//   their schemas in meta.markerSchema.
// One event is drawn (--event, default the first non-tracepoint event sampled), as in the
// Chrome trace export. The samples are kept as columns until the end (the format groups them
// by thread): 20 bytes each.
//
//   GeckoConfig cfg;
//   Status st = run_gecko_export(*data, cfg, out);
#pragma once

#include <cstdint>
#include <string>

#include "readperf/analysis/sample_selection.h"
#include "readperf/format/error.h"
#include "readperf/output/out_buffer.h"
#include "readperf/reader/perf_data.h"
#include "readperf/symbols/symbol_config.h"

namespace readperf {

struct GeckoConfig {
  SymbolConfig symbols;
  uint32_t max_stack = 127;
  SampleSelection selection;  // the samples exported (default: all)
  std::string event;  // the event sampled into the threads; empty: the first sampled
  // The source line of every frame (a DWARF line lookup per distinct address: several times
  // the export's time on large binaries); inline frames have theirs either way.
  bool srclines = false;
};

Status run_gecko_export(PerfData& data, const GeckoConfig& config, OutBuffer& out);

}  // namespace readperf
