// sort.c's memory keys (memory_sort_dimensions, `report --mem-mode`): their columns'
// widths (hist.c hists__calc_col_len()) and texts.
#include <fmt/format.h>
#include <sys/mman.h>

#include <algorithm>
#include <string>

#include "readperf/output/mem_info.h"
#include "readperf/session/dso.h"
#include "readperf/symbols/symbol_table.h"
#include "report_columns.h"

namespace readperf {

namespace {

uint32_t header_width(SortKey k) { return static_cast<uint32_t>(sort_key_header(k).size()); }

// The data or code symbol column: "namelen + 4 + unresolved_col_width + 2", or an
// unresolved address's "unresolved_col_width + 4 + 2".
uint32_t sym_width(const MemAddr& a) {
  return a.sym ? static_cast<uint32_t>(a.sym->name.size()) + 4 + kUnresolvedWidth + 2
               : kUnresolvedWidth + 4 + 2;
}

}  // namespace

void widen_mem_columns(const Hists& hists, uint32_t id, bool keep_dso_width, MemWidths& w) {
  const MemSample& m = hists.mem(id);
  w.daddr_sym = std::max(w.daddr_sym, sym_width(m.daddr));
  // HISTC_MEM_DCACHELINE: the data symbol's width, one more with a symbol.
  w.dcacheline = std::max(w.dcacheline, sym_width(m.daddr) + (m.daddr.sym ? 1 : 0));
  w.iaddr_sym = std::max(w.iaddr_sym, sym_width(m.iaddr));
  if (m.daddr.dso) {
    w.daddr_dso = std::max(w.daddr_dso, static_cast<uint32_t>(hists.dso_name(m.daddr.dso).size()));
  } else if (w.daddr_dso < kUnresolvedWidth && !keep_dso_width) {
    w.daddr_dso = kUnresolvedWidth;  // hists__set_unres_dso_col_len()
  }
  w.phys_daddr = std::max(w.phys_daddr, kUnresolvedWidth + 4 + 2);
  w.data_page_size = std::max(w.data_page_size, kUnresolvedWidth + 4 + 2);
}

uint32_t mem_column_width(SortKey key, const MemWidths& w) {
  uint32_t entries = 0;
  switch (key) {
    case SortKey::kSymbolDaddr:
      entries = w.daddr_sym;
      break;
    case SortKey::kSymbolIaddr:
      entries = w.iaddr_sym;
      break;
    case SortKey::kDcacheline:
      entries = w.dcacheline;
      break;
    case SortKey::kDsoDaddr:
      entries = w.daddr_dso;
      break;
    case SortKey::kPhysDaddr:
      entries = w.phys_daddr;
      break;
    case SortKey::kDataPageSize:
      entries = w.data_page_size;
      break;
    // hists__calc_col_len(): HISTC_MEM_LOCKED 6, TLB 22, SNOOP 12, LVL 21 + 3, BLOCKED 10.
    case SortKey::kLocked:
      entries = 6;
      break;
    case SortKey::kTlb:
      entries = 22;
      break;
    case SortKey::kSnoop:
      entries = 12;
      break;
    case SortKey::kMem:
      entries = 24;
      break;
    case SortKey::kBlocked:
      entries = 10;
      break;
    default:
      break;
  }
  return std::max(entries, header_width(key));
}

void put_mem_column(fmt::memory_buffer& b, SortKey key, const Hists& hists, uint32_t id,
                    uint32_t width) {
  const MemSample& m = hists.mem(id);
  const HistEntry& e = hists.entry(id);
  auto padded = [&](std::string_view text) {  // "%-*s"
    fmt::format_to(std::back_inserter(b), "{:<{}}", text, width);
  };
  auto cut = [&](std::string_view text) {  // "%.*s"
    b.append(text.substr(0, std::min<size_t>(text.size(), width)));
  };
  switch (key) {
    case SortKey::kSymbolDaddr:
    case SortKey::kSymbolIaddr: {
      // hist_entry__daddr_snprintf() / __iaddr_snprintf(): _hist_entry__sym_snprintf() of
      // the address at the entry's own level.
      const MemAddr& a = key == SortKey::kSymbolDaddr ? m.daddr : m.iaddr;
      put_sym_column(b, hists, a.dso, e.level, a.sym, a.addr, a.addr - a.sym_offset, width);
      break;
    }
    case SortKey::kDcacheline: {
      // hist_entry__dcacheline_snprintf(): the cache line of the map-relative address, its
      // symbol's offset counted from the symbol's absolute start (perf mixes the two: a
      // data symbol in a file map shows a wrapped offset); "[s]" for a shared data map of a
      // file, "[X]" without a map.
      const MemAddr& a = m.daddr;
      char level = e.level;
      if (e.cpumode != 1 && a.dso && !(a.map_prot & PROT_EXEC) && (a.map_flags & MAP_SHARED) &&
          (a.dso->maj || a.dso->min || a.dso->ino || a.dso->ino_generation)) {
        level = 's';
      } else if (!a.dso) {
        level = 'X';
      }
      put_sym_column(b, hists, a.dso, level, a.sym, cl_address(a.al_addr), a.addr - a.sym_offset,
                     width);
      break;
    }
    case SortKey::kDsoDaddr:
      // _hist_entry__dso_snprintf(): "%-*.*s" of the name, "[unknown]" without a map.
      put_fixed(b, m.daddr.dso ? hists.dso_name(m.daddr.dso) : "[unknown]", width);
      break;
    // Each decoder writes into a buffer of sort.c's size: char out[10], [64], [64], [64],
    // [16].
    case SortKey::kLocked:
      cut(mem_lck_text(m.data_src, 10));
      break;
    case SortKey::kTlb:
      padded(mem_tlb_text(m.data_src, 64));
      break;
    case SortKey::kMem:
      padded(mem_lvl_text(m.data_src, 64));
      break;
    case SortKey::kSnoop:
      padded(mem_snp_text(m.data_src, 64));
      break;
    case SortKey::kBlocked:
      cut(mem_blk_text(m.data_src, 16));
      break;
    case SortKey::kPhysDaddr: {
      // hist_entry__phys_daddr_snprintf(): "[level] " and "%-#.*llx" (16 digits at least,
      // "0x" unless 0), padded and cut to the width.
      std::string text = m.phys_addr ? fmt::format("[{}] {:#018x}", e.level, m.phys_addr)
                                     : fmt::format("[{}] {:016x}", e.level, 0);
      put_fixed(b, text, width);
      break;
    }
    case SortKey::kDataPageSize:
      padded(page_size_name(m.data_page_size));
      break;
    default:
      break;
  }
}

}  // namespace readperf
