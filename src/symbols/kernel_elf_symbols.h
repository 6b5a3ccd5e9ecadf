// dso__load_sym() for a kernel DSO (symbol-elf.c, dso__process_kernel_symbol()): a vmlinux's
// or a kernel module's symbols, each in the map of its section. Private to the symbols layer
// (vmlinux.cpp, kernel_module.cpp).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "elf_file.h"
#include "readperf/format/error.h"
#include "readperf/symbols/build_id.h"
#include "readperf/symbols/kallsyms.h"
#include "readperf/symbols/symbol_table.h"

namespace readperf {

struct KernelElfSymbols {
  // The DSO's own symbols, the .text section's among them (at file offsets when adjusted).
  SymbolTable symbols;
  // .text's map as the first .text symbol gave it (relocated bounds, its file offset).
  std::optional<KernelSectionMap> text;
  // The maps of the other sections holding symbols, in the order they were met.
  std::vector<KernelSectionMap> sections;
};

// symsrc__init(): "Always reject images with a mismatched build-id" (one that cannot be read
// when the recording names one). Nothing to check without a recorded build-id.
Status check_recorded_build_id(const ElfFile& elf, const BuildId& recorded);

// The symbols of `elf`'s .symtab and .dynsym (the caller checked there is a .symtab),
// adjusted to file offsets when `adjust` (elf__needs_adjust_symbols()), the section maps
// relocated by `reloc`. Fails on a symbol of a missing section, and when no symbol is kept.
// `late`: symbols inserted into the DSO's own table after those (no fix-ups): the kallsyms
// symbols maps__split_kallsyms() adds to a module loaded before the kernel.
Result<KernelElfSymbols> place_kernel_symbols(const ElfFile& elf, uint64_t reloc, bool adjust,
                                              std::span<const Symbol> late = {});

}  // namespace readperf
