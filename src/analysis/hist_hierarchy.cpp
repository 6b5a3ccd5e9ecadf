// `report --hierarchy`: perf's tree of histogram entries (util/hist.c
// hists__hierarchy_insert_entry(), hierarchy_insert_entry(), hist_entry__check_and_remove_filter()
// and hists__hierarchy_output_resort()), built from the flat entries once they are complete.
#include <algorithm>
#include <string_view>
#include <vector>

#include "rb_order.h"
#include "readperf/analysis/hist.h"
#include "readperf/symbols/symbol_table.h"

namespace readperf {

namespace {

// Whether a level's key is the one a filter type names (hist.c check_thread_entry(),
// perf_hpp__is_dso_entry(), perf_hpp__is_sym_entry()).
bool level_matches_filter(SortKey key, uint8_t type) {
  switch (type) {
    case kHistFilterThread:
      return key == SortKey::kPid || key == SortKey::kComm;
    case kHistFilterDso:
      return key == SortKey::kDso;
    case kHistFilterSymbol:
      return key == SortKey::kSymbol;
    default:
      return false;
  }
}

}  // namespace

int Hists::level_collapse_cmp(const std::vector<SortKey>& keys, const Hists& hx, uint32_t x,
                              const Hists& hy, uint32_t y) {
  for (SortKey key : keys) {
    // hists__find_hierarchy_entry() compares a member's entries with the leader's level
    // formats: a tracepoint field reads the member's raw data at the leader field's place.
    int c = is_dynamic_key(key) ? hx.dynamic_cmp(key, hx.entry(x), hy.entry(y), true)
                                : key_collapse_cmp(key, hx, x, hy, y);
    if (c) return c;
  }
  return 0;
}

void Hists::build_hierarchy(const std::vector<uint32_t>& entries_in,
                            const std::vector<uint8_t>& sample_filtered) {
  hierarchy_.clear();
  hierarchy_roots_.clear();
  // ui/hist.c perf_hpp__setup_hists_formats(): a level per --sort level of the sort list
  // (elided keys too: they are elided after the levels are made), in the order the levels
  // first appear; another event's tracepoint fields are left out, and a level left with no
  // key is none.
  hierarchy_levels_.clear();
  std::vector<int16_t> level_ids;
  for (const HistField& f : config_.sort.sort_list) {
    if (f.hpp != HppField::kSortKey) continue;
    if (is_dynamic_key(f.key) &&
        config_.sort.dynamic[dynamic_index(f.key)].event != config_.event) {
      continue;
    }
    auto at = std::find(level_ids.begin(), level_ids.end(), f.level);
    if (at == level_ids.end()) {
      level_ids.push_back(f.level);
      hierarchy_levels_.emplace_back();
      at = level_ids.end() - 1;
    }
    hierarchy_levels_[static_cast<size_t>(at - level_ids.begin())].push_back(f.key);
  }
  // The levels' format copies start with no dynamic_len; their collapse comparisons widen it.
  std::vector<size_t> flat_dynamic_len = dynamic_len_;
  dynamic_len_.assign(config_.sort.dynamic.size(), 0);

  // Each node's children as perf's rb-tree of them (hroot_in); [0] is the top level's.
  hierarchy_in_.assign(1, RbOrder());
  // Without a level no entry is inserted (the loop over the levels is empty); an event
  // group's members still link theirs below.
  for (uint32_t flat : entries_in) {
    uint32_t parent = HierarchyNode::kNoNode;
    for (uint32_t depth = 0; depth < hierarchy_levels_.size(); ++depth) {
      const std::vector<SortKey>& keys = hierarchy_levels_[depth];
      size_t tree = parent == HierarchyNode::kNoNode ? 0 : parent + 1;
      // hierarchy_insert_entry(): the level's collapse functions, (iter, he), the first that
      // tells them apart.
      auto cmp = [&](uint32_t node) {
        return level_collapse_cmp(keys, *this, hierarchy_[node].entry, *this, flat);
      };
      uint32_t found = hierarchy_in_[tree].find(cmp);
      if (found != RbOrder::kNil) {
        // he_stat__add_stat(): the sums; the keys stay the first entry's.
        HistEntry& e = entries_[hierarchy_[found].entry];
        const HistEntry& add = entries_[flat];
        e.period += add.period;
        e.nr_events += add.nr_events;
        e.period_sys += add.period_sys;
        e.period_us += add.period_us;
        e.period_guest_sys += add.period_guest_sys;
        e.period_guest_us += add.period_guest_us;
        parent = found;
        continue;
      }
      uint32_t id = static_cast<uint32_t>(hierarchy_.size());
      hierarchy_in_[tree].insert(id, [&](uint32_t other) { return cmp(other) < 0; });
      hierarchy_in_.emplace_back();
      HistEntry copy = entries_[flat];
      copy.filtered = sample_filtered[flat];
      HierarchyNode node;
      node.entry = static_cast<uint32_t>(entries_.size());
      node.parent = parent;
      node.depth = depth;
      node.leaf = depth + 1 == hierarchy_levels_.size();
      if (!node.leaf) copy.chain_root = CallTree::kNone;
      // hist_entry__apply_hierarchy_filters(): a level that a filter names clears the mark
      // of its parents when it passes; other levels take their parent's mark (the top level
      // is marked, until a level below clears it).
      for (uint8_t type : {kHistFilterThread, kHistFilterDso, kHistFilterSymbol}) {
        if (!(config_.filter_lists & type)) continue;
        bool named = std::any_of(keys.begin(), keys.end(),
                                 [&](SortKey k) { return level_matches_filter(k, type); });
        if (named) {
          if (!(copy.filtered & type)) {
            for (uint32_t p = parent; p != HierarchyNode::kNoNode; p = hierarchy_[p].parent) {
              entries_[hierarchy_[p].entry].filtered &= static_cast<uint8_t>(~type);
            }
          }
        } else if (parent == HierarchyNode::kNoNode) {
          copy.filtered |= type;
        } else {
          copy.filtered |= entries_[hierarchy_[parent].entry].filtered & type;
        }
      }
      // hists__apply_filters(): --symbol-filter and --socket-filter on every level.
      if (!config_.symbol_filter.empty() &&
          (!copy.sym || copy.sym->name.find(config_.symbol_filter) == std::string_view::npos)) {
        copy.filtered |= kHistFilterSymbol;
      }
      if (config_.socket_filter > -1 && copy.socket != config_.socket_filter) {
        copy.filtered |= kHistFilterSocket;
      }
      // The keys stay the first entry's: its branch or memory sample too.
      append_entry(copy, *this, flat);
      hierarchy_.push_back(node);
      parent = id;
    }
  }

  hierarchy_dynamic_len_ = dynamic_len_;
  dynamic_len_ = std::move(flat_dynamic_len);

  // report__collapse_hists(): each member matched, then linked, in turn.
  for (size_t m = 0; m < members_.size(); ++m) link_hierarchy(m);
  for (std::vector<uint32_t>& p : pairs_) p.resize(entries_.size(), kNoPair);

  // hists__hierarchy_output_resort(): each level's entries, in their collapse tree's order,
  // into an output tree by hist_entry__sort() (the whole sort list, on the nodes' sums and
  // first entries' keys).
  auto output_order = [&](const RbOrder& in) {
    RbOrder out;
    for (uint32_t node : in.in_order()) {
      out.insert(node, [&](uint32_t other) {
        return output_cmp(hierarchy_[node].entry, hierarchy_[other].entry) > 0;
      });
    }
    return out.in_order();
  };
  hierarchy_roots_ = output_order(hierarchy_in_[0]);
  for (uint32_t id = 0; id < hierarchy_.size(); ++id) {
    hierarchy_[id].children = output_order(hierarchy_in_[id + 1]);
  }
}

const std::vector<SortKey>& Hists::level_keys(uint32_t node, uint32_t depth) const {
  const Hists* owner = hierarchy_[node].keys_of ? hierarchy_[node].keys_of : this;
  return owner->hierarchy_levels_[depth];
}

void Hists::link_hierarchy(size_t m) {
  std::vector<RbOrder>& in = hierarchy_in_;  // the leader's trees, growing with its dummies
  const Hists* other = members_[m];
  std::vector<uint32_t>& pairs = pairs_[m];
  pairs.resize(entries_.size(), kNoPair);
  if (!other || other->hierarchy_in_.empty()) return;
  // The member node each leader node was paired with, and the reverse.
  std::vector<uint32_t> leader_of(other->hierarchy_.size(), kNoPair);
  auto entry_of = [](const Hists& h, uint32_t node) { return h.hierarchy_[node].entry; };
  // hists__match_hierarchy(): the leader's nodes in their tree's order, each looked up among
  // the member's of its level (the level's key: hist_entry's hpp_list).
  auto match = [&](auto&& self, size_t leader_tree, size_t other_tree, uint32_t depth) -> void {
    for (uint32_t node : in[leader_tree].in_order()) {
      // hists__find_hierarchy_entry(): the leader node's keys (an earlier member's for its
      // dummy nodes).
      const std::vector<SortKey>& keys = level_keys(node, depth);
      uint32_t found = other->hierarchy_in_[other_tree].find([&](uint32_t iter) {
        return level_collapse_cmp(keys, *other, entry_of(*other, iter), *this,
                                  entry_of(*this, node));
      });
      if (found == RbOrder::kNil) continue;
      pairs[entry_of(*this, node)] = entry_of(*other, found);
      leader_of[found] = node;
      if (!hierarchy_[node].leaf) self(self, node + 1, found + 1, depth + 1);
    }
  };
  match(match, 0, 0, 0);
  // hists__link_hierarchy(): each member node without a pair gets one, a dummy node of the
  // leader (add_dummy_hierarchy_entry(): the member's keys, no period), at its level.
  auto link = [&](auto&& self, size_t other_tree, size_t leader_tree, uint32_t parent,
                  uint32_t depth) -> void {
    for (uint32_t onode : other->hierarchy_in_[other_tree].in_order()) {
      uint32_t node = leader_of[onode];
      if (node == kNoPair) {
        // add_dummy_hierarchy_entry(): each node met compares with its own keys (a dummy
        // node's are its member's; the leader may have fewer levels than the member).
        auto cmp = [&](uint32_t iter) {
          return level_collapse_cmp(level_keys(iter, depth), *this, entry_of(*this, iter), *other,
                                    entry_of(*other, onode));
        };
        node = in[leader_tree].find(cmp);
        if (node == RbOrder::kNil) {
          node = static_cast<uint32_t>(hierarchy_.size());
          const uint32_t oid = entry_of(*other, onode);
          HierarchyNode n;
          n.entry = append_entry(dummy_of(*other, oid), *other, oid);
          n.parent = parent;
          n.depth = depth;
          n.leaf = other->hierarchy_[onode].leaf;
          n.keys_of = other;
          hierarchy_.push_back(n);
          in[leader_tree].insert(node, [&](uint32_t iter) { return cmp(iter) < 0; });
          in.emplace_back();
          for (std::vector<uint32_t>& p : pairs_) p.resize(entries_.size(), kNoPair);
        }
        pairs[entry_of(*this, node)] = entry_of(*other, onode);
        leader_of[onode] = node;
      }
      if (!other->hierarchy_[onode].leaf) self(self, onode + 1, node + 1, node, depth + 1);
    }
  };
  link(link, 0, 0, HierarchyNode::kNoNode, 0);
}

}  // namespace readperf
