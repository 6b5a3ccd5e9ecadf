// The IPC column of `report`'s branch mode (a --sort naming "symbol" gets ipc_lbr): each
// branch's cycle count accounted to the basic block it ends, per symbol, then the symbol's
// instructions per cycle and the share of its instructions those blocks cover.
//
//   BranchCycles cycles;
//   cycles.account(from, &previous_to, flags.cycles());   // hist.c hist__account_cycles()
//   ...
//   cycles.compute(resolver);                              // once, after the samples
//   std::string_view text = cycles.ipc_text(sym);          // "1.79  [  2.2%]"
//
// perf keeps this in the symbol's annotation (annotate.c __symbol__account_cycles(), then
// annotation__compute_ipc() over objdump's instructions when the report is sorted); here the
// instructions are decoded from the binary (x86, Zydis), as objdump's linear sweep finds them.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "readperf/analysis/resolver.h"

namespace readperf {

class BranchCycles {
 public:
  // annotate.c addr_map_symbol__account_cycles(): the branch at `from` took `cycles` since
  // the previous branch's target `start` (nullptr when unknown, as for a stack that is not
  // every branch). The block counts from `start` when both are in one symbol (or `start` is
  // the symbol's first byte).
  void account(const Frame& from, const Frame* start, unsigned cycles);

  // annotate.c symbol__annotate2() -> annotation__compute_ipc() for every symbol accounted:
  // its code read through `resolver` (a symbol whose code cannot be read keeps no IPC, as
  // perf's failed annotation).
  void compute(Resolver& resolver);

  // sort.c hist_entry__sym_ipc_snprintf()'s "%-5.2f [%5.1f%%]" for `sym`.
  std::string_view ipc_text(const Symbol* sym) const;

  // A basic block of `sym` some branch ended (annotate.h struct cyc_hist): from `start` to
  // the branch at `end` (offsets in the symbol), every branch's cycles summed in
  // cycles_aggr, num_aggr of them; the longest block seen for that end gives `start`.
  struct Block {
    uint64_t start = 0;
    uint64_t end = 0;
    uint64_t cycles_aggr = 0;
    uint64_t num_aggr = 0;
  };
  // The blocks of `sym`, by their end (block-info.c block_info__process_sym()'s walk).
  std::vector<Block> blocks(const Symbol* sym) const;
  // A map `sym` was met through, for its source lines; null if it was never accounted.
  const Map* map_of(const Symbol* sym) const;

 private:
  // annotate.h struct cyc_hist, the fields the IPC needs.
  struct CycleHist {
    uint64_t start = 0;
    uint64_t cycles = 0;
    uint64_t cycles_aggr = 0;  // every branch ending here, whatever its block
    uint64_t num_aggr = 0;
    uint32_t num = 0;
    uint16_t reset = 0;
    bool have_start = false;
  };
  struct SymbolCycles {
    const Map* map = nullptr;
    std::unordered_map<uint64_t, CycleHist> by_offset;  // perf's cycles_hist, sparse
    std::string text;
  };
  std::unordered_map<const Symbol*, SymbolCycles> symbols_;
};

}  // namespace readperf
