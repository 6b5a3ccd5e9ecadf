// `-v` for script and report: where the symbols of each binary the samples hit came from,
// and, for a binary that was not found, every place readperf looked.
//
//   if (verbose) print_symbol_sources(resolver, stderr);
#pragma once

#include <cstdio>

#include "readperf/analysis/resolver.h"

namespace readperf {

void print_symbol_sources(const Resolver& resolver, FILE* err);

}  // namespace readperf
