// Binaries and debug files fetched by build-id from debuginfod servers, through elfutils'
// libdebuginfod: its cache ($DEBUGINFOD_CACHE_PATH, else ~/.cache/debuginfod_client, misses
// remembered there too), its timeouts ($DEBUGINFOD_TIMEOUT, readperf's default 10 s instead of
// 90 s when unset; $DEBUGINFOD_MAXTIME, 120 s), its server list ($DEBUGINFOD_URLS, or the
// SymbolConfig's `debuginfod_urls`, which is put there).
//
//   debuginfod_prefetch(urls, {{libc_id, DebuginfodKind::kDebuginfo}, ...});  // in parallel
//   std::string path = debuginfod_find(urls, libc_id, DebuginfodKind::kDebuginfo);  // waits
//
// A server that cannot be reached (refused, timed out, a transport error) gives one warning
// (symbol_files.h add_symbol_warning) and no more queries to that server list for the rest of
// the process: a report then goes on without those symbols rather than waiting on every
// binary. A file the servers do not have is no warning.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "readperf/symbols/build_id.h"

namespace readperf {

enum class DebuginfodKind { kExecutable, kDebuginfo };

// The file in libdebuginfod's cache, fetched now unless cached or being fetched by a prefetch
// (then this waits for it); empty when no server has it. Thread-safe.
std::string debuginfod_find(const std::string& urls, const BuildId& id, DebuginfodKind kind);

// Starts fetching `wanted` on up to 8 threads, so that the debuginfod_find() calls a report
// makes one binary at a time find them fetched. Returns at once; debuginfod_shutdown() cancels
// the fetches still running.
void debuginfod_prefetch(const std::string& urls,
                         const std::vector<std::pair<BuildId, DebuginfodKind>>& wanted);

// Cancels the prefetches and waits for their threads; later prefetches start none. A program
// calls it before it returns from main(): the libraries under libdebuginfod (libcurl,
// OpenSSL) tear themselves down in exit handlers, and a prefetch thread still inside them
// then crashes (a static destructor that joins comes too late: the handlers registered after
// it, OpenSSL's among them, have already run).
void debuginfod_shutdown();

}  // namespace readperf
