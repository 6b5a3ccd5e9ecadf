#include "readperf/analysis/block_report.h"

#include <algorithm>
#include <set>
#include <string_view>
#include <tuple>
#include <unordered_map>

namespace readperf {

namespace {

// block_total_cycles_pct_sort(): the share in thousandths of a percent, truncated.
int64_t pct_key(const BlockReport::Entry& e, uint64_t total_cycles) {
  if (!total_cycles) return 0;
  double v = static_cast<double>(e.cycles_aggr) / static_cast<double>(total_cycles) * 100000.0;
  return static_cast<int64_t>(v);
}

}  // namespace

BlockReport make_block_report(const Hists& hists, const BranchCycles& cycles, uint64_t total_cycles,
                              Resolver& resolver) {
  BlockReport r;
  r.total_cycles = total_cycles;
  // block_info__process_sym() for each entry with a map and a symbol (hists->entries, in
  // output order): the symbol's blocks added to the block histogram, where one of the same
  // symbol name, start and end (block_info__cmp()) is found again and kept as it was.
  // A symbol's blocks and their averages' sum are the same for every entry it is the target
  // of: found once.
  struct SymbolBlocks {
    std::vector<BranchCycles::Block> blocks;
    uint64_t avg_sum = 0;
  };
  std::unordered_map<const Symbol*, SymbolBlocks> by_symbol;
  std::set<std::tuple<std::string_view, uint64_t, uint64_t>> seen;  // name, start, end
  for (uint32_t id : hists.order()) {
    const HistEntry& he = hists.entry(id);
    if (!he.sym || !he.dso) continue;
    auto [it, first] = by_symbol.try_emplace(he.sym);
    SymbolBlocks& sb = it->second;
    if (first) {
      sb.blocks = cycles.blocks(he.sym);
      for (const BranchCycles::Block& b : sb.blocks) sb.avg_sum += b.cycles_aggr / b.num_aggr;
    }
    r.block_cycles += sb.avg_sum;
    // A symbol met again adds no block: each is already there.
    if (!first) continue;
    const Map* map = cycles.map_of(he.sym);
    for (const BranchCycles::Block& b : sb.blocks) {
      if (!seen.emplace(he.sym->name, b.start, b.end).second) continue;
      BlockReport::Entry e;
      e.sym = he.sym;
      e.dso = he.dso;
      e.start = b.start;
      e.end = b.end;
      e.cycles_aggr = b.cycles_aggr;
      e.num_aggr = b.num_aggr;
      // block_range_entry(): map__srcline(map, sym->start + offset, sym).
      auto srcline = [&](uint64_t offset) {
        Frame f;
        f.map = map;
        f.dso = map ? map->dso : nullptr;
        f.sym = he.sym;
        f.addr = he.sym->start + offset;
        f.ip = map ? map->unmap_ip(f.addr) : f.addr;
        f.sym_addr = f.addr;
        return resolver.srcline(f, false);
      };
      e.start_line = srcline(b.start);
      e.end_line = srcline(b.end);
      r.entries.push_back(e);
    }
  }
  // The block histogram's tree (hists__findnew_entry() with block_info__cmp(): a later name
  // goes left, a later start or end right) walked in order, then output-sorted by the share
  // of cycles, ties in that order.
  std::sort(r.entries.begin(), r.entries.end(),
            [](const BlockReport::Entry& a, const BlockReport::Entry& b) {
              int c = a.sym->name.compare(b.sym->name);
              if (c != 0) return c > 0;
              if (a.start != b.start) return a.start < b.start;
              return a.end < b.end;
            });
  std::stable_sort(r.entries.begin(), r.entries.end(),
                   [&](const BlockReport::Entry& a, const BlockReport::Entry& b) {
                     return pct_key(a, total_cycles) > pct_key(b, total_cycles);
                   });
  return r;
}

}  // namespace readperf
