// A Linux rb-tree's shape over nodes that live elsewhere (lib/rbtree.c): rotations, the
// insertion and erasure fix-ups, as the kernel does them. perf keeps symbols, histogram
// entries and call-graph children in such trees and walks them with comparisons that are not
// always an order (overlapping symbols, wrapping address differences): where that shows in
// what perf prints, readperf replays the tree itself.
//
//   // t.left(i), t.right(i), t.parent(i) give uint32_t&, t.red(i) bool&; `nil` is no node.
//   link `n` as a red leaf under its parent, then rb_insert_fixup(t, root, n, nil);
//   rb_erase(t, root, n, nil);
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

// lib/rbtree.c rb_erase() over nodes that live elsewhere (links as for rb_rotate()): the
// node's in-order successor takes its place when it has two children, then the colours are
// repaired from below (____rb_erase_color()'s four cases; shapes and colours as the
// kernel's).
template <class Links>
void rb_erase(Links& t, uint32_t& root, uint32_t node, uint32_t nil) {
  auto replace_child = [&](uint32_t old_child, uint32_t new_child, uint32_t parent) {
    if (parent == nil) {
      root = new_child;
    } else if (t.left(parent) == old_child) {
      t.left(parent) = new_child;
    } else {
      t.right(parent) = new_child;
    }
  };
  uint32_t child = t.right(node);
  uint32_t left = t.left(node);
  uint32_t rebalance = nil;  // the parent of a removed black leaf: repair from there
  if (left == nil || child == nil) {
    // At most one child, which is then red and takes the node's place and colour.
    uint32_t only = left == nil ? child : left;
    uint32_t parent = t.parent(node);
    replace_child(node, only, parent);
    if (only != nil) {
      t.parent(only) = parent;
      t.red(only) = t.red(node);
    } else if (!t.red(node)) {
      rebalance = parent;
    }
  } else {
    // The successor: the right child, or the leftmost node under it.
    uint32_t successor = child;
    uint32_t parent = successor;
    uint32_t child2;
    if (t.left(child) == nil) {
      child2 = t.right(successor);
    } else {
      while (t.left(successor) != nil) {
        parent = successor;
        successor = t.left(successor);
      }
      child2 = t.right(successor);
      t.left(parent) = child2;
      t.right(successor) = child;
      t.parent(child) = successor;
    }
    t.left(successor) = left;
    t.parent(left) = successor;
    uint32_t node_parent = t.parent(node);
    replace_child(node, successor, node_parent);
    if (child2 != nil) {
      t.parent(child2) = parent;
      t.red(child2) = false;
    } else if (!t.red(successor)) {
      rebalance = parent;
    }
    t.parent(successor) = node_parent;
    t.red(successor) = t.red(node);
  }
  if (rebalance == nil) return;
  // ____rb_erase_color(): `at` (nil the first time) is black and one black short.
  uint32_t at = nil;
  uint32_t parent = rebalance;
  for (;;) {
    const bool at_left = t.right(parent) != at;
    auto near = [&](uint32_t i) -> uint32_t& { return at_left ? t.left(i) : t.right(i); };
    auto far = [&](uint32_t i) -> uint32_t& { return at_left ? t.right(i) : t.left(i); };
    auto is_red = [&](uint32_t i) { return i != nil && t.red(i); };
    uint32_t sibling = far(parent);
    if (is_red(sibling)) {
      // Case 1: rotate the red sibling up.
      rb_rotate(t, root, parent, nil, at_left);
      t.red(sibling) = false;
      t.red(parent) = true;
      sibling = far(parent);
    }
    if (!is_red(far(sibling)) && !is_red(near(sibling))) {
      // Case 2: both nephews black: the sibling turns red, the shortfall moves up.
      t.red(sibling) = true;
      if (t.red(parent)) {
        t.red(parent) = false;
        return;
      }
      at = parent;
      parent = t.parent(at);
      if (parent == nil) return;
      continue;
    }
    if (!is_red(far(sibling))) {
      // Case 3: the near nephew red: rotate it up over the sibling.
      uint32_t nephew = near(sibling);
      rb_rotate(t, root, sibling, nil, !at_left);
      t.red(nephew) = false;
      t.red(sibling) = true;
      sibling = nephew;
    }
    // Case 4: rotate the sibling up over the parent; the far nephew turns black.
    rb_rotate(t, root, parent, nil, at_left);
    t.red(sibling) = t.red(parent);
    t.red(parent) = false;
    t.red(far(sibling)) = false;
    return;
  }
}

// Links `node` as a red leaf where a walk from the root ends, going left at `at` when
// `goes_left(at)` (lib/rbtree.c callers' rb_link_node()), then rebalances.
template <class Links, class GoesLeft>
void rb_insert(Links& t, uint32_t& root, uint32_t node, uint32_t nil, GoesLeft goes_left) {
  uint32_t parent = nil;
  bool left = false;
  for (uint32_t at = root; at != nil;) {
    parent = at;
    left = goes_left(at);
    at = left ? t.left(at) : t.right(at);
  }
  t.parent(node) = parent;
  t.left(node) = t.right(node) = nil;
  t.red(node) = true;
  if (parent == nil) {
    root = node;
  } else if (left) {
    t.left(parent) = node;
  } else {
    t.right(parent) = node;
  }
  rb_insert_fixup(t, root, node, nil);
}

// Nodes kept in a vector, by index, and the links the functions above take.
inline constexpr uint32_t kRbNil = ~0u;
struct RbNode {
  uint32_t left = kRbNil;
  uint32_t right = kRbNil;
  uint32_t parent = kRbNil;
  bool red = true;
};
struct RbNodeLinks {
  std::vector<RbNode>& n;
  uint32_t& left(uint32_t i) { return n[i].left; }
  uint32_t& right(uint32_t i) { return n[i].right; }
  uint32_t& parent(uint32_t i) { return n[i].parent; }
  bool& red(uint32_t i) { return n[i].red; }
};

}  // namespace readperf
