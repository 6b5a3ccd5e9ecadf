// One event's histogram folded to one row per function, the unit readperf's own views
// (summary, csv) show: the report session's entries (any sort keys that include dso and
// symbol) summed by (dso, symbol), or by (dso, address) where no symbol was found, as
// `perf report --sort dso,sym` groups them (util/sort.c sort__sym_cmp compares addresses
// when either side has no symbol).
//
//   std::vector<FunctionRow> rows = function_rows(hists);   // by period, largest first
//   for (const FunctionRow& r : rows) print(r.name(), binary_name(r.dso), r.period);
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "readperf/analysis/hist.h"
#include "readperf/session/dso.h"
#include "readperf/symbols/symbol_table.h"

namespace readperf {

struct FunctionRow {
  const Dso* dso = nullptr;     // null: no map
  const Symbol* sym = nullptr;  // null: unresolved, `addr` names the row
  uint64_t addr = 0;            // map-relative address of an unresolved row
  char level = '.';             // 'k' kernel, '.' user
  uint64_t samples = 0;
  uint64_t period = 0;

  // The symbol's name, or the address as perf report prints it ("0x00000000004011a0").
  std::string name() const;
};

// The rows of `hists` by period, largest first; ties by samples, then in perf's output order.
std::vector<FunctionRow> function_rows(const Hists& hists);

// The binary a row's samples fell in: the DSO's path, "[kernel.kallsyms]", "[unknown]".
std::string_view binary_name(const Dso* dso);

// Where a function's source file comes from: DWARF line information, when the symbols layer
// reads it (in progress); until then no function has one. Returns "" when unknown.
using SourceFileLookup = std::function<std::string(const Dso* dso, const Symbol* sym)>;

}  // namespace readperf

#include "readperf/analysis/report_session.h"

namespace readperf {

// The report session readperf's own views run: every event's samples grouped by dso and
// symbol (`perf report --no-children --sort dso,sym`), no call chains; `per_thread` adds the
// thread to the keys (`--sort pid,dso,sym`) for totals per process; `tap` (may be null) sees
// every record first.
ReportSetup function_report_setup(const SymbolConfig& symbols, bool per_thread = false,
                                  EventSink* tap = nullptr);

}  // namespace readperf
