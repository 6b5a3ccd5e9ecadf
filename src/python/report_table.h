// Recording.report(): `readperf report --stdio`'s entries as columns, from the library's own
// report pipeline (run_report_session, Hists), for readperf/__init__.py to make a DataFrame of.
#pragma once

#include <pybind11/pybind11.h>

#include <cstdint>
#include <string>

#include "readperf/symbols/symbol_config.h"

namespace readperf {

// `report --stdio --sort SORT_ORDER [--children|--no-children] --no-group` on the recording
// at `path`: per entry, in perf's order, "event", one text column per sort key (named by the
// key: "comm", "dso", "symbol", ...; the symbol's "[k]" level apart, as "level"), "period",
// "samples", "overhead" (percent of the event's period) and with `children` "children_period"
// and "children" (percent). Entries a filter hides are left out, as report does. Raises
// ValueError for a bad sort order, RuntimeError when the recording cannot be processed.
pybind11::dict report_table(const std::string& path, const SymbolConfig& symbols,
                            uint32_t max_stack, const std::string& sort_order, bool children);

}  // namespace readperf
