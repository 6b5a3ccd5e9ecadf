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

namespace readperf {

class RbOrder {
 public:
  static constexpr uint32_t kNil = ~0u;

  // Inserts `item`; `left(other)` says whether it goes left of `other` on the way down.
  template <class GoesLeft>
  void insert(uint32_t item, GoesLeft left) {
    uint32_t parent = kNil;
    bool is_left = false;
    for (uint32_t at = root_; at != kNil;) {
      parent = at;
      is_left = left(nodes_[at].item);
      at = is_left ? nodes_[at].left : nodes_[at].right;
    }
    uint32_t n = static_cast<uint32_t>(nodes_.size());
    nodes_.push_back(Node{item, parent, kNil, kNil, true});
    if (parent == kNil) {
      root_ = n;
    } else if (is_left) {
      nodes_[parent].left = n;
    } else {
      nodes_[parent].right = n;
    }
    fixup(n);
  }

  std::vector<uint32_t> in_order() const;

 private:
  struct Node {
    uint32_t item;
    uint32_t parent;
    uint32_t left;
    uint32_t right;
    bool red;
  };
  void fixup(uint32_t node);
  void rotate_left(uint32_t x);
  void rotate_right(uint32_t x);

  std::vector<Node> nodes_;
  uint32_t root_ = kNil;
};

}  // namespace readperf
