#include "readperf/analysis/branch_cycles.h"

#include <fmt/format.h>

#include <algorithm>

#include "readperf/symbols/x86_insn.h"

namespace readperf {

void BranchCycles::account(const Frame& from, const Frame* start, unsigned cycles) {
  if (!cycles) return;
  const Symbol* sym = from.sym;
  // IPC needs the whole block in one function; a jump from elsewhere to the function's first
  // byte counts too (perf compares the target with sym->start + map->start).
  uint64_t saddr = 0;
  if (start &&
      (start->sym == sym || (sym && from.map && start->ip == sym->start + from.map->start))) {
    saddr = start->addr;
  }
  // symbol__account_cycles(): the symbol's cycles_hist exists from its first branch on, even
  // one outside its range.
  if (!sym) return;
  SymbolCycles& sc = symbols_[sym];
  if (!sc.map) sc.map = from.map;
  const uint64_t addr = from.addr;
  if (addr < sym->start || addr >= sym->end) return;
  if (saddr) {
    if (saddr < sym->start || saddr >= sym->end) return;
    if (saddr >= addr) saddr = 0;
  }
  const bool have_start = saddr != 0;
  const uint64_t block_start = have_start ? saddr - sym->start : 0;
  // __symbol__account_cycles(): one basic block per final jump; of overlapping ones the
  // longest is kept (a shorter one seen before is thrown away).
  CycleHist& ch = sc.by_offset[addr - sym->start];
  // "We separately always account the full cycles."
  ++ch.num_aggr;
  ch.cycles_aggr += cycles;
  if (!have_start && ch.have_start) return;
  if (ch.num) {
    if (have_start && (!ch.have_start || ch.start > block_start)) {
      ch.have_start = false;
      ch.cycles = 0;
      ch.num = 0;
      if (ch.reset < 0xffff) ++ch.reset;
    } else if (have_start && ch.start < block_start) {
      return;
    }
  }
  ch.have_start = have_start;
  ch.start = block_start;
  ch.cycles += cycles;
  ++ch.num;
}

void BranchCycles::compute(Resolver& resolver) {
  std::vector<uint8_t> code;
  std::vector<uint8_t> insn_start;  // perf's notes->offsets[]: an instruction begins here
  std::vector<uint8_t> filled;      // annotation_line ipc already set
  for (auto& [sym, sc] : symbols_) {
    double ipc = 0.0;
    double coverage = 0.0;
    bool is_64bit = true;
    const size_t size = sym->end - sym->start;
    code.assign(size, 0);
    if (size && sc.map && resolver.read_symbol_code(*sc.map, *sym, code.data(), &is_64bit)) {
      // objdump's linear sweep; an undecodable byte is a one-byte "(bad)".
      insn_start.assign(size, 0);
      for (size_t off = 0; off < size;) {
        insn_start[off] = 1;
        int len = x86_insn_length(code.data() + off, size - off, is_64bit);
        off += len > 0 ? static_cast<size_t>(len) : 1;
      }
      auto count = [&](uint64_t from, uint64_t to) {
        unsigned n = 0;
        for (uint64_t o = from; o <= to && o < size; ++o) n += insn_start[o];
        return n;
      };
      const unsigned total_insn = count(0, size - 1);
      uint64_t hit_cycles = 0;
      uint64_t hit_insn = 0;
      unsigned cover_insn = 0;
      filled.assign(size, 0);
      // annotation__compute_ipc(): from the last offset down, each block with a known start
      // fills the instructions no later block filled (annotation__count_and_fill()).
      std::vector<std::pair<uint64_t, const CycleHist*>> ends;
      for (const auto& [off, ch] : sc.by_offset) ends.emplace_back(off, &ch);
      std::sort(ends.begin(), ends.end(),
                [](const auto& a, const auto& b) { return a.first > b.first; });
      for (const auto& [off, ch] : ends) {
        if (!ch->cycles || !ch->have_start) continue;
        const unsigned n_insn = count(ch->start, off);
        if (!n_insn || !ch->num) continue;
        // Hidden when there are too many overlaps.
        if (ch->reset >= 0x7fff) continue;
        unsigned covered = 0;
        for (uint64_t o = ch->start; o <= off && o < size; ++o) {
          if (insn_start[o] && !filled[o]) {
            filled[o] = 1;
            ++covered;
          }
        }
        if (covered) {
          hit_cycles += ch->cycles;
          hit_insn += uint64_t{n_insn} * ch->num;
          cover_insn += covered;
        }
      }
      if (hit_cycles) ipc = static_cast<double>(hit_insn) / static_cast<double>(hit_cycles);
      if (total_insn) coverage = cover_insn * 100.0 / static_cast<double>(total_insn);
    }
    sc.text = fmt::format("{:<5.2f} [{:5.1f}%]", ipc, coverage);
  }
}

std::vector<BranchCycles::Block> BranchCycles::blocks(const Symbol* sym) const {
  std::vector<Block> out;
  auto it = symbols_.find(sym);
  if (it == symbols_.end()) return out;
  for (const auto& [off, ch] : it->second.by_offset) {
    if (ch.num_aggr) out.push_back({ch.start, off, ch.cycles_aggr, ch.num_aggr});
  }
  std::sort(out.begin(), out.end(), [](const Block& a, const Block& b) { return a.end < b.end; });
  return out;
}

const Map* BranchCycles::map_of(const Symbol* sym) const {
  auto it = symbols_.find(sym);
  return it == symbols_.end() ? nullptr : it->second.map;
}

std::string_view BranchCycles::ipc_text(const Symbol* sym) const {
  static const std::string kNone = fmt::format("{:<5.2f} [{:5.1f}%]", 0.0, 0.0);
  auto it = symbols_.find(sym);
  return it == symbols_.end() || it->second.text.empty() ? std::string_view(kNone)
                                                         : std::string_view(it->second.text);
}

}  // namespace readperf
