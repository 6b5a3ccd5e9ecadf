// Kernel symbols from a kallsyms file (/proc/kallsyms or the build-id cache's copy), as perf
// 6.1 loads them (symbol.c dso__load_kallsyms): text, weak, data and bss symbols, sized by
// the next symbol, de-duplicated, then moved by the kernel's relocation delta and split into
// the kernel and its modules.
//
// The relocation: at record time perf writes the kernel MMAP as "[kernel.kallsyms]_text" with
// pgoff = the address of _text then (machine.c, ref_reloc_sym). When the kallsyms file comes
// from another boot (KASLR), every kernel symbol moves by delta = kallsyms(_text) - pgoff, so
// a sample ip looks up as is:
//
//   KernelSymbols k = load_kernel_symbols(kernel_build_id,
//                                         RefRelocSym{"_text", kernel_mmap.pgoff}, cfg);
//   const Symbol* s = k.find(ip);                          // kernel map: identity
//   const Symbol* m = k.find_module("[ext4]", ip);         // modules: absolute too
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "readperf/format/error.h"
#include "readperf/symbols/build_id.h"
#include "readperf/symbols/symbol_config.h"
#include "readperf/symbols/symbol_table.h"

namespace readperf {

// The symbol the recording anchored the kernel's address with: the name after
// "[kernel.kallsyms]" in the kernel MMAP record's file name, and that record's pgoff. perf
// ignores a zero pgoff (kptr_restrict at record time).
struct RefRelocSym {
  std::string name = "_text";
  uint64_t addr = 0;
};

// A map a vmlinux gives the kernel (symbol-elf.c dso__process_kernel_symbol()): its .text
// replaces the kernel map's bounds, each other section holding symbols gets a map of its own,
// named "[kernel.kallsyms]" + the section's name. At recorded addresses (relocated); symbols
// are looked up at map__map_ip() (ip - start + pgoff), or at the address itself for an
// identity map.
struct KernelSectionMap {
  std::string name;  // ".text", ".init.text", ...
  uint64_t start = 0;
  uint64_t end = 0;  // 0: up to the next kernel map (maps__fixup_end())
  uint64_t pgoff = 0;
  bool identity = false;
  SymbolTable symbols;  // empty for .text: its symbols are KernelSymbols::kernel
};

struct KernelSymbols {
  // Kernel text and data: from kallsyms at recorded addresses (the relocation delta applied);
  // from a vmlinux at the file offsets of its .text map (see text_map).
  SymbolTable kernel;
  // Module symbols by the module's short name ("[ext4]"), at the absolute addresses of the
  // kallsyms file (perf makes them relative to the module's map; symoff is the same).
  std::map<std::string, SymbolTable, std::less<>> modules;
  // For each module, the start of each run of its symbols in address order (the first, and
  // any after another module's or the kernel's). maps__split_kallsyms() looks the module's
  // map up there and, when perf already loaded the module's Dso (a sample in the module came
  // before the first in the kernel), discards that one symbol and keeps the rest.
  std::map<std::string, std::vector<uint64_t>, std::less<>> module_run_starts;
  uint64_t delta = 0;                 // kallsyms(ref) - ref.addr
  BuildId build_id;                   // the recorded kernel's, when the recording names it
  std::string path;                   // the kallsyms file read; empty when none was found
  std::vector<std::string> attempts;  // what was looked at, for --verbose
  // Read from a vmlinux (symbol.c dso__load_vmlinux()): `path` is its name as perf keeps it
  // (the kernel Dso's long name, which --show-kernel-path prints and addr2line reads), `file`
  // the file opened (under --symfs), `reloc` what the recording's reference symbol moved it by.
  // `text_map` is the kernel map once the first .text symbol was read (its start, end and
  // file offset), `sections` the maps of the other sections, in the order perf made them.
  bool from_vmlinux = false;
  bool adjust_symbols = false;  // dso->adjust_symbols: symbols at file offsets
  std::string file;
  uint64_t reloc = 0;
  std::optional<KernelSectionMap> text_map;
  std::vector<KernelSectionMap> sections;

  bool found() const { return !path.empty(); }
  const Symbol* find(uint64_t ip) const { return kernel.find(ip); }
  const Symbol* find_module(std::string_view module, uint64_t ip) const;
  // The kernel map's range once loaded (map__fixup_start/end): first symbol's start, last
  // symbol's end; {0, 0} when empty.
  std::pair<uint64_t, uint64_t> kernel_range() const;
};

// Parses kallsyms text; `ref` (when given) sets the relocation delta and must name a symbol
// of the file (perf fails the load otherwise).
Result<KernelSymbols> parse_kallsyms(std::string_view text, const std::optional<RefRelocSym>& ref);
Result<KernelSymbols> load_kallsyms(const std::string& path, const std::optional<RefRelocSym>& ref);

// symbol.c dso__load_kernel_sym(): --kallsyms if given, else -k/--vmlinux if given (each alone,
// without falling back); else a vmlinux: the build-id cache's (DIR/.build-id/xx/rest/elf), then
// perf's vmlinux path (vmlinux.h vmlinux_search_path(), unless ignore_vmlinux); nothing more
// with a symfs; else /proc/kallsyms when the kernel has no build-id or it is the running
// kernel's, else DIR/[kernel.kallsyms]/<build-id>/kallsyms (or the old-style
// DIR/[kernel.kallsyms]/<id>).
KernelSymbols load_kernel_symbols(const BuildId& build_id, const std::optional<RefRelocSym>& ref,
                                  const SymbolConfig& config);

// The running kernel's release (cfg.proc_osrelease's first line), empty when unknown.
std::string running_kernel_release(const SymbolConfig& config);

// The kallsyms file load_kernel_symbols() reads first for a kernel with this build-id (the
// recording's BUILD_ID feature names it before any record is read); empty when it would read
// none.
std::string first_kallsyms_path(const BuildId& build_id, const SymbolConfig& config);

// Starts reading and parsing `path` on a thread of its own, so that the first sample's
// load_kallsyms(path) finds it done: /proc/kallsyms alone costs the kernel ~25 ms to format.
// The result is the same as loading it then (the later call takes it, once).
void prefetch_kallsyms(const std::string& path);

}  // namespace readperf
