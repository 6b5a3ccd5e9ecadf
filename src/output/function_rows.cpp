#include "readperf/output/function_rows.h"

#include <fmt/format.h>

#include <algorithm>
#include <unordered_map>

namespace readperf {

std::string FunctionRow::name() const {
  if (sym) return std::string(sym->name);
  // sort.c _hist_entry__sym_snprintf(): an unresolved address, 16 hex digits (BITS_PER_LONG/4).
  return fmt::format("{:#018x}", addr);
}

std::string_view binary_name(const Dso* dso) {
  return dso ? std::string_view(dso->long_name) : std::string_view("[unknown]");
}

namespace {

struct RowKey {
  const Dso* dso;
  const Symbol* sym;
  uint64_t addr;
  char level;
  bool operator==(const RowKey&) const = default;
};

struct RowKeyHash {
  size_t operator()(const RowKey& k) const {
    size_t h = std::hash<const void*>()(k.dso);
    h = h * 31 + std::hash<const void*>()(k.sym);
    h = h * 31 + std::hash<uint64_t>()(k.addr);
    return h * 31 + static_cast<unsigned char>(k.level);
  }
};

}  // namespace

std::vector<FunctionRow> function_rows(const Hists& hists) {
  std::vector<FunctionRow> rows;
  std::unordered_map<RowKey, size_t, RowKeyHash> index;
  // Perf's output order first, so that equal periods keep the order report prints them in.
  for (uint32_t id : hists.order()) {
    const HistEntry& e = hists.entry(id);
    RowKey key{e.dso, e.sym, e.sym ? 0 : e.ip, e.level};
    auto [it, created] = index.try_emplace(key, rows.size());
    if (created) {
      FunctionRow r;
      r.dso = e.dso;
      r.sym = e.sym;
      r.addr = key.addr;
      r.level = e.level;
      rows.push_back(r);
    }
    FunctionRow& r = rows[it->second];
    r.samples += e.nr_events;
    r.period += e.period;
  }
  std::stable_sort(rows.begin(), rows.end(), [](const FunctionRow& a, const FunctionRow& b) {
    if (a.period != b.period) return a.period > b.period;
    return a.samples > b.samples;
  });
  return rows;
}

}  // namespace readperf

namespace readperf {

ReportSetup function_report_setup(const SymbolConfig& symbols, bool per_thread, EventSink* tap) {
  ReportSetup setup;
  // Both orders always parse: they are perf's own key names.
  setup.hist.sort = *parse_sort_keys(per_thread ? "pid,dso,sym" : "dso,sym");
  setup.hist.children = false;
  setup.hist.use_callchain = false;
  setup.symbols = symbols;
  setup.tap = tap;
  return setup;
}

}  // namespace readperf
