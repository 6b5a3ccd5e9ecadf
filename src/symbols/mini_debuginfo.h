// MiniDebugInfo: the xz-compressed ELF some distributions (Fedora, RHEL, CentOS Stream) put in
// a stripped binary's `.gnu_debugdata` section, holding a .symtab with the function symbols
// .dynsym lacks (https://sourceware.org/gdb/current/onlinedocs/gdb.html/MiniDebugInfo.html).
// perf 6.1 does not read it; gdb, elfutils' libdwfl and systemd-coredump do.
#pragma once

#include <optional>

#include "elf_file.h"
#include "readperf/format/error.h"

namespace readperf {

// The ELF in `binary`'s .gnu_debugdata, decompressed; nullopt when it has none. Fails on a
// section that is not a whole xz stream, or decompresses to more than 256 MiB.
Result<std::optional<ElfFile>> read_mini_debuginfo(const ElfFile& binary);

}  // namespace readperf
