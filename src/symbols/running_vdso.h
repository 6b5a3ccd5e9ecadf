// The vdso perf reads a recording's "[vdso]" with when no build-id names another: a copy of
// its own process's vdso (util/vdso.c get_file(), "/tmp/perf-vdso.so-XXXXXX"). Private to the
// symbols library.
#pragma once

#include <string>

#include "readperf/symbols/symbol_config.h"

namespace readperf {

// A readable path holding that copy: SymbolConfig::running_vdso when set, else a memfd
// (/proc/self/fd/N) filled once with this process's [vdso] mapping; empty when there is none.
const std::string& running_vdso_file(const SymbolConfig& cfg);

}  // namespace readperf
