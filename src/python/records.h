// `Recording.records()`: every kernel record of a recording in perf's order, as Python
// objects with perf's scripting fields by name (readperf/__init__.py wraps it).
#pragma once

#include <pybind11/pybind11.h>

#include <optional>
#include <string>
#include <vector>

#include "readperf/symbols/symbol_config.h"

namespace readperf {

// Adds the Record and RecordIterator types to `m`.
void add_record_types(pybind11::module_& m);

// An iterator over the records of `path` (read again, in a thread of its own, while the
// caller iterates). `event_names`: perf's names by evsel index; `types` and `events` the
// record types and evsel indexes to hand out (empty: all). At damage, the iterator calls
// `on_error((message, what, offset))` after the records before it: it raises or returns.
pybind11::object iterate_records(const std::string& path, const SymbolConfig& symbols,
                                 uint32_t max_stack, std::vector<std::string> event_names,
                                 std::vector<uint32_t> types, std::vector<uint32_t> events,
                                 bool callchains, pybind11::object on_error);

}  // namespace readperf
