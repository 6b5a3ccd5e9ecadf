// C++ (and legacy Rust) symbol names as perf 6.1 prints them by default: demangled without
// parameters, return type or clone suffix, the way libiberty's cplus_demangle(name,
// DMGL_NO_OPTS) prints them (symbol-elf.c demangle_sym; perf shows "ns::K::spin" for
// _ZN2ns1K4spinEl.constprop.0).
//
//   std::optional<std::string> d = demangle_symbol("_ZNK3Foo3barEv");   // "Foo::bar"
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace readperf {

// The demangled name, or nullopt when `mangled` is not an Itanium C++ name ("_Z...") or does
// not demangle. Special names (vtables, thunks, guard variables) keep the form the demangler
// gives them.
//
// With `with_params`, the name as perf 6.4 and later print it: they demangle with
// abi::__cxa_demangle (util/demangle-cxx.cpp, when perf is built without libbfd, as Debian's
// is), which keeps the parameters, the return type and the clone suffix.
std::optional<std::string> demangle_symbol(std::string_view mangled, bool with_params = false);

// Whether the perf that wrote a recording (its HEADER_VERSION, "6.12.95") demangles C++ with
// parameters: 6.4 and later. The readers of a recording are that perf or a newer one.
bool perf_version_demangles_with_params(std::string_view perf_version);

}  // namespace readperf
