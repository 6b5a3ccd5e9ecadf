// `export --format chrome`: the samples as a timeline in the Chrome trace-event JSON format
// (the "Trace Event Format" document; chrome://tracing, Perfetto UI and speedscope load it).
// - Each thread (pid/tid, named after its comm) gets a flame chart of its samples of one event
//   (--event, default the first non-tracepoint event sampled): `B`/`E` duration events, one per
//   call chain frame, root outermost. Consecutive samples sharing a frame extend it; a sample
//   lasts until the next one of its thread, or at most its sampling interval (the period for
//   the software clocks, 1/frequency for frequency-sampled events, else 1 ms). Each sample is
//   also an instant event `sample` (category: the event) with its period in `args.period`.
// - Tracepoint samples (sched:sched_switch, ...) are instant events named after the event with
//   the tracepoint's fields as `args.trace`, and PERF_RECORD_SWITCH records (perf record
//   --switch-events) instant `switch-in`/`switch-out` events.
// Written as the samples come: the memory holds each thread's open frames, not the samples.
//
//   ChromeTraceConfig cfg;
//   Status st = run_chrome_trace_export(*data, cfg, out);
#pragma once

#include <cstdint>
#include <string>

#include "readperf/analysis/sample_selection.h"
#include "readperf/format/error.h"
#include "readperf/output/out_buffer.h"
#include "readperf/reader/perf_data.h"
#include "readperf/symbols/symbol_config.h"

namespace readperf {

struct ChromeTraceConfig {
  SymbolConfig symbols;
  uint32_t max_stack = 127;
  SampleSelection selection;  // the samples exported (default: all)
  std::string event;  // the event drawn as flame charts; empty: the first sampled
};

Status run_chrome_trace_export(PerfData& data, const ChromeTraceConfig& config, OutBuffer& out);

}  // namespace readperf
