// The order a Linux rb-tree ends up in when items are inserted one by one with a comparison
// that need not be consistent (lib/rbtree.c __rb_insert). perf's output sort
// (hist.c __hists__insert_output_entry) breaks Children ties by call depth only between
// entries of one thread, which is not a strict weak order: the order perf prints then depends
// on which entries each insertion was compared with, so the tree itself is replayed here.
//
//   RbOrder tree;
//   for (uint32_t item : items) tree.insert(item, [&](uint32_t other) { return goes_left(item,
//   other); }); std::vector<uint32_t> order = tree.in_order();
#pragma once

#include <cstdint>
#include <vector>

#include "readperf/symbols/rb_tree.h"

namespace readperf {

class RbOrder {
 public:
  static constexpr uint32_t kNil = kRbNil;

  // Inserts `item`; `left(other)` says whether it goes left of `other` on the way down.
  template <class GoesLeft>
  void insert(uint32_t item, GoesLeft left) {
    uint32_t n = static_cast<uint32_t>(nodes_.size());
    nodes_.emplace_back();
    items_.push_back(item);
    RbNodeLinks links{nodes_};
    rb_insert(links, root_, n, kNil, [&](uint32_t at) { return left(items_[at]); });
  }

  // The item a walk from the root meets first where `cmp(other)` is 0, going left where it
  // is negative (perf's lookups before an insertion, hist.c hierarchy_insert_entry()); kNil
  // when none.
  template <class Cmp>
  uint32_t find(Cmp cmp) const {
    for (uint32_t at = root_; at != kNil;) {
      int c = cmp(items_[at]);
      if (!c) return items_[at];
      at = c < 0 ? nodes_[at].left : nodes_[at].right;
    }
    return kNil;
  }

  std::vector<uint32_t> in_order() const;

 private:
  std::vector<RbNode> nodes_;
  std::vector<uint32_t> items_;  // by node
  uint32_t root_ = kNil;
};

}  // namespace readperf
