// The ELF symbol loader on already opened files, for the DSO loader that opened them while
// checking build-ids.
#pragma once

#include "elf_file.h"
#include "readperf/symbols/elf_symbols.h"

namespace readperf {

// symbol.c dso__load() after the search: dso__load_sym() on `syms` (with `runtime`), then, if
// that found any symbol, the PLT entries of `runtime`. With `dynsym_from`, the .dynsym pass
// reads that file instead of `syms` (a MiniDebugInfo .symtab, then the binary's .dynsym).
Result<SymbolTable> load_elf_symbols(const ElfFile& syms, const ElfFile& runtime,
                                     const ElfLoadOptions& options,
                                     const ElfFile* dynsym_from = nullptr);

}  // namespace readperf
