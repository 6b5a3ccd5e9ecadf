// `export --format collapsed`: folded stacks, `comm;root;...;leaf count` a line, sorted, the
// input of flamegraph.pl and most flame graph viewers. The output is the pipeline
// `perf script | stackcollapse-perf.pl` byte for byte (FlameGraph commit 41fee1f, default
// options: each stack weighted by its samples' periods, the first event only); the options
// are the script's (--pid, --tid, --kernel, --jit, --addrs, --event-filter). The samples come
// from the same session and resolver as `script`, and StackCollapser folds the lines
// `perf script` would print for them, which are never written out.
//
//   CollapsedConfig cfg;
//   cfg.symbols = SymbolConfig::from_environment();
//   OutBuffer out(stdout);
//   Status st = run_collapsed_export(*data, cfg, out, stderr);
#pragma once

#include <cstdint>
#include <cstdio>

#include "readperf/analysis/sample_selection.h"
#include "readperf/format/error.h"
#include "readperf/output/out_buffer.h"
#include "readperf/output/stack_collapser.h"
#include "readperf/reader/perf_data.h"
#include "readperf/symbols/symbol_config.h"

namespace readperf {

struct CollapsedConfig {
  CollapseOptions collapse;
  SymbolConfig symbols;
  // perf script's --max-stack (scripting_max_stack).
  uint32_t max_stack = 127;
  SampleSelection selection;  // the samples exported (default: all)
};

// Folds the samples of `data` and prints the stacks to `out`; the script's warnings go to `err`.
Status run_collapsed_export(PerfData& data, const CollapsedConfig& config, OutBuffer& out,
                            FILE* err);

// The same folding into `counts`, for the writers that draw the stacks themselves (speedscope,
// the flame graph page): what the samples read before an error folded into is kept.
Status collapse_stacks(PerfData& data, const CollapsedConfig& config, StackCounts& counts,
                       FILE* err);

}  // namespace readperf
