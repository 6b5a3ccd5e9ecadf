// Where the symbols layer opens files: the disk, and the symbol archives given with
// `--symbols` (SymbolConfig::archives), whose members are named "ARCHIVE/member" (an archive is
// a file, so no path on disk starts that way). Everything that reads a symbol file (ELF
// symbols, DWARF lines and inline frames, CFI, kallsyms) opens it here, so that a path the
// lookup found in an archive reads like any other.
//
//   std::string p = archive_member_path("syms.tar.zst", ".build-id/93/ac61.../debug");
//   if (is_symbol_file(p)) { int fd = open_symbol_file(p); ... close(fd); }
//   for (const std::string& w : take_symbol_warnings()) fmt::print(stderr, "readperf: {}\n", w);
//
// Archives are opened once per process, when first named (thread-safe).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "readperf/format/error.h"

namespace readperf {

// Opens `archive` the first time it is named (a failure is kept as a warning, and its members
// are then missing); returns the prefix of its members' paths (the archive's path), or empty
// when it cannot be read.
std::string mount_symbol_archive(const std::string& archive);
// The path of `member` inside `archive` (mounting it), or empty.
std::string archive_member_path(const std::string& archive, std::string_view member);

// A regular file on disk or a member of an open archive (links inside it followed).
bool is_symbol_file(const std::string& path);
// open(2) for reading, O_CLOEXEC; -1 with errno set when it fails.
int open_symbol_file(const std::string& path);
// The whole file, when at most `max_size` bytes (/proc files, whose size stat() does not tell,
// are read to their end).
Result<std::string> read_symbol_file(const std::string& path,
                                     uint64_t max_size = uint64_t{1} << 32);
// Reads a whole file on disk with read(2) (no iostreams); /proc files, whose size stat() does
// not tell, included.
Result<std::string> read_whole_file(const std::string& path);
// The names in a directory on disk or in an archive.
std::vector<std::string> list_symbol_dir(const std::string& dir);

// A warning for the user about a symbol source (an archive that could not be read, a
// debuginfod server that did not answer), kept once per text.
void add_symbol_warning(std::string text);
// The warnings added since the last call, in order.
std::vector<std::string> take_symbol_warnings();

}  // namespace readperf
