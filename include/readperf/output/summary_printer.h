// `readperf summary`: the functions that took the time, per event, as one aligned table each;
// the console view of the original readperf (CERN, 2011) for every event of a recording.
//
//   SummaryConfig cfg;
//   cfg.symbols = SymbolConfig::from_environment();
//   OutBuffer out(stdout);
//   Status st = run_summary(*data, cfg, out);
//
// Per event: a header line with its name, samples, total period and lost samples, then one
// row per function (dso and symbol, as `perf report --no-children --sort dso,sym` groups
// them), largest period first: percent of the event's period, samples, period, function
// ("[k]" kernel, "[.]" user), binary, source file ("-" until DWARF line information is read).
#pragma once

#include <cstddef>
#include <string>

#include "readperf/format/error.h"
#include "readperf/output/function_rows.h"
#include "readperf/output/out_buffer.h"
#include "readperf/reader/perf_data.h"
#include "readperf/symbols/symbol_config.h"

namespace readperf {

struct SummaryConfig {
  SymbolConfig symbols;
  size_t limit = 50;  // rows per event; 0 for all
  // Function names longer than this are cut with "..." so the columns stay aligned.
  size_t max_name_width = 60;
  SourceFileLookup source_file;  // may be empty
};

// The table text of one event (used by run_summary; exposed for tests).
void print_summary_section(std::string_view event_name, const Hists& hists,
                           const SummaryConfig& config, OutBuffer& out);

Status run_summary(PerfData& data, const SummaryConfig& config, OutBuffer& out);

}  // namespace readperf
