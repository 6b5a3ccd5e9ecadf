#include "readperf/analysis/call_tree.h"

#include <fmt/format.h>

#include <algorithm>

#include "rb_order.h"
#include "readperf/reader/sample.h"
#include "readperf/symbols/symbol_table.h"

namespace readperf {

uint64_t name_hash(std::string_view s) {
  uint64_t h = 0xcbf29ce484222325ull;  // FNV-1a
  for (char c : s) h = (h ^ static_cast<uint8_t>(c)) * 0x100000001b3ull;
  return h;
}

int match_chain_frames(const ChainFrame& existing, const ChainFrame& incoming, ChainKey key,
                       std::string_view existing_srcline, std::string_view incoming_srcline) {
  const ChainFrame& a = existing;
  const ChainFrame& b = incoming;
  // match_chain_strings(cnode->srcline, node->srcline): strcmp where both have one, the one
  // without first... as MATCH_GT; neither: the function's comparison.
  if (key == ChainKey::kSrcline) {
    const bool ha = existing_srcline.data() != nullptr, hb = incoming_srcline.data() != nullptr;
    if (ha && hb) {
      int c = existing_srcline.compare(incoming_srcline);
      return c < 0 ? -1 : c > 0 ? 1 : 0;
    }
    if (ha != hb) return ha ? -1 : 1;
  }
  // "Compare inlined frames based on their symbol name because different inlined frames will
  // have the same symbol start."
  const bool by_symbol = key != ChainKey::kAddress && a.sym && b.sym;
  if (by_symbol && (a.sym->inlined || b.sym->inlined)) {
    int c = a.sym->name.compare(b.sym->name);
    if (c) return c < 0 ? -1 : 1;
    // Equal names fall back to the addresses (match_chain_strings() found no MATCH_ERROR:
    // equal), so the frames match.
    return 0;
  }
  // match_chain_dso_addresses(): perf's dso comparison is by pointer, which follows creation
  // order.
  if (a.dso_order != b.dso_order) return a.dso_order < b.dso_order ? -1 : 1;
  uint64_t x = by_symbol ? a.sym->start : a.ip;
  uint64_t y = by_symbol ? b.sym->start : b.ip;
  if (x != y) return x < y ? -1 : 1;
  return 0;
}

namespace {
constexpr size_t kReservedNodes = size_t{1} << 18;
}  // namespace

CallTree::CallTree() = default;

CallTree::NodeId CallTree::new_root() {
  // Address space only, once a tree is used (untouched capacity costs no memory): the nodes
  // of a large report (60k on the bench recording) are then never copied to a doubled vector,
  // which held the old and the new copy at once and touched both.
  if (nodes_.capacity() == 0) nodes_.reserve(kReservedNodes);
  nodes_.emplace_back();
  return static_cast<NodeId>(nodes_.size() - 1);
}

namespace {

struct ChildLinks {
  std::vector<CallTree::Node>& n;
  uint32_t& left(uint32_t i) { return n[i].rb_left; }
  uint32_t& right(uint32_t i) { return n[i].rb_right; }
  uint32_t& parent(uint32_t i) { return n[i].rb_parent; }
  bool& red(uint32_t i) { return n[i].rb_red; }
};

}  // namespace

CallTree::NodeId CallTree::find_or_add(NodeId parent, const ChainFrame& f) {
  // append_chain_children(): down the children's tree, left where the child's frame comes
  // first (MATCH_LT), right otherwise, until one matches or the search falls off.
  NodeId at = nodes_[parent].children_root;
  NodeId under = kNone;
  bool left = false;
  while (at != kNone) {
    int m = key_ == ChainKey::kFunction ? match_chain_frames(nodes_[at].frame, f)
                                        : match_chain_frames(nodes_[at].frame, f, key_,
                                                             srcline(nodes_[at].frame), srcline(f));
    if (m == 0) return at;
    under = at;
    left = m < 0;
    at = left ? nodes_[at].rb_left : nodes_[at].rb_right;
  }
  NodeId id = static_cast<NodeId>(nodes_.size());
  Node& n = nodes_.emplace_back();
  n.frame = f;
  n.parent = parent;
  n.rb_parent = under;
  if (under == kNone) {
    nodes_[parent].children_root = id;
  } else if (left) {
    nodes_[under].rb_left = id;
  } else {
    nodes_[under].rb_right = id;
  }
  ChildLinks links{nodes_};
  rb_insert_fixup(links, nodes_[parent].children_root, id, kNone);
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

CallTree::NodeId CallTree::append(NodeId root, std::span<const ChainFrame> frames,
                                  std::span<const ChainBranch> branches, uint64_t period) {
  if (frames.empty()) return kNone;
  NodeId at = root;
  for (size_t i = 0; i < frames.size(); ++i) {
    const size_t before = nodes_.size();
    at = find_or_add(at, frames[i]);
    if (branch_counts_.size() < nodes_.size()) branch_counts_.resize(nodes_.size());
    branch_counts_[at].add(branches[i], frames[i].ip, nodes_.size() != before);
  }
  bump(at, period);
  return at;
}

void BranchTypeStat::count(uint64_t flags, uint64_t from, uint64_t to) {
  BranchFlags f(flags);
  if (f.type() == kBranchTypeUnknown || from == 0) return;
  if (f.type() == kBranchTypeExtendAbi) {
    // perf indexes its 8 counters with the 4-bit new_type; readperf drops what does not fit.
    if (f.new_type() < kBranchNewTypeMax) ++new_counts[f.new_type()];
  } else {
    ++counts[f.type()];
  }
  if (f.type() == kBranchTypeCond) {
    if (to > from) {
      ++cond_fwd;
    } else {
      ++cond_bwd;
    }
  }
  // cross_area(): in different 2 MiB, else 4 KiB, areas.
  auto cross = [&](uint64_t size) { return (from & ~(size - 1)) != (to & ~(size - 1)); };
  if (cross(2 << 20)) {
    ++cross_2m;
  } else if (cross(4096)) {
    ++cross_4k;
  }
}

int BranchTypeStat::append_names(std::string& out) const {
  uint64_t total = 0;
  for (uint64_t c : counts) total += c;
  for (uint64_t c : new_counts) total += c;
  if (total == 0) return 0;
  int names = 0;
  auto name = [&](const char* s) {
    out += names++ ? " " : " (";
    out += s ? s : "(null)";
  };
  if (cond_fwd) name("COND_FWD");
  if (cond_bwd) name("COND_BWD");
  for (unsigned t = 0; t < kBranchTypeMax; ++t) {
    if (t != kBranchTypeCond && counts[t]) name(branch_type_name(t));
  }
  for (unsigned t = 0; t < kBranchNewTypeMax; ++t) {
    if (new_counts[t]) name(branch_new_type_name(t));
  }
  if (cross_4k) name("CROSS_4K");
  if (cross_2m) name("CROSS_2M");
  return names;
}

void BranchTypeStat::append_display(std::string& out) const {
  // The total is of the PERF_BR_* counts alone; the new types' shares are of it too.
  uint64_t total = 0;
  for (uint64_t c : counts) total += c;
  if (total == 0) return;
  out += "\n#\n# Branch Statistics:\n#";
  auto line = [&](const char* name, uint64_t n) {
    out += fmt::format("\n{:>8}: {:5.1f}%", name ? name : "(null)",
                       100.0 * static_cast<double>(n) / static_cast<double>(total));
  };
  if (cond_fwd) line("COND_FWD", cond_fwd);
  if (cond_bwd) line("COND_BWD", cond_bwd);
  if (cross_4k) line("CROSS_4K", cross_4k);
  if (cross_2m) line("CROSS_2M", cross_2m);
  for (unsigned t = 0; t < kBranchTypeMax; ++t) {
    if (counts[t]) line(branch_type_name(t), counts[t]);
  }
  for (unsigned t = 0; t < kBranchNewTypeMax; ++t) {
    if (new_counts[t]) line(branch_new_type_name(t), new_counts[t]);
  }
}

void ChainBranchCounts::add(const ChainBranch& b, uint64_t ip, bool new_node) {
  if (!b.branch) return;
  ++branch_count;
  BranchFlags f(b.flags);
  if (b.from) {
    // "It's 'to' of a branch" (branch_from set).
    branch_to = true;
    if (f.predicted()) ++predicted_count;
    if (f.abort()) ++abort_count;
    types.count(b.flags, b.from, ip);
  } else {
    branch_to = false;
    cycles_count += f.cycles();
    iter_count += b.nr_loop_iter;
    iter_cycles += b.iter_cycles;
    // fill_node() leaves from_count at 0 on the node it makes; match_chain() counts.
    if (!new_node) ++from_count;
  }
}

void ChainBranchCounts::append_text(std::string& out) const {
  if (branch_count == 0) {
    out += " (calltrace)";
    return;
  }
  int items = 0;
  auto open = [&] { out += items++ ? " " : " ("; };
  if (branch_to) {
    // branch_to_str(): the types first.
    items = types.append_names(out);
    // count_float_printf(): the share is a float, printed "%.1f%%"; abort only from 0.1%.
    auto share = [&](const char* what, uint64_t n, float threshold) {
      float v =
          static_cast<float>(static_cast<double>(n) * 100.0 / static_cast<double>(branch_count));
      if (threshold != 0.0f && v < threshold) return;
      open();
      out += fmt::format("{}:{:.1f}%", what, static_cast<double>(v));
    };
    if (predicted_count < branch_count) share("predicted", predicted_count, 0.0f);
    if (abort_count) share("abort", abort_count, 0.1f);
  } else {
    // branch_from_str(): average cycles, then iterations and their average cycles.
    if (uint64_t cycles = cycles_count / branch_count) {
      open();
      out += fmt::format("cycles:{}", cycles);
    }
    if (iter_count && from_count) {
      if (uint64_t v = iter_count / from_count) {
        open();
        out += fmt::format("iter:{}", v);
        open();
        out += fmt::format("avg_cycles:{}", iter_cycles / iter_count);
      }
    }
  }
  if (items) out += ')';
}

void CallTree::merge(NodeId dst, NodeId src) {
  std::vector<ChainFrame> path;
  merge_branch(dst, src, path);
}

void CallTree::merge_branch(NodeId dst, NodeId node, std::vector<ChainFrame>& path) {
  // merge_chain_branch(): the node's frames onto the cursor, the path appended where chains
  // ended, then the children in rb_first()/rb_next() order.
  if (nodes_[node].hit) append(dst, path, nodes_[node].hit);
  std::vector<NodeId> children, stack;
  for (NodeId at = nodes_[node].children_root; at != kNone || !stack.empty();) {
    if (at != kNone) {
      stack.push_back(at);
      at = nodes_[at].rb_left;
      continue;
    }
    at = stack.back();
    stack.pop_back();
    children.push_back(at);
    at = nodes_[at].rb_right;
  }
  for (NodeId c : children) {
    path.push_back(nodes_[c].frame);
    merge_branch(dst, c, path);
    path.pop_back();
  }
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
  // sort_chain_graph_abs() walks the children's tree in order; rb_insert_callchain() puts an
  // equal node after the ones already inserted.
  children_in_order(parent, out);
  std::erase_if(out, [&](NodeId n) { return nodes_[n].cumul < min_hit; });
  std::stable_sort(out.begin(), out.end(),
                   [this](NodeId a, NodeId b) { return nodes_[a].cumul > nodes_[b].cumul; });
  return out;
}

std::span<const CallTree::NodeId> CallTree::children_in_order(NodeId parent,
                                                              std::vector<NodeId>& out) const {
  out.clear();
  NodeId at = nodes_[parent].children_root;
  if (at != kNone) {
    while (nodes_[at].rb_left != kNone) at = nodes_[at].rb_left;
  }
  while (at != kNone) {
    out.push_back(at);
    // The in-order successor.
    if (nodes_[at].rb_right != kNone) {
      at = nodes_[at].rb_right;
      while (nodes_[at].rb_left != kNone) at = nodes_[at].rb_left;
    } else {
      NodeId from = at;
      at = nodes_[at].rb_parent;
      while (at != kNone && nodes_[at].rb_right == from) {
        from = at;
        at = nodes_[at].rb_parent;
      }
    }
  }
  return out;
}

CallTree::NodeId CallTree::compressed_end(NodeId id) const {
  while (nodes_[id].count == 0 && nodes_[id].nr_children == 1) id = nodes_[id].first_child;
  return id;
}

}  // namespace readperf
