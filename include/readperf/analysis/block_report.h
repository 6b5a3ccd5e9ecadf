// `report --total-cycles` (builtin-report.c total_cycles_mode, util/block-info.c): in branch
// mode, the basic blocks the branches' cycle counts were given to, each symbol's blocks once
// per histogram entry whose branch target it is, sorted by their share of all the cycles.
//
//   for (const BlockReport::Entry& b : report.entries)
//     fmt::print("{:.2f}% {}\n", 100.0 * b.cycles_aggr / report.total_cycles, b.start_line);
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "readperf/analysis/branch_cycles.h"
#include "readperf/analysis/hist.h"
#include "readperf/analysis/resolver.h"

namespace readperf {

struct BlockReport {
  struct Entry {
    const Symbol* sym = nullptr;
    const Dso* dso = nullptr;  // of the entry that brought the symbol in
    uint64_t start = 0;        // offsets in the symbol
    uint64_t end = 0;
    uint64_t cycles_aggr = 0;
    uint64_t num_aggr = 0;
    // map__srcline() of the block's two ends ("??:0" when unknown), interned by the Resolver.
    std::string_view start_line, end_line;
  };
  std::vector<Entry> entries;  // in perf's order
  // Every branch's cycles, all events' (report.total_cycles), and the sum of each processed
  // entry's blocks' average cycles (block_report->cycles: a symbol counted once per entry).
  uint64_t total_cycles = 0;
  uint64_t block_cycles = 0;
};

// block_info__create_report() for one event's histogram (finished: its entries in output
// order).
BlockReport make_block_report(const Hists& hists, const BranchCycles& cycles, uint64_t total_cycles,
                              Resolver& resolver);

}  // namespace readperf
