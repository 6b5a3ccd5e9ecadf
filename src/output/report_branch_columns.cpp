// The branch keys' columns of `report --stdio` in perf's branch mode (sort.c's bstack sort
// entries and hists__calc_col_len()).
#include <algorithm>

#include "readperf/analysis/branch_cycles.h"
#include "readperf/session/dso.h"
#include "readperf/symbols/symbol_table.h"
#include "report_columns.h"

namespace readperf {

namespace {

uint32_t header_width(SortKey k) { return static_cast<uint32_t>(sort_key_header(k).size()); }

void widen_end(const Hists& hists, const BranchAddr& a, bool dso_filter, uint32_t& sym,
               uint32_t& dso, uint32_t& addr) {
  if (a.sym) {
    uint32_t len = static_cast<uint32_t>(a.sym->name.size()) + 4;
    if (hists.config().verbose) len += kUnresolvedWidth + 2 + 3;
    sym = std::max(sym, len);
    if (a.dso) dso = std::max(dso, static_cast<uint32_t>(hists.dso_name(a.dso).size()));
  } else {
    sym = std::max(sym, kUnresolvedWidth + 4 + 2);
    addr = std::max(addr, kUnresolvedWidth + 4 + 2);
    if (dso < kUnresolvedWidth && !dso_filter) dso = kUnresolvedWidth;
  }
}

// sort.c _hist_entry__addr_snprintf(): as the symbol column, with the offset in the symbol.
void put_addr_column(fmt::memory_buffer& b, char level, const BranchAddr& a, uint32_t width) {
  if (!a.sym || !a.dso) {
    // No -v columns here: "[%c] " and "%-#.*llx" of the address.
    fmt::format_to(std::back_inserter(b), "[{}] ", level);
    if (a.al_addr) {
      fmt::format_to(std::back_inserter(b), "0x{:016x}", a.al_addr);
    } else {
      b.append(std::string_view("0000000000000000"));
    }
    return;
  }
  size_t start = b.size();
  fmt::format_to(std::back_inserter(b), "[{}] ", level);
  if (a.sym->type == kTypeObject) {
    fmt::format_to(std::back_inserter(b), "{}+0x{:x}", a.sym->name, a.al_addr - a.sym->start);
    return;
  }
  size_t used = b.size() - start;
  std::string_view name = a.sym->name;
  name = width > used ? name.substr(0, width - used) : std::string_view();
  b.append(name);
  if (uint64_t off = a.al_addr - a.sym->start)
    fmt::format_to(std::back_inserter(b), "+0x{:x}", off);
}

}  // namespace

void widen_branch_columns(const Hists& hists, uint32_t id, bool dso_filter, BranchWidths& w) {
  const BranchInfo& bi = hists.branch(id);
  widen_end(hists, bi.from, dso_filter, w.sym_from, w.dso_from, w.addr_from);
  widen_end(hists, bi.to, dso_filter, w.sym_to, w.dso_to, w.addr_to);
  // hists__calc_col_len(): the srclines looked up so far (those of the sorted keys).
  w.srcline_from = std::max(w.srcline_from, static_cast<uint32_t>(bi.from.srcline.size()));
  w.srcline_to = std::max(w.srcline_to, static_cast<uint32_t>(bi.to.srcline.size()));
}

uint32_t branch_column_width(SortKey key, const BranchWidths& w) {
  uint32_t width = 0;
  switch (key) {
    case SortKey::kDsoFrom:
      width = w.dso_from;
      break;
    case SortKey::kDsoTo:
      width = w.dso_to;
      break;
    case SortKey::kSymFrom:
      width = w.sym_from;
      break;
    case SortKey::kSymTo:
      width = w.sym_to;
      break;
    case SortKey::kAddrFrom:
      width = w.addr_from;
      break;
    case SortKey::kAddrTo:
      width = w.addr_to;
      break;
    case SortKey::kSrclineFrom:
      width = w.srcline_from;
      break;
    case SortKey::kSrclineTo:
      width = w.srcline_to;
      break;
    default:
      break;
  }
  return std::max(width, header_width(key));
}

void put_branch_column(fmt::memory_buffer& b, SortKey key, const Hists& hists, uint32_t id,
                       uint32_t width, std::string_view& mispredict) {
  const BranchInfo& bi = hists.branch(id);
  auto dso = [&](const BranchAddr& a) {
    // sort.c _hist_entry__dso_snprintf().
    put_fixed(b, a.dso ? hists.dso_name(a.dso) : "[unknown]", width);
  };
  switch (key) {
    case SortKey::kDsoFrom:
      dso(bi.from);
      break;
    case SortKey::kDsoTo:
      dso(bi.to);
      break;
    case SortKey::kSymFrom:
      put_sym_column(b, hists, bi.from.dso, bi.from.level, bi.from.dso ? bi.from.sym : nullptr,
                     bi.from.al_addr, bi.from.sym ? bi.from.sym->start : 0, width);
      break;
    case SortKey::kSymTo:
      put_sym_column(b, hists, bi.to.dso, bi.to.level, bi.to.dso ? bi.to.sym : nullptr,
                     bi.to.al_addr, bi.to.sym ? bi.to.sym->start : 0, width);
      break;
    case SortKey::kAddrFrom:
      // hist_entry__addr_from_snprintf() prints the entry's level, not the address's.
      put_addr_column(b, hists.entry(id).level, bi.from, width);
      break;
    case SortKey::kAddrTo:
      put_addr_column(b, hists.entry(id).level, bi.to, width);
      break;
    case SortKey::kSrclineFrom:
      // hist_entry__srcline_from_snprintf(): "%-*.*s".
      put_fixed(b, bi.from.srcline, width);
      break;
    case SortKey::kSrclineTo:
      put_fixed(b, bi.to.srcline, width);
      break;
    case SortKey::kMispredict:
      // hist_entry__mispredict_snprintf(): "static const char *out" keeps the last text for
      // a branch that is neither predicted nor mispredicted.
      if (bi.predicted()) {
        mispredict = "N";
      } else if (bi.mispred()) {
        mispredict = "Y";
      }
      put_fixed(b, mispredict, width);
      break;
    case SortKey::kInTx:
      fmt::format_to(std::back_inserter(b), "{:<{}}", bi.in_tx() ? "T" : ".", width);
      break;
    case SortKey::kAbort:
      fmt::format_to(std::back_inserter(b), "{:<{}}", bi.abort() ? "A" : ".", width);
      break;
    case SortKey::kCycles:
      // hist_entry__cycles_snprintf(): "%-*hd", "-" for none.
      if (bi.cycles() == 0) {
        fmt::format_to(std::back_inserter(b), "{:<{}}", "-", width);
      } else {
        fmt::format_to(std::back_inserter(b), "{:<{}}", static_cast<int16_t>(bi.cycles()), width);
      }
      break;
    case SortKey::kIpcLbr: {
      // hist_entry__sym_ipc_snprintf(): the entry's symbol's IPC, "-" without a symbol.
      const Symbol* sym = hists.entry(id).sym;
      std::string_view text = sym && hists.branch_cycles() ? hists.branch_cycles()->ipc_text(sym)
                                                           : std::string_view("-");
      fmt::format_to(std::back_inserter(b), "{:<{}}", text, width);
      break;
    }
    default:
      break;
  }
}

}  // namespace readperf
