// A kernel module's symbols from its .ko, as perf 6.1's dso__load() reads them for a module
// DSO (symbol.c, binary types BUILD_ID_CACHE, BUILD_ID_CACHE_DEBUGINFO, SYSTEM_PATH_KMODULE;
// symbol-elf.c dso__load_sym() with kmodule): the first candidate with a .symtab, its build-id
// checked against the recorded one; symbols at file offsets, the module's map looking up
// ip - start + .text's file offset. Without a .ko, a module keeps the symbols kallsyms gives
// it (kallsyms.h). A module recorded as "NAME.ko.xz" or "NAME.ko.gz" has its files decompressed
// in memory (compressed_file.h).
//
//   Result<ModuleSymbols> m =
//   load_kernel_module("/lib/modules/6.1.0-13-amd64/kernel/fs/ext4/ext4.ko",
//                                                build_id, cfg);
//   const Symbol* s = m->symbols.find(ip - map.start + m->text_pgoff);
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "readperf/format/error.h"
#include "readperf/symbols/build_id.h"
#include "readperf/symbols/kallsyms.h"
#include "readperf/symbols/symbol_config.h"
#include "readperf/symbols/symbol_table.h"

namespace readperf {

struct ModuleSymbols {
  std::string path;  // the file read (dso->symsrc_filename: what addr2line reads)
  // dso__symtab_origin(): 'B' (build-id cache), 'D' (its debug file), 'K' (the module's
  // path); 'm' (SYSTEM_PATH_KMODULE_COMP) for any of them when the module's name is compressed.
  char origin = 'K';
  uint64_t text_pgoff = 0;  // the module map's pgoff from now on (.text's file offset)
  SymbolTable symbols;
  // The other sections' maps ("[ext4].init.text"): perf relocates them by the module's
  // section addresses, which a .ko leaves 0, so they sit at [0, size).
  std::vector<KernelSectionMap> sections;
  std::vector<std::string> attempts;  // what was looked at, for --verbose
};

// `long_name` is the module's name as the recording gave it (a path, or "[name]" when perf
// record found none); `build_id` the recorded one (empty when unknown).
// `late`: kallsyms' symbols for a module perf loaded before the kernel's kallsyms
// (maps__split_kallsyms() inserts them into its table, at the module map's offsets).
Result<ModuleSymbols> load_kernel_module(const std::string& long_name, const BuildId& build_id,
                                         const SymbolConfig& config,
                                         std::span<const Symbol> late = {});

}  // namespace readperf
