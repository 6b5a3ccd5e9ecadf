// The call-chain trees perf report prints under each histogram entry (util/callchain.c):
// every chain appended to an entry's root, frames matched by function (same DSO and symbol
// start, or the same address when a frame has no symbol), periods counted where chains end.
//
// Storage is one trie per histogram with one node per frame; each node's children form a
// red-black tree searched with perf's comparison (append_chain_children()), so a frame finds
// the node perf's search finds even where that comparison is not an order (an inline frame
// is compared by name, a real one by symbol start: "f (inlined)" may or may not meet "f").
// Appending a chain allocates nothing once its path exists. perf keeps path-compressed nodes
// (a node holds a run of frames) and splits them as chains diverge; a split keeps the node's
// place in its parent's tree and adds the new branch after the old one, as the trie adds
// children in order of arrival, and the compressed form of a trie is unique, so it is derived
// when printing (compressed_end) and the output is the same.
//
//   CallTree tree;
//   CallTree::NodeId root = tree.new_root();
//   tree.append(root, keys.data(), keys.size(), period);   // frames nearest the root first
//   tree.finish();                                         // cumulative hits, child lists
//   for (NodeId c : tree.sorted_children(root, min_hit, scratch)) ...
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace readperf {

struct Dso;
struct Symbol;

// One frame as the tree matches and prints it.
// FNV-1a of a symbol name: how inline frames' symbols, which share their function's start,
// are keyed apart.
uint64_t name_hash(std::string_view s);

struct ChainFrame {
  uint64_t ip = 0;              // as recorded: printed "%#lx" when there is no symbol
  const Dso* dso = nullptr;     // matched by identity
  const Symbol* sym = nullptr;  // matched by start address
  int32_t dso_order = -1;       // perf compares dso pointers: creation order, -1 for none
  // The cursor node's srcline with `-g address` or `-g srcline` (machine.c
  // callchain_srcline()): an index into the tree's srcline table, 0 for none (NULL).
  uint32_t srcline = 0;
};

// A call-chain frame made from a branch (machine.c add_callchain_ip() with branch = true:
// `--branch-history`, `-g branch`): its flags, and for the branch's target the source it came
// from; the iterations remove_loops() cut after a branch's source.
struct ChainBranch {
  bool branch = false;
  uint64_t from = 0;   // branch_from: nonzero on the branch's target
  uint64_t flags = 0;  // struct perf_branch_entry's flag bits
  uint32_t nr_loop_iter = 0;
  uint64_t iter_cycles = 0;
};

// branch.h struct branch_type_stat: branches by type, conditional ones by direction, and
// those crossing a 4 KiB or 2 MiB boundary.
struct BranchTypeStat {
  uint64_t counts[16] = {};     // PERF_BR_MAX
  uint64_t new_counts[8] = {};  // PERF_BR_NEW_MAX
  uint64_t cond_fwd = 0, cond_bwd = 0, cross_4k = 0, cross_2m = 0;

  // branch.c branch_type_count(): nothing for PERF_BR_UNKNOWN or a source of 0.
  void count(uint64_t flags, uint64_t from, uint64_t to);
  // branch.c branch_type_str(): " (NAME NAME ..." as callchain counts print them; the
  // number of names written.
  int append_names(std::string& out) const;
  // branch.c branch_type_stat_display(): the "# Branch Statistics:" block after a
  // branch-mode report, nothing when no branch had a type.
  void append_display(std::string& out) const;
};

// callchain.h struct callchain_list's branch counters with its branch_type_stat (branch.h):
// what `--branch-history` prints after each call-graph line of a recording with branch
// stacks (callchain.c callchain_list_counts__printf_value()).
struct ChainBranchCounts {
  uint64_t branch_count = 0;
  uint64_t predicted_count = 0;
  uint64_t abort_count = 0;
  uint64_t cycles_count = 0;
  uint64_t iter_count = 0;
  uint64_t iter_cycles = 0;
  uint64_t from_count = 0;
  bool branch_to = false;
  BranchTypeStat types;

  // callchain.c fill_node() (`new_node`) / match_chain(): one more cursor node at this
  // frame (`ip`).
  void add(const ChainBranch& b, uint64_t ip, bool new_node);
  // callchain.c counts_str_build(): " (calltrace)" for a frame no branch made, else its
  // branch types, predicted and abort shares for a target, cycles and iterations for a
  // source; empty when there is nothing to say.
  void append_text(std::string& out) const;
};

// callchain_param.key: what joins frames into one node (`-g function|address|srcline`).
enum class ChainKey : uint8_t { kFunction, kAddress, kSrcline };

class CallTree {
 public:
  using NodeId = uint32_t;
  static constexpr NodeId kNone = ~0u;

  struct Node {
    ChainFrame frame;  // the first frame that made this node
    NodeId parent = kNone;
    NodeId first_child = kNone;  // set by finish()
    NodeId next_sibling = kNone;
    uint32_t nr_children = 0;  // set by finish()
    uint32_t count = 0;        // chains ending here (callchain_node.count)
    uint64_t hit = 0;          // period of chains ending here (callchain_node.hit)
    uint64_t cumul = 0;        // hit plus every descendant's, set by finish()
    uint64_t cumul_count = 0;  // count likewise
    // The red-black tree of this node's children, and this node's links in its parent's.
    NodeId children_root = kNone;
    NodeId rb_left = kNone, rb_right = kNone, rb_parent = kNone;
    bool rb_red = true;
  };

  CallTree();

  // `-g address` or `-g srcline`: frames compare by address, or by srcline (the text of
  // `srclines`, indexed by ChainFrame::srcline; entry 0 unused), which must outlive the tree.
  void set_key(ChainKey key, const std::vector<std::string_view>* srclines) {
    key_ = key;
    srclines_ = srclines;
  }
  // A frame's srcline, empty for none.
  std::string_view srcline(const ChainFrame& f) const {
    return srclines_ && f.srcline ? (*srclines_)[f.srcline] : std::string_view();
  }

  // A new empty root: one per histogram entry.
  NodeId new_root();
  // callchain.c callchain_append(): walks or grows the path of `frames` (nearest the root
  // first) below `root` and adds `period` where it ends, which it returns. An empty chain
  // adds nothing (kNone).
  NodeId append(NodeId root, std::span<const ChainFrame> frames, uint64_t period);
  // The same, each frame's branch (as many as `frames`) counted on the node it reaches
  // (symbol_conf.show_branchflag_count).
  NodeId append(NodeId root, std::span<const ChainFrame> frames,
                std::span<const ChainBranch> branches, uint64_t period);
  // The branch counters of a node; null when no chain with branches was appended.
  const ChainBranchCounts* branch_counts(NodeId id) const {
    return id < branch_counts_.size() ? &branch_counts_[id] : nullptr;
  }
  // Another chain ending at `end`, a node append() returned.
  void bump(NodeId end, uint64_t period, uint64_t count = 1) {
    nodes_[end].hit += period;
    nodes_[end].count += count;
  }

  // callchain.c callchain_merge(): every path of `src`'s tree on which chains ended (hit > 0)
  // appended to `dst`'s with that period (and a count of 1, as perf's), parents before
  // children, children in their tree's order. `src`'s tree stays, unreachable from `dst`.
  void merge(NodeId dst, NodeId src);

  // Links children and sums cumulative hits; call once, after the last append().
  void finish();

  const Node& node(NodeId id) const { return nodes_[id]; }
  size_t size() const { return nodes_.size(); }

  // The children perf prints below `parent` (callchain.c sort_chain_graph_abs() then
  // rb_insert_callchain()): those with cumulative hits >= min_hit, by cumulative hits, equal
  // ones in the order of the children's tree. Fills and returns `out`.
  std::span<const NodeId> sorted_children(NodeId parent, uint64_t min_hit,
                                          std::vector<NodeId>& out) const;
  // The children in their red-black tree's order (perf's rb_root_in: match_chain()'s order,
  // a new frame left of an existing one it compares greater than). Fills and returns `out`.
  std::span<const NodeId> children_in_order(NodeId parent, std::vector<NodeId>& out) const;
  // The last node of the compressed node starting at `id`: perf keeps a run of frames in one
  // node while no chain ends inside it (even with period 0) and it does not branch.
  NodeId compressed_end(NodeId id) const;

 private:
  NodeId find_or_add(NodeId parent, const ChainFrame& f);
  void merge_branch(NodeId dst, NodeId node, std::vector<ChainFrame>& path);

  std::vector<Node> nodes_;
  std::vector<ChainBranchCounts> branch_counts_;  // by NodeId, once a branch was counted
  bool finished_ = false;
  ChainKey key_ = ChainKey::kFunction;
  const std::vector<std::string_view>* srclines_ = nullptr;
};

// callchain.c match_chain() with CCKEY_FUNCTION between a node's frame and a new one: by name
// when both have a symbol and either is an inline frame's, else by DSO then symbol start when
// both have a symbol, else by DSO then address. Negative (MATCH_LT: `existing` first),
// zero or positive. CCKEY_ADDRESS goes to the last; CCKEY_SRCLINE compares the srclines
// (`existing_srcline`, `incoming_srcline`; null data for none) first, where either has one.
int match_chain_frames(const ChainFrame& existing, const ChainFrame& incoming,
                       ChainKey key = ChainKey::kFunction, std::string_view existing_srcline = {},
                       std::string_view incoming_srcline = {});

}  // namespace readperf
