// Finding and loading the symbols of one user-space DSO the way perf 6.1's dso__load() does:
// candidate files in the order of binary_type_symtab[], each one rejected when its build-id
// differs from the recorded one, the first with a .symtab giving the symbols and the first
// with a .dynsym the runtime view (program headers, PLT).
//
//   DsoRef ref{.path = "/usr/lib/x86_64-linux-gnu/libc.so.6", .build_id = id};
//   DsoSymbols syms = load_dso_symbols(ref, cfg);
//   if (const Symbol* s = syms.table.find(map.map_ip(ip))) ...
//   for (const LoadAttempt& a : syms.attempts) fmt::print("{} {}: {}\n", a.origin(), a.path,
//                                                          a.outcome);
#pragma once

#include <string>
#include <vector>

#include "readperf/symbols/build_id.h"
#include "readperf/symbols/symbol_config.h"
#include "readperf/symbols/symbol_table.h"

namespace readperf {

enum class DsoKind : uint8_t {
  kUser,  // a file mapped by a process
  kVdso,  // "[vdso]": found only in the build-id cache, as .../vdso
  // "[vdso]" of a map, which no build-id table named first: perf reads it from the build-id
  // cache, else from a copy of its own vdso (vdso.c machine__findnew_vdso()), build-id allowing.
  kRunningVdso,
  kPerfMap,  // "/tmp/perf-PID.map": a JIT's symbol list, addresses are absolute
};

// What the recording says about a DSO.
struct DsoRef {
  std::string path;  // the long name: the mapped path, "[vdso]", "/tmp/perf-PID.map"
  BuildId build_id;  // empty when the recording has none
  DsoKind kind = DsoKind::kUser;
};

// dso.h enum dso_binary_type, the ones tried for user DSOs; the value is the letter
// dso__symtab_origin() shows.
enum class BinaryType : char {
  kJavaJit = 'j',
  kDebuglink = 'l',
  kBuildIdCache = 'B',
  kBuildIdCacheDebug = 'D',
  kFedoraDebuginfo = 'f',
  kUbuntuDebuginfo = 'u',
  kBuildIdDebuginfo = 'b',
  kSystemPath = 'd',
  kOpenEmbeddedDebuginfo = 'o',
  kMixedupUbuntuDebuginfo = 'x',
  kNotFound = '!',
};

// One candidate file, for --verbose: where it was looked for and what came of it.
struct LoadAttempt {
  BinaryType type = BinaryType::kNotFound;
  std::string path;     // empty when the type has no file for this DSO
  std::string outcome;  // "symtab", "dynsym", "symtab+dynsym", "unused", or why rejected
  char origin() const { return static_cast<char>(type); }
};

struct DsoSymbols {
  SymbolTable table;
  // The build-id used: the recorded one, else the one read from the local file.
  BuildId build_id;
  BinaryType origin = BinaryType::kNotFound;  // where the symbol tables came from
  std::string symtab_path;                    // the file read for symbols
  std::string runtime_path;                   // the file read for program headers and PLT
  std::vector<LoadAttempt> attempts;
  bool found() const { return origin != BinaryType::kNotFound; }
};

// Never fails: a DSO whose files are all missing or mismatched gets an empty table (perf then
// prints "[unknown]") and the attempts say why.
DsoSymbols load_dso_symbols(const DsoRef& ref, const SymbolConfig& config);

// Starts fetching from debuginfod (SymbolConfig::debuginfod_urls), in parallel, what
// load_dso_symbols() will ask it for: for each DSO, its binary when no local file has a
// .dynsym, its debug file when none has a .symtab. Looks at ELF headers only; returns at once.
void prefetch_from_debuginfod(const std::vector<DsoRef>& refs, const SymbolConfig& config);

// util/path.c path__join() as symbol.c symbol__join_symfs() uses it: `path` under the symfs
// (a '/' between them unless one is there), `path` itself without a symfs.
std::string join_symfs(const std::string& symfs, const std::string& path);

// build-id.c __dso__build_id_filename(): DIR/.build-id/xx/rest followed to the cached copy's
// `file` ("elf", "debug", "vdso", "kallsyms"); an old-style cache entry (the link is the
// binary itself) is returned as is. Also follows a link stored as a small text file holding
// its target, as a copy or checkout that cannot keep symlinks leaves it. Empty for an empty
// build-id.
std::string build_id_cache_path(const std::string& buildid_dir, const BuildId& id,
                                const char* file);

}  // namespace readperf
