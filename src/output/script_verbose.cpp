// `script -v`: where the symbols of each binary the samples hit came from, and what was
// missing. perf scatters this over its debug messages (symbol.c dso__load: "Using ... for
// symbols", "no symbols found in ..."); readperf lists it once, after the samples.
#include <fmt/format.h>

#include "readperf/analysis/resolver.h"
#include "readperf/output/symbol_sources.h"
#include "script_internal.h"

namespace readperf {

void print_symbol_sources(const Resolver& resolver, FILE* err) {
  if (const KernelSymbols* k = resolver.kernel_symbols()) {
    if (k->found()) {
      fmt::print(err, "[kernel.kallsyms]: symbols from {}{}\n", k->path,
                 k->from_vmlinux ? " (vmlinux)" : "");
    } else {
      fmt::print(err, "[kernel.kallsyms]: no symbols found\n");
    }
    for (const std::string& a : k->attempts) fmt::print(err, "    {}\n", a);
  }
  resolver.for_each_loaded([&](const Dso& dso, const DsoSymbols& syms) {
    if (syms.found()) {
      fmt::print(err, "{}: symbols from {} ({})\n", dso.long_name, syms.symtab_path,
                 static_cast<char>(syms.origin));
    } else {
      fmt::print(err, "{}: missing{}\n", dso.long_name,
                 dso.build_id.empty() ? "" : fmt::format(" (build-id {})", syms.build_id.hex()));
    }
    for (const LoadAttempt& a : syms.attempts) {
      fmt::print(err, "    {} {}: {}\n", a.origin(), a.path.empty() ? "-" : a.path, a.outcome);
    }
  });
}

}  // namespace readperf
