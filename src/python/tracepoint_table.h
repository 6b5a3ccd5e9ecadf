// `Recording.tracepoint_fields(event)`: one tracepoint event's samples as columns, their raw
// data decoded by the recording's format (output/tracepoint_values.h), for a pandas DataFrame
// (readperf/__init__.py builds it).
#pragma once

#include <pybind11/pybind11.h>

#include <cstdint>
#include <string>
#include <vector>

#include "readperf/symbols/symbol_config.h"

namespace readperf {

// Reads `path` again and returns {"columns": {name: values}, "error": None or (message,
// what, offset)}: common_time, common_cpu, common_tgid, common_tid, common_comm (the
// sample's), then each format field (common_* first) of the samples of the evsels `events`
// (one tracepoint's). Numbers come as numpy int64 or uint64 arrays, strings as (codes,
// names) for a Categorical, other arrays as lists of Python objects.
pybind11::dict tracepoint_columns(const std::string& path, const SymbolConfig& symbols,
                                  std::vector<uint32_t> events);

}  // namespace readperf
