// JIT symbol files: /tmp/perf-PID.map, written by a JIT (V8, the JVM through perf-map-agent,
// LuaJIT...) as one "START SIZE name" line per function, START and SIZE in hex. perf reads it
// for executable anonymous memory; its addresses are absolute, so look up the sample ip as is.
//
//   Result<SymbolTable> t = load_perf_map("/tmp/perf-1234.map");
//   const Symbol* s = t->find(ip);
#pragma once

#include <string>
#include <string_view>

#include "readperf/format/error.h"
#include "readperf/symbols/symbol_table.h"

namespace readperf {

// symbol.c dso__load_perf_map(): lines too short to hold a size and a name are skipped;
// sizes are kept as given (no end fix-ups). Of two entries at one address the first is kept.
Result<SymbolTable> load_perf_map(const std::string& path);
// The same, from text already in memory.
SymbolTable parse_perf_map(std::string_view text);

}  // namespace readperf
