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

// Rotates `x` down to the `left` (a left rotation) or the right: its child on the other side
// takes its place. `t` gives each node's links by index (left(i), right(i), parent(i) as
// uint32_t&, red(i) as bool&), `root` is the tree's root, `nil` the null index.
template <class Links>
void rb_rotate(Links& t, uint32_t& root, uint32_t x, uint32_t nil, bool left) {
  auto child = [&t](uint32_t i, bool l) -> uint32_t& { return l ? t.left(i) : t.right(i); };
  uint32_t y = child(x, !left);
  uint32_t p = t.parent(x);
  child(x, !left) = child(y, left);
  if (child(y, left) != nil) t.parent(child(y, left)) = x;
  child(y, left) = x;
  t.parent(x) = y;
  t.parent(y) = p;
  if (p == nil) {
    root = y;
  } else if (t.left(p) == x) {
    t.left(p) = y;
  } else {
    t.right(p) = y;
  }
}

// lib/rbtree.c __rb_insert() over nodes that live elsewhere (links as for rb_rotate()):
// `node` was just linked in as a red leaf.
template <class Links>
void rb_insert_fixup(Links& t, uint32_t& root, uint32_t node, uint32_t nil) {
  // The classic cases, so the shape is the kernel's.
  for (;;) {
    uint32_t parent = t.parent(node);
    if (parent == nil) {
      t.red(node) = false;
      return;
    }
    if (!t.red(parent)) return;
    uint32_t gparent = t.parent(parent);
    const bool parent_is_left = t.left(gparent) == parent;
    uint32_t uncle = parent_is_left ? t.right(gparent) : t.left(gparent);
    if (uncle != nil && t.red(uncle)) {
      t.red(uncle) = false;
      t.red(parent) = false;
      t.red(gparent) = true;
      node = gparent;
      continue;
    }
    // The node on the inner side comes up first, then the grandparent goes down outwards.
    if ((parent_is_left ? t.right(parent) : t.left(parent)) == node) {
      rb_rotate(t, root, parent, nil, parent_is_left);
      parent = node;
    }
    rb_rotate(t, root, gparent, nil, !parent_is_left);
    t.red(parent) = false;
    t.red(gparent) = true;
    return;
  }
}

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
    Links links{nodes_};
    rb_insert_fixup(links, root_, n, kNil);
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
  struct Links {
    std::vector<Node>& n;
    uint32_t& left(uint32_t i) { return n[i].left; }
    uint32_t& right(uint32_t i) { return n[i].right; }
    uint32_t& parent(uint32_t i) { return n[i].parent; }
    bool& red(uint32_t i) { return n[i].red; }
  };

  std::vector<Node> nodes_;
  uint32_t root_ = kNil;
};

}  // namespace readperf
