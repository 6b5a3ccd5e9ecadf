// Column helpers of `report --stdio` shared by the printer and the branch-mode columns
// (report_branch_columns.cpp).
#pragma once

#include <fmt/format.h>

#include <cstdint>
#include <string_view>

#include "readperf/analysis/hist.h"

namespace readperf {

// util/hist.c hists__calc_col_len(): the width of an unresolved address (BITS_PER_LONG / 4).
inline constexpr uint32_t kUnresolvedWidth = 16;

// "%-*.*s": cut to `width`, then padded to it.
void put_fixed(fmt::memory_buffer& b, std::string_view s, uint32_t width);

// sort.c _hist_entry__sym_snprintf(): "[level] name", or the address without a symbol; a
// data symbol's offset is `ip - sym_base`. Under -v (hists' config), first the address and
// where the symbols of `dso` (the map's) came from.
void put_sym_column(fmt::memory_buffer& b, const Hists& hists, const Dso* dso, char level,
                    const Symbol* sym, uint64_t ip, uint64_t sym_base, uint32_t width);

// sort.c's se_snprintf functions: what sort key `key`'s column shows for entry `id`, padded
// or cut to `width` as perf does (branch keys through put_branch_column()).
void put_key_column(fmt::memory_buffer& b, const Hists& hists, uint32_t id, SortKey key,
                    uint32_t width, std::string_view& mispredict);

// sort.c __sort__hde_entry(): a tracepoint field's value, right-aligned to `width`.
void put_dynamic_column(fmt::memory_buffer& b, const Hists& hists, uint32_t id, SortKey key,
                        uint32_t width);
// sort.c hde_width(): a tracepoint field's column width in `hists`.
uint32_t dynamic_width(const Hists& hists, SortKey key, const DynamicField& d);
// The same for the entries `ids`, starting from `dynamic_len` (a --hierarchy level's copy of
// the key: the comparisons of its level, the values of its level's entries).
uint32_t dynamic_width(const Hists& hists, const DynamicField& d, size_t dynamic_len,
                       std::span<const uint32_t> ids);

// hists->col_len[] of the branch keys (hists__calc_col_len()'s branch_info part).
struct BranchWidths {
  uint32_t dso_from = 0, dso_to = 0, sym_from = 0, sym_to = 0, addr_from = 0, addr_to = 0;
  uint32_t srcline_from = 0, srcline_to = 0;
};

// Widens `w` for entry `id` of a branch-mode histogram; `dso_filter`: --dsos was given
// (hists__set_unres_dso_col_len() then leaves the DSO columns alone).
void widen_branch_columns(const Hists& hists, uint32_t id, bool dso_filter, BranchWidths& w);

// The width of a branch key's column: its entries' or its header's, the wider.
uint32_t branch_column_width(SortKey key, const BranchWidths& w);

// What perf's snprintf of the branch key prints for entry `id`. sort.c keeps the last text
// of the mispredict column in a static: `mispredict` is that state, one per report.
void put_branch_column(fmt::memory_buffer& b, SortKey key, const Hists& hists, uint32_t id,
                       uint32_t width, std::string_view& mispredict);

// hists->col_len[] of the memory keys (hists__calc_col_len()'s mem_info part).
struct MemWidths {
  uint32_t daddr_sym = 0, iaddr_sym = 0, daddr_dso = 0, phys_daddr = 0, data_page_size = 0,
           dcacheline = 0;
};

// Widens `w` for entry `id` of a memory-mode histogram; `keep_dso_width` as for the DSO
// column (hists__set_unres_dso_col_len()).
void widen_mem_columns(const Hists& hists, uint32_t id, bool keep_dso_width, MemWidths& w);

// The width of a memory key's column: its entries' or its header's, the wider (the fixed
// widths hists__calc_col_len() gives locked, tlb, mem, snoop and blocked included).
uint32_t mem_column_width(SortKey key, const MemWidths& w);

// What sort.c's snprintf of the memory key prints for entry `id`.
void put_mem_column(fmt::memory_buffer& b, SortKey key, const Hists& hists, uint32_t id,
                    uint32_t width);

}  // namespace readperf
