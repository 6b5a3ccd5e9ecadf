// The output resort (hist.c hists__output_resort()): hist_entry__sort() over the sort list,
// perf's entries_in, collapsed and output trees replayed, the filters hists__apply_filters()
// applies at the collapse, and the totals the percentages divide by.
#include "hist_keys.h"
#include "rb_order.h"
#include "readperf/analysis/hist.h"
#include "readperf/session/thread.h"
#include "readperf/symbols/symbol_table.h"

namespace readperf {

int Hists::output_cmp(uint32_t a_id, uint32_t b_id) const {
  // hist_entry__sort(): each field of the sort list in turn, elided columns skipped; a
  // positive result puts `a` first.
  const HistEntry& a = entries_[a_id];
  const HistEntry& b = entries_[b_id];
  int c = 0;
  for (const HistField& f : config_.sort.sort_list) {
    switch (f.hpp) {
      case HppField::kOverheadChildren:
        // ui/hist.c __hpp__sort_acc(): no order without cumulated call chains.
        if (!config_.children) {
          c = 0;
          break;
        }
        c = field_cmp(a.acc_period, b.acc_period);
        if (c) return c;
        // ui/hist.c __hpp__sort_acc(): "put caller above callee when they have equal period".
        if (a.thread == b.thread && config_.use_callchain) {
          int64_t d = static_cast<int64_t>(b.max_depth) - static_cast<int64_t>(a.max_depth);
          if (config_.caller_order) d = -d;
          c = sign64(d);
        }
        break;
      case HppField::kOverhead:
      case HppField::kPeriod:
        c = group_cmp(a_id, b_id, &HistEntry::period);
        break;
      case HppField::kOverheadSys:
        c = group_cmp(a_id, b_id, &HistEntry::period_sys);
        break;
      case HppField::kOverheadUs:
        c = group_cmp(a_id, b_id, &HistEntry::period_us);
        break;
      case HppField::kOverheadGuestSys:
        c = group_cmp(a_id, b_id, &HistEntry::period_guest_sys);
        break;
      case HppField::kOverheadGuestUs:
        c = group_cmp(a_id, b_id, &HistEntry::period_guest_us);
        break;
      case HppField::kSamples:
        c = group_cmp(a_id, b_id, &HistEntry::nr_events);
        break;
      case HppField::kSortKey:
        if (config_.sort.is_elided(f.key)) continue;
        c = sort_key_cmp(f.key, a_id, b_id);
        break;
    }
    if (c) return c;
  }
  return 0;
}

int Hists::sort_key_cmp(SortKey key, uint32_t a_id, uint32_t b_id) const {
  // The keys' se_sort (se_cmp where there is none).
  const HistEntry& a = entries_[a_id];
  const HistEntry& b = entries_[b_id];
  switch (key) {
    case SortKey::kPid:
      return a.thread->tid < b.thread->tid ? 1 : a.thread->tid > b.thread->tid ? -1 : 0;
    case SortKey::kComm:
      return name_cmp(comms_[b.comm], comms_[a.comm]);
    case SortKey::kSrcline:
      return name_cmp(b.srcline, a.srcline);
    case SortKey::kTrace:
      // sort.c sort__trace_cmp(): strcmp(right, left); 0 for other events.
      if (!a.trace.data() || !b.trace.data()) return 0;
      return name_cmp(b.trace, a.trace);
    case SortKey::kDso:
      if (!a.dso || !b.dso) return cmp_null(a.dso, b.dso);
      return name_cmp(dso_name(b.dso), dso_name(a.dso));
    case SortKey::kSymbol:
      // sort.c sort__sym_sort(): by name; entries without a symbol tie.
      if (!a.sym || !b.sym) return cmp_null(a.sym, b.sym);
      return name_cmp(b.sym->name, a.sym->name);
    case SortKey::kIpcNull:
    case SortKey::kIpcLbr:
      // No se_sort: sort__sym_cmp(), the collapse order.
      return collapse_cmp(a_id, b_id);
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
      return value_key_cmp(key, a, b);
    default:
      if (is_dynamic_key(key)) return dynamic_cmp(key, a, b);
      if (is_sample_value_key(key)) return value_key_cmp(key, a, b);
      // The memory keys have no se_sort either.
      if (is_mem_key(key)) return mem_cmp(key, *this, a_id, *this, b_id);
      // The branch keys have no se_sort either.
      return branch_cmp(key, *this, a_id, *this, b_id);
  }
}

void Hists::finish() {
  rename_placeholder_comms();
  // With perf's entries_in tree kept (start_entries_in()), its order is the one the lookups
  // made, and the collapse merges what it finds equal (hists__collapse_insert_entry():
  // duplicates the inexact lookups added, inline entries now their function's).
  std::vector<uint32_t> kept_order;
  if (entries_in_) {
    kept_order = entries_in_->in_order();
    if (config_.sort.has(SortKey::kComm)) {
      RbOrder collapsed;
      for (uint32_t id : kept_order) {
        uint32_t hit = collapsed.find([&](uint32_t other) { return collapse_cmp(other, id); });
        if (hit != RbOrder::kNil) {
          merge_entry(hit, id);
          continue;
        }
        collapsed.insert(id, [&](uint32_t other) { return collapse_cmp(other, id) < 0; });
      }
      kept_order = collapsed.in_order();
    }
  }
  tree_.finish();
  // --hierarchy: hists__collapse_resort() inserts the entries of hists->entries_in, in that
  // tree's order and with the filter bits the samples gave them, level by level.
  std::vector<uint32_t> entries_in;
  std::vector<uint8_t> sample_filtered;
  if (config_.hierarchy) {
    RbOrder tree;
    for (uint32_t i = 0; i < entries_.size(); ++i) {
      if (!merged_.empty() && merged_[i]) continue;
      tree.insert(i, [&](uint32_t other) { return collapse_cmp(other, i) < 0; });
    }
    entries_in = tree.in_order();
    for (const HistEntry& e : entries_) sample_filtered.push_back(e.filtered);
  }
  // hists__collapse_resort() applies hists__filter_entry_by_symbol() only when the sort
  // list needs collapsing: sort_comm is the one key with se_collapse.
  bool need_collapse = false;
  for (const HistField& f : config_.sort.sort_list) {
    if (f.hpp == HppField::kSortKey && f.key == SortKey::kComm) need_collapse = true;
  }
  if (!config_.symbol_filter.empty() && need_collapse) {
    for (HistEntry& e : entries_) {
      if (!e.sym || e.sym->name.find(config_.symbol_filter) == std::string_view::npos) {
        e.filtered |= kHistFilterSymbol;
      }
    }
  }
  // hists__filter_entry_by_socket(), in the same hists__apply_filters().
  if (config_.socket_filter > -1 && need_collapse) {
    for (HistEntry& e : entries_) {
      if (e.socket != config_.socket_filter) e.filtered |= kHistFilterSocket;
    }
  }
  // The entries samples made; link_group()'s dummies come after them.
  order_.clear();
  std::vector<uint32_t> dummies;
  for (uint32_t i = 0; i < entries_.size(); ++i) {
    if (!merged_.empty() && merged_[i]) continue;
    (i < linked_from_ ? order_ : dummies).push_back(i);
  }
  // hist.c hists__findnew_entry(): each entry went into hists->entries_in when it first came,
  // down the tree by hist_entry__cmp(iter, new) ("if (cmp < 0) p = &(*p)->rb_left"); then
  // hists__collapse_resort() walked that tree in order into hists->entries_collapsed the same
  // way, when a sort key has se_collapse (only comm's, sort.c). The comparison is no order
  // (sort__sym_cmp() subtracts ips as (int64_t)(right - left), which wraps for addresses
  // 2^63 or more apart), so the trees are replayed, not sorted: the order of unresolved
  // garbage addresses is then perf's.
  auto replay_tree = [this](const std::vector<uint32_t>& in) {
    RbOrder tree;
    for (uint32_t id : in) {
      tree.insert(id, [&](uint32_t other) { return collapse_cmp(other, id) < 0; });
    }
    return tree.in_order();
  };
  // hists__add_dummy_entry() inserts the group's dummies into the last of those trees.
  if (entries_in_) {
    order_ = std::move(kept_order);
    if (!dummies.empty()) {
      order_.insert(order_.end(), dummies.begin(), dummies.end());
      order_ = replay_tree(order_);
    }
  } else {
    if (config_.sort.has(SortKey::kComm)) order_ = replay_tree(order_);
    order_.insert(order_.end(), dummies.begin(), dummies.end());
    order_ = replay_tree(order_);
  }
  // Then perf's output tree replayed: each entry of the collapsed tree goes left of the
  // entries it sorts before, right otherwise.
  RbOrder out;
  for (uint32_t id : order_) {
    out.insert(id, [&](uint32_t other) { return output_cmp(id, other) > 0; });
  }
  order_ = out.in_order();
  // output_resort()'s hists__inc_stats(): the period of the entries no filter hides.
  total_non_filtered_period_ = 0;
  for (const HistEntry& e : entries_) {
    if (!e.filtered) total_non_filtered_period_ += e.period;
  }
  if (config_.hierarchy) {
    build_hierarchy(entries_in, sample_filtered);
    // hist.c hierarchy_recalc_total_periods(): the top level's entries only, since a lower
    // level sees only what no filter hid but an upper one sums both; what --percentage
    // relative divides by.
    // The Event count too: 0 when no key applies to the event (no level, no entry).
    total_period_ = 0;
    total_non_filtered_period_ = 0;
    for (uint32_t root : hierarchy_roots_) {
      const HistEntry& e = entries_[hierarchy_[root].entry];
      total_period_ += e.period;
      if (!e.filtered) total_non_filtered_period_ += e.period;
    }
  }
}

}  // namespace readperf
