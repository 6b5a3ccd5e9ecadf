#include "rb_order.h"

namespace readperf {

void RbOrder::rotate_left(uint32_t x) {
  uint32_t y = nodes_[x].right;
  uint32_t p = nodes_[x].parent;
  nodes_[x].right = nodes_[y].left;
  if (nodes_[y].left != kNil) nodes_[nodes_[y].left].parent = x;
  nodes_[y].left = x;
  nodes_[x].parent = y;
  nodes_[y].parent = p;
  if (p == kNil) {
    root_ = y;
  } else if (nodes_[p].left == x) {
    nodes_[p].left = y;
  } else {
    nodes_[p].right = y;
  }
}

void RbOrder::rotate_right(uint32_t x) {
  uint32_t y = nodes_[x].left;
  uint32_t p = nodes_[x].parent;
  nodes_[x].left = nodes_[y].right;
  if (nodes_[y].right != kNil) nodes_[nodes_[y].right].parent = x;
  nodes_[y].right = x;
  nodes_[x].parent = y;
  nodes_[y].parent = p;
  if (p == kNil) {
    root_ = y;
  } else if (nodes_[p].left == x) {
    nodes_[p].left = y;
  } else {
    nodes_[p].right = y;
  }
}

void RbOrder::fixup(uint32_t node) {
  // lib/rbtree.c __rb_insert(): the classic cases, so the shape is the kernel's.
  for (;;) {
    uint32_t parent = nodes_[node].parent;
    if (parent == kNil) {
      nodes_[node].red = false;
      return;
    }
    if (!nodes_[parent].red) return;
    uint32_t gparent = nodes_[parent].parent;
    if (nodes_[gparent].left == parent) {
      uint32_t uncle = nodes_[gparent].right;
      if (uncle != kNil && nodes_[uncle].red) {
        nodes_[uncle].red = false;
        nodes_[parent].red = false;
        nodes_[gparent].red = true;
        node = gparent;
        continue;
      }
      if (nodes_[parent].right == node) {
        rotate_left(parent);
        parent = node;
      }
      rotate_right(gparent);
      nodes_[parent].red = false;
      nodes_[gparent].red = true;
      return;
    }
    uint32_t uncle = nodes_[gparent].left;
    if (uncle != kNil && nodes_[uncle].red) {
      nodes_[uncle].red = false;
      nodes_[parent].red = false;
      nodes_[gparent].red = true;
      node = gparent;
      continue;
    }
    if (nodes_[parent].left == node) {
      rotate_right(parent);
      parent = node;
    }
    rotate_left(gparent);
    nodes_[parent].red = false;
    nodes_[gparent].red = true;
    return;
  }
}

std::vector<uint32_t> RbOrder::in_order() const {
  std::vector<uint32_t> out;
  out.reserve(nodes_.size());
  std::vector<uint32_t> stack;
  uint32_t at = root_;
  while (at != kNil || !stack.empty()) {
    while (at != kNil) {
      stack.push_back(at);
      at = nodes_[at].left;
    }
    at = stack.back();
    stack.pop_back();
    out.push_back(nodes_[at].item);
    at = nodes_[at].right;
  }
  return out;
}

}  // namespace readperf
