// The collapse (hist.c hists__collapse_resort()): hist_entry__cmp() of two entries, sort key by
// sort key (sort.c se_cmp/se_collapse, the branch keys' too), and entries merged once the
// placeholder comms have their final names (hists__collapse_insert_entry()).
#include <unordered_map>

#include "hist_internal.h"
#include "hist_keys.h"
#include "readperf/analysis/hist.h"
#include "readperf/session/thread.h"
#include "readperf/symbols/symbol_table.h"

namespace readperf {

namespace {

// sort.c _sort__sym_cmp() of two branch ends: null first, then by start and end (right's
// minus left's).
int sym_cmp(const Symbol* l, const Symbol* r) {
  if (!l || !r) return cmp_null(l, r);
  if (l == r) return 0;
  if (l->start != r->start) return sign64(static_cast<int64_t>(r->start - l->start));
  return sign64(static_cast<int64_t>(r->end - l->end));
}

}  // namespace

void Hists::rename_placeholder_comms() {
  // thread.c ____thread__set_comm(): the thread's first comm is the placeholder, overridden in
  // place; one never renamed keeps its ":tid".
  std::unordered_map<uint32_t, uint32_t> remap;
  for (const auto& [thread, id] : placeholder_ids_) {
    std::string name = thread->comms.front().str;
    comms_[id] = name;
    auto [it, added] = comm_ids_.emplace(name, id);
    if (!added) remap.emplace(id, it->second);
  }
  placeholder_ids_.clear();
  if (remap.empty() || comm_word_ < 0) return;
  // hists__collapse_insert_entry(): entries equal under the final names become one, the stats
  // summed and the call chains merged into the first (with perf's own entries_in tree, when
  // finish() replays the collapse).
  std::unordered_map<uint64_t, std::vector<uint32_t>> by_hash;
  for (uint32_t id = 0; id < entries_.size(); ++id) {
    auto r = remap.find(entries_[id].comm);
    if (r != remap.end()) {
      entries_[id].comm = r->second;
      key_store_[id * key_words_ + comm_word_] = r->second;
    }
  }
  if (entries_in_) return;
  merged_.assign(entries_.size(), false);
  for (uint32_t id = 0; id < entries_.size(); ++id) {
    std::vector<uint32_t>& bucket = by_hash[key_hash(stored_key(id))];
    uint32_t into = kEmpty;
    for (uint32_t other : bucket) {
      if (same_key(stored_key(other), stored_key(id))) into = other;
    }
    if (into == kEmpty) {
      bucket.push_back(id);
      continue;
    }
    merge_entry(into, id);
  }
  // The lookup table is not used after finish(): rebuild it for what callers may still ask.
  table_.assign(table_.size(), kEmpty);
  size_t mask = table_.size() - 1;
  for (uint32_t id = 0; id < entries_.size(); ++id) {
    if (merged_[id]) continue;
    size_t i = key_hash(stored_key(id)) & mask;
    while (table_[i] != kEmpty) i = (i + 1) & mask;
    table_[i] = id;
  }
}

void Hists::merge_entry(uint32_t dst_id, uint32_t src_id) {
  HistEntry& dst = entries_[dst_id];
  HistEntry& src = entries_[src_id];
  dst.period += src.period;
  dst.nr_events += src.nr_events;
  dst.period_sys += src.period_sys;
  dst.period_us += src.period_us;
  dst.period_guest_sys += src.period_guest_sys;
  dst.period_guest_us += src.period_guest_us;
  dst.acc_period += src.acc_period;
  dst.acc_events += src.acc_events;
  // callchain.c callchain_merge() merges the branches only: dst's max_depth stays its own.
  if (config_.use_callchain) tree_.merge(dst.chain_root, src.chain_root);
  // Left in entries() with nothing: readers of every entry count it once.
  src.period = src.nr_events = src.acc_period = src.acc_events = 0;
  src.period_sys = src.period_us = src.period_guest_sys = src.period_guest_us = 0;
  if (merged_.empty()) merged_.assign(entries_.size(), false);
  merged_[src_id] = true;
}

int Hists::collapse_cmp(const Hists& hx, uint32_t x_id, const Hists& hy, uint32_t y_id) {
  // hist_entry__cmp(x, y) (and hist_entry__collapse(), the same for these keys): positive
  // when x sorts before y.
  for (SortKey key : hx.config_.sort.keys) {
    if (int c = key_collapse_cmp(key, hx, x_id, hy, y_id)) return c;
  }
  return 0;
}

int Hists::key_collapse_cmp(SortKey key, const Hists& hx, uint32_t x_id, const Hists& hy,
                            uint32_t y_id) {
  const HistEntry& x = hx.entries_[x_id];
  const HistEntry& y = hy.entries_[y_id];
  auto dso_cmp = [&] {
    if (!x.dso || !y.dso) return cmp_null(x.dso, y.dso);
    return name_cmp(hy.dso_name(y.dso), hx.dso_name(x.dso));
  };
  int c = 0;
  {
    switch (key) {
      case SortKey::kPid:
        // sort.c sort__thread_cmp(): right's tid minus left's.
        c = x.thread->tid < y.thread->tid ? 1 : x.thread->tid > y.thread->tid ? -1 : 0;
        break;
      case SortKey::kComm:
        c = name_cmp(hy.comms_[y.comm], hx.comms_[x.comm]);
        break;
      case SortKey::kSrcline:
        // sort.c sort__srcline_cmp(): strcmp(right->srcline, left->srcline).
        c = name_cmp(y.srcline, x.srcline);
        break;
      case SortKey::kTrace:
        // sort.c sort__trace_cmp(): strcmp(right, left); 0 for other events.
        if (x.trace.data() && y.trace.data()) c = name_cmp(y.trace, x.trace);
        break;
      case SortKey::kCpu:
      case SortKey::kTime:
      case SortKey::kSymbolSize:
      case SortKey::kSocket:
      case SortKey::kDsoSize:
      case SortKey::kParent:
      case SortKey::kSrcfile:
      case SortKey::kTransaction:
      case SortKey::kCgroupId:
      case SortKey::kCgroup:
      case SortKey::kAddr:
        c = value_key_cmp(key, x, y);
        break;
      case SortKey::kDso:
        c = dso_cmp();
        break;
      case SortKey::kSymbol:
      case SortKey::kIpcNull:
      case SortKey::kIpcLbr:
        if (!x.sym && !y.sym) {
          c = sign64(static_cast<int64_t>(y.ip - x.ip));
          break;
        }
        if (!hx.has_dso_key_) {  // sort.c sort__sym_cmp(): without --sort dso, the DSO first
          c = dso_cmp();
          if (c) break;
        }
        if (!x.sym || !y.sym) {
          c = cmp_null(x.sym, y.sym);
        } else if (x.sym != y.sym) {
          if (x.sym->inlined || y.sym->inlined) {
            // _sort__sym_cmp(): "strcmp(sym_l->name, sym_r->name)", then overlap is equal.
            c = name_cmp(x.sym->name, y.sym->name);
            if (c) break;
            if (x.sym->start <= y.sym->end && x.sym->end >= y.sym->start) break;
          }
          c = sign64(static_cast<int64_t>(y.sym->start - x.sym->start));
          if (!c) c = sign64(static_cast<int64_t>(y.sym->end - x.sym->end));
        }
        break;
      default:
        c = is_dynamic_key(key)        ? hx.dynamic_cmp(key, x, y)
            : is_sample_value_key(key) ? value_key_cmp(key, x, y)
            : is_mem_key(key)          ? mem_cmp(key, hx, x_id, hy, y_id)
                                       : branch_cmp(key, hx, x_id, hy, y_id);
        break;
    }
  }
  return c;
}

int Hists::branch_cmp(SortKey key, const Hists& hx, uint32_t x_id, const Hists& hy, uint32_t y_id) {
  // The bstack se_cmp functions of sort.c, cmp(left = x, right = y).
  const BranchInfo& x = hx.branches_[x_id];
  const BranchInfo& y = hy.branches_[y_id];
  // _sort__dso_cmp(map_l, map_r): "cmp_null(dso_r, dso_l)" without both, then
  // strcmp(left, right) of the names.
  auto dso_cmp = [&](const BranchAddr& l, const BranchAddr& r) {
    if (!l.dso || !r.dso) return cmp_null(r.dso, l.dso);
    return name_cmp(hx.dso_name(l.dso), hy.dso_name(r.dso));
  };
  // sort__sym_from_cmp(): addresses (right's minus left's) when neither has a symbol.
  auto end_cmp = [](const BranchAddr& l, const BranchAddr& r) {
    if (!l.sym && !r.sym) return sign64(static_cast<int64_t>(r.addr - l.addr));
    return sym_cmp(l.sym, r.sym);
  };
  auto addr_cmp = [&](const BranchAddr& l, const BranchAddr& r) {
    int c = dso_cmp(l, r);
    return c ? c : sign64(static_cast<int64_t>(r.addr - l.addr));
  };
  switch (key) {
    case SortKey::kDsoFrom:
      return dso_cmp(x.from, y.from);
    case SortKey::kDsoTo:
      return dso_cmp(x.to, y.to);
    case SortKey::kSymFrom:
      return end_cmp(x.from, y.from);
    case SortKey::kSymTo:
      return end_cmp(x.to, y.to);
    case SortKey::kAddrFrom:
      return addr_cmp(x.from, y.from);
    case SortKey::kAddrTo:
      return addr_cmp(x.to, y.to);
    case SortKey::kMispredict:
      // "mp || p": 1 whenever they differ.
      return (x.flags & 3) != (y.flags & 3);
    case SortKey::kInTx:
      return x.in_tx() != y.in_tx();
    case SortKey::kAbort:
      return x.abort() != y.abort();
    case SortKey::kCycles:
      return sign64(int64_t{x.cycles()} - int64_t{y.cycles()});
    case SortKey::kSrclineFrom:
      return name_cmp(y.from.srcline, x.from.srcline);
    case SortKey::kSrclineTo:
      return name_cmp(y.to.srcline, x.to.srcline);
    default:
      return 0;
  }
}

}  // namespace readperf
