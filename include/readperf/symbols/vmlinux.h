// The kernel's symbols from a vmlinux (the unstripped kernel image a distribution's debug
// package ships: Debian's linux-image-*-dbg, Fedora's kernel-debuginfo), as perf 6.1 reads it
// (symbol.c dso__load_vmlinux(), symbol-elf.c dso__load_sym() for a kernel DSO). Compared with
// kallsyms: every symbol has its ELF size (addresses between functions have none), the kernel
// map becomes the .text section, and symbols of other sections get maps of their own.
//
//   Result<KernelSymbols> k = load_vmlinux("/usr/lib/debug/boot/vmlinux-6.1.0-13-amd64",
//                                          kernel_build_id, RefRelocSym{"_text", pgoff}, cfg);
//   const Symbol* s = k->kernel.find(ip - k->text_map->start + k->text_map->pgoff);
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "readperf/format/error.h"
#include "readperf/symbols/build_id.h"
#include "readperf/symbols/kallsyms.h"
#include "readperf/symbols/symbol_config.h"

namespace readperf {

// Reads `name` (under cfg.symfs when relative): refused when the recording names the kernel's
// build-id and the file's differs or cannot be read, when it is not ELF, or has no .symtab
// ("If the vmlinux is stripped, fail so we will fall back to using kallsyms"); a file none of
// whose symbols perf keeps reads as no symbols (an error too: perf goes on looking). `ref`
// (the recording's "[kernel.kallsyms]_text" MMAP) gives the relocation: its address minus the
// file's value of that symbol.
Result<KernelSymbols> load_vmlinux(const std::string& name, const BuildId& build_id,
                                   const std::optional<RefRelocSym>& ref,
                                   const SymbolConfig& config);

// symbol.c vmlinux_path__init(): the files perf tries in turn ("vmlinux" in the working
// directory and /boot/vmlinux; then, without a symfs and for a recording that names its
// kernel's release, /boot/vmlinux-REL, /usr/lib/debug/boot/vmlinux-REL,
// /lib/modules/REL/build/vmlinux, /usr/lib/debug/lib/modules/REL/vmlinux and
// /usr/lib/debug/boot/vmlinux-REL.debug).
std::vector<std::string> vmlinux_search_path(const SymbolConfig& config);

}  // namespace readperf
