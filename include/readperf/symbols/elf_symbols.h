// The symbols of a user-space ELF binary, as perf 6.1's dso__load_sym() and
// dso__synthesize_plt_symbols() build them, at the addresses perf looks symbols up with: file
// offsets, the map-relative address map__map_ip() gives (ip - map.start + map.pgoff).
//
//   Result<SymbolTable> t = load_elf_symbols("/usr/lib/debug/.build-id/93/ac61....debug",
//                                            "/usr/lib/x86_64-linux-gnu/libc.so.6");
//   const Symbol* s = t->find(map.map_ip(ip));
#pragma once

#include <string>

#include "readperf/format/error.h"
#include "readperf/symbols/symbol_table.h"

namespace readperf {

struct ElfLoadOptions {
  bool demangle = true;          // perf's default; --no-demangle turns it off
  bool demangle_params = false;  // perf 6.4+'s form (SymbolConfig::demangle_params)
};

// `syms_path` gives the symbol tables (.symtab, then .dynsym, each pass followed by perf's
// fix-ups); `runtime_path` (the binary that was run; empty: the same file) gives the program
// headers for the address adjustment, the sections a debug file leaves NOBITS, and the PLT.
// Fails when a file cannot be read as ELF. A symbol naming a section that does not exist ends
// the loading early, as in perf: what was read so far is kept, without the PLT.
Result<SymbolTable> load_elf_symbols(const std::string& syms_path,
                                     const std::string& runtime_path = "",
                                     const ElfLoadOptions& options = {});

}  // namespace readperf
