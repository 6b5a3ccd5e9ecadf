#include "readperf/symbols/symbol_cache.h"

namespace readperf {

DsoKind dso_kind_for(std::string_view path) {
  if (path == "[vdso]") return DsoKind::kVdso;
  // symbol.c dso__load(): perfmap = strncmp(dso->name, "/tmp/perf-", 10) == 0.
  if (path.starts_with("/tmp/perf-")) return DsoKind::kPerfMap;
  return DsoKind::kUser;
}

SymbolCache::SymbolCache(SymbolConfig config)
    : config_(std::move(config)),
      memo_(std::make_unique<std::array<MemoEntry, size_t{1} << kMemoBits>>()) {}

const DsoSymbols& SymbolCache::dso(std::string_view path, const BuildId& build_id, DsoKind kind) {
  key_.assign(path);
  key_.push_back('\0');
  key_.push_back(static_cast<char>(kind));
  key_.append(reinterpret_cast<const char*>(build_id.bytes().data()), build_id.size());
  auto it = dsos_.find(key_);
  if (it != dsos_.end()) return *it->second;
  DsoRef ref{std::string(path), build_id, kind};
  auto loaded = std::make_unique<DsoSymbols>(load_dso_symbols(ref, config_));
  return *dsos_.emplace(key_, std::move(loaded)).first->second;
}

const KernelSymbols& SymbolCache::kernel(const BuildId& build_id,
                                         const std::optional<RefRelocSym>& ref) {
  if (!kernel_) {
    kernel_ = std::make_unique<KernelSymbols>(load_kernel_symbols(build_id, ref, config_));
    kernel_->build_id = build_id;
  }
  return *kernel_;
}

const Symbol* SymbolCache::find(const DsoSymbols& dso, uint64_t addr) {
  uint64_t h = (reinterpret_cast<uintptr_t>(&dso) >> 4) ^ addr;
  h *= 0x9e3779b97f4a7c15ull;
  MemoEntry& e = (*memo_)[h >> (64 - kMemoBits)];
  if (e.dso == &dso && e.addr == addr) return e.sym;
  e.dso = &dso;
  e.addr = addr;
  e.sym = dso.table.find(addr);
  return e.sym;
}

}  // namespace readperf
