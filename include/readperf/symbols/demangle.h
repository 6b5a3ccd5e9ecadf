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
std::optional<std::string> demangle_symbol(std::string_view mangled);

}  // namespace readperf
