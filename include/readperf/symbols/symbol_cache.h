// Every DSO's symbols, loaded once, lazily, keyed by (path, build-id, kind); and the kernel's.
// Callers keep the returned reference (stable for the cache's life) next to their own DSO
// record, so a sample costs one binary search, or one probe of the (dso, address) memo.
//
//   SymbolCache cache(SymbolConfig::from_environment());
//   const DsoSymbols& libc = cache.dso(dso.long_name, dso_build_id);
//   const Symbol* s = cache.find(libc, map.map_ip(ip));
//   const KernelSymbols& k = cache.kernel(kernel_build_id, RefRelocSym{"_text", pgoff});
//
// Not thread-safe: one cache per thread, or a lock around it.
#pragma once

#include <array>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

#include "readperf/symbols/build_id.h"
#include "readperf/symbols/dso_loader.h"
#include "readperf/symbols/kallsyms.h"
#include "readperf/symbols/symbol_config.h"

namespace readperf {

// What kind of file perf takes a DSO name for: "[vdso]", "/tmp/perf-PID.map", or a file.
DsoKind dso_kind_for(std::string_view path);

class SymbolCache {
 public:
  explicit SymbolCache(SymbolConfig config);

  const SymbolConfig& config() const { return config_; }

  // The DSO's symbols, loading them on the first call for this (path, build-id, kind).
  const DsoSymbols& dso(std::string_view path, const BuildId& build_id, DsoKind kind);
  const DsoSymbols& dso(std::string_view path, const BuildId& build_id) {
    return dso(path, build_id, dso_kind_for(path));
  }
  // The kernel's symbols, loaded on the first call (later calls return the same, whatever
  // their arguments: a recording has one kernel).
  const KernelSymbols& kernel(const BuildId& build_id, const std::optional<RefRelocSym>& ref);

  // dsos.table.find(addr), remembered per (DSO, address): samples repeat addresses a lot.
  const Symbol* find(const DsoSymbols& dso, uint64_t addr);

  size_t dso_count() const { return dsos_.size(); }

  // The recording's kernel release (SymbolConfig::recorded_os_release), for a pipe-mode
  // recording that states it only as its records arrive; must come before the kernel loads.
  void set_recorded_os_release(std::string release) {
    config_.recorded_os_release = std::move(release);
  }
  // SymbolConfig::demangle_params for a pipe-mode recording, whose perf version arrives as a
  // record; must come before the first symbol table loads.
  void set_demangle_params(bool on) { config_.demangle_params = on; }

 private:
  struct MemoEntry {
    const DsoSymbols* dso = nullptr;
    uint64_t addr = 0;
    const Symbol* sym = nullptr;
  };
  static constexpr size_t kMemoBits = 13;

  SymbolConfig config_;
  std::unordered_map<std::string, std::unique_ptr<DsoSymbols>> dsos_;
  std::string key_;  // reused, so a hit allocates nothing
  std::unique_ptr<KernelSymbols> kernel_;
  std::unique_ptr<std::array<MemoEntry, size_t{1} << kMemoBits>> memo_;
};

}  // namespace readperf
