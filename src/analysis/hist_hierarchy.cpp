// `report --hierarchy`: perf's tree of histogram entries (util/hist.c
// hists__hierarchy_insert_entry(), hierarchy_insert_entry(), hist_entry__check_and_remove_filter()
// and hists__hierarchy_output_resort()), built from the flat entries once they are complete.
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

void Hists::build_hierarchy(const std::vector<uint32_t>& entries_in,
                            const std::vector<uint8_t>& sample_filtered) {
  hierarchy_.clear();
  hierarchy_roots_.clear();
  // ui/hist.c perf_hpp__setup_hists_formats(): a level per sort key of the sort list, elided
  // ones too (they are elided after the levels are made).
  hierarchy_levels_.clear();
  for (const HistField& f : config_.sort.sort_list) {
    if (f.hpp == HppField::kSortKey) hierarchy_levels_.push_back(f.key);
  }
  // A linked group's pairs are the flat entries' (the report refuses groups here).
  if (hierarchy_levels_.empty() || !members_.empty()) return;

  // Each node's children as perf's rb-tree of them (hroot_in); [0] is the top level's.
  std::vector<RbOrder> children_in(1);
  for (uint32_t flat : entries_in) {
    uint32_t parent = HierarchyNode::kNoNode;
    for (uint32_t depth = 0; depth < hierarchy_levels_.size(); ++depth) {
      SortKey key = hierarchy_levels_[depth];
      size_t tree = parent == HierarchyNode::kNoNode ? 0 : parent + 1;
      // hierarchy_insert_entry(): the level's collapse function, (iter, he).
      auto cmp = [&](uint32_t node) {
        return key_collapse_cmp(key, *this, hierarchy_[node].entry, *this, flat);
      };
      uint32_t found = children_in[tree].find(cmp);
      if (found != RbOrder::kNil) {
        // he_stat__add_stat(): the sums; the keys stay the first entry's.
        HistEntry& e = entries_[hierarchy_[found].entry];
        const HistEntry& add = entries_[flat];
        e.period += add.period;
        e.nr_events += add.nr_events;
        e.period_sys += add.period_sys;
        e.period_us += add.period_us;
        parent = found;
        continue;
      }
      uint32_t id = static_cast<uint32_t>(hierarchy_.size());
      children_in[tree].insert(id, [&](uint32_t other) { return cmp(other) < 0; });
      children_in.emplace_back();
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
        if (level_matches_filter(key, type)) {
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
      entries_.push_back(copy);
      // The keys stay the first entry's: its branch or memory sample too (by entry id).
      if (config_.branch_mode) {
        BranchInfo branch = branches_[flat];
        branches_.push_back(branch);
      }
      if (config_.mem_mode) {
        MemSample mem = mems_[flat];
        mems_.push_back(mem);
      }
      hierarchy_.push_back(node);
      parent = id;
    }
  }

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
  hierarchy_roots_ = output_order(children_in[0]);
  for (uint32_t id = 0; id < hierarchy_.size(); ++id) {
    hierarchy_[id].children = output_order(children_in[id + 1]);
  }
}

}  // namespace readperf
