#include "readperf/analysis/call_tree.h"

#include <algorithm>

#include "readperf/symbols/symbol_table.h"

namespace readperf {

namespace {

uint64_t mix(uint64_t h) {
  // splitmix64's finalizer: cheap and good enough for addresses that share high bits.
  h ^= h >> 30;
  h *= 0xbf58476d1ce4e5b9ull;
  h ^= h >> 27;
  h *= 0x94d049bb133111ebull;
  h ^= h >> 31;
  return h;
}

}  // namespace

uint64_t name_hash(std::string_view s) {
  uint64_t h = 0xcbf29ce484222325ull;  // FNV-1a
  for (char c : s) h = (h ^ static_cast<uint8_t>(c)) * 0x100000001b3ull;
  return h;
}

uint64_t ChainFrame::match_addr() const {
  // Inline frames share their symbol's start: they are told apart by name.
  if (sym && sym->inlined) return name_hash(sym->name);
  return sym ? sym->start : ip;
}

int compare_chain_frames(const ChainFrame& a, const ChainFrame& b) {
  // callchain.c match_chain(): "Compare inlined frames based on their symbol name because
  // different inlined frames will have the same symbol start".
  if (a.sym && b.sym && (a.sym->inlined || b.sym->inlined)) {
    int c = a.sym->name.compare(b.sym->name);
    return c < 0 ? -1 : c > 0 ? 1 : 0;
  }
  // Otherwise both with a symbol compare (dso, symbol start), else (dso, ip); perf's dso
  // comparison is by pointer, which follows creation order.
  if (a.dso_order != b.dso_order) return a.dso_order < b.dso_order ? -1 : 1;
  uint64_t x = a.sym && b.sym ? a.sym->start : a.ip;
  uint64_t y = a.sym && b.sym ? b.sym->start : b.ip;
  if (x != y) return x < y ? -1 : 1;
  return 0;
}

CallTree::CallTree() { table_.assign(1024, Slot{0, 0, 0, kNone, 0}); }

CallTree::NodeId CallTree::new_root() {
  nodes_.emplace_back();
  return static_cast<NodeId>(nodes_.size() - 1);
}

void CallTree::grow() {
  std::vector<Slot> old = std::move(table_);
  table_.assign(old.size() * 2, Slot{0, 0, 0, kNone, 0});
  size_t mask = table_.size() - 1;
  for (const Slot& s : old) {
    if (s.node == kNone) continue;
    size_t i = mix(s.addr ^ (uint64_t{s.parent} << 32) ^ static_cast<uint32_t>(s.dso_order) ^
                   (uint64_t{s.has_sym} << 63)) &
               mask;
    while (table_[i].node != kNone) i = (i + 1) & mask;
    table_[i] = s;
  }
}

CallTree::NodeId CallTree::find_or_add(NodeId parent, const ChainFrame& f) {
  uint64_t addr = f.match_addr();
  uint32_t has_sym = f.sym ? (f.sym->inlined ? 2 : 1) : 0;
  size_t mask = table_.size() - 1;
  size_t i = mix(addr ^ (uint64_t{parent} << 32) ^ static_cast<uint32_t>(f.dso_order) ^
                 (uint64_t{has_sym} << 63)) &
             mask;
  for (;; i = (i + 1) & mask) {
    Slot& s = table_[i];
    if (s.node == kNone) break;
    if (s.addr == addr && s.parent == parent && s.dso_order == f.dso_order &&
        s.has_sym == has_sym) {
      return s.node;
    }
  }
  NodeId id = static_cast<NodeId>(nodes_.size());
  Node& n = nodes_.emplace_back();
  n.frame = f;
  n.parent = parent;
  table_[i] = Slot{addr, parent, f.dso_order, id, has_sym};
  if (++used_ * 2 > table_.size()) grow();
  return id;
}

CallTree::NodeId CallTree::append(NodeId root, std::span<const ChainFrame> frames,
                                  uint64_t period) {
  if (frames.empty()) return kNone;
  NodeId at = root;
  for (const ChainFrame& f : frames) at = find_or_add(at, f);
  bump(at, period);
  return at;
}

void CallTree::finish() {
  if (finished_) return;
  finished_ = true;
  // A child is always made after its parent, so one pass from the back sums every subtree.
  for (Node& n : nodes_) {
    n.cumul = n.hit;
    n.cumul_count = n.count;
  }
  for (size_t i = nodes_.size(); i-- > 0;) {
    Node& n = nodes_[i];
    if (n.parent == kNone) continue;
    Node& p = nodes_[n.parent];
    p.cumul += n.cumul;
    p.cumul_count += n.cumul_count;
    n.next_sibling = p.first_child;
    p.first_child = static_cast<NodeId>(i);
    ++p.nr_children;
  }
}

std::span<const CallTree::NodeId> CallTree::sorted_children(NodeId parent, uint64_t min_hit,
                                                            std::vector<NodeId>& out) const {
  out.clear();
  for (NodeId c = nodes_[parent].first_child; c != kNone; c = nodes_[c].next_sibling) {
    if (nodes_[c].cumul >= min_hit) out.push_back(c);
  }
  // rb_insert_callchain() puts an equal node after the ones already inserted, which come in
  // the order of the children's rb-tree: frame keys descending (append_chain_children()
  // sends a frame greater than a child's to its left).
  std::stable_sort(out.begin(), out.end(), [this](NodeId a, NodeId b) {
    const Node& x = nodes_[a];
    const Node& y = nodes_[b];
    if (x.cumul != y.cumul) return x.cumul > y.cumul;
    return compare_chain_frames(x.frame, y.frame) > 0;
  });
  return out;
}

CallTree::NodeId CallTree::compressed_end(NodeId id) const {
  while (nodes_[id].count == 0 && nodes_[id].nr_children == 1) id = nodes_[id].first_child;
  return id;
}

}  // namespace readperf
