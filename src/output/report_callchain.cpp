// The call graph under a histogram entry, as ui/stdio/hist.c prints it in graph (and
// fractal) mode: "---" for a single chain carrying the whole entry, then one "--XX.XX%--"
// branch per child, '|' rails for the levels still open.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "readperf/output/report_printer.h"
#include "readperf/symbols/symbol_table.h"

namespace readperf {

namespace {

using NodeId = CallTree::NodeId;

// The int depth masks of ui/stdio/hist.c, with x86's shift-count masking past 31 levels.
uint32_t bit(int i) { return 1u << (static_cast<unsigned>(i) & 31); }

// callchain.c callchain_list__sym_name(): with `-g address` or `-g srcline`, the symbol's
// name and the node's srcline.
void append_frame_name(fmt::memory_buffer& b, const ChainFrame& f, std::string_view srcline) {
  if (f.sym) {
    b.append(f.sym->name);
    if (!srcline.empty()) {
      b.push_back(' ');
      b.append(srcline);
    }
    if (f.sym->inlined) b.append(std::string_view(" (inlined)"));
  } else if (f.ip) {
    fmt::format_to(std::back_inserter(b), "{:#x}", f.ip);
  } else {
    b.push_back('0');
  }
}

// callchain.c callchain_node__fprintf_value(): the period, the count or the percentage of
// `total`.
void append_chain_value(fmt::memory_buffer& b, ChainValue how, uint64_t period, uint64_t count,
                        uint64_t total) {
  switch (how) {
    case ChainValue::kPeriod:
      fmt::format_to(std::back_inserter(b), "{}", period);
      break;
    case ChainValue::kCount:
      fmt::format_to(std::back_inserter(b), "{}", static_cast<uint32_t>(count));
      break;
    case ChainValue::kPercent: {
      double percent =
          total ? static_cast<double>(period) * 100.0 / static_cast<double>(total) : 0.0;
      fmt::format_to(std::back_inserter(b), "{:.2f}%", percent);
      break;
    }
  }
}

class GraphPrinter {
 public:
  GraphPrinter(const Hists& hists, const ReportPrintOptions& opts, OutBuffer& out)
      : tree_(hists.tree()),
        opts_(opts),
        out_(out),
        b_(out.buffer()),
        branch_counts_(hists.config().show_branchflag_count) {}

  // callchain__fprintf_graph().
  void print(NodeId root, uint64_t total_samples, uint64_t parent_samples, uint64_t min_hit,
             bool skip_first) {
    min_hit_ = min_hit;
    size_t before = b_.size();
    int left_margin = 0;
    std::vector<NodeId> kids = children(root, tree_.node(root).cumul);
    if (!kids.empty() && !need_percent_display(kids, parent_samples)) {
      NodeId cnode = kids.front();
      NodeId end = tree_.compressed_end(cnode);
      bool printed = false;
      uint32_t entries_printed = 0;
      int i = 0;
      for (NodeId n = cnode;; n = tree_.node(n).first_child) {
        // "If we sort by symbol, the first entry is the same than the symbol."
        if (!(i++ == 0 && skip_first)) {
          if (!printed) {
            left(left_margin);
            b_.append(std::string_view("|\n"));
            left(left_margin);
            b_.append(std::string_view("---"));
            left_margin += 3;
            printed = true;
          } else {
            left(left_margin);
          }
          name(n);
          b_.push_back('\n');
          if (++entries_printed == opts_.chain_print_limit) break;
        }
        if (n == end) break;
      }
      root = end;
    }
    if (opts_.chain_mode == ChainMode::kFractal) total_samples = parent_samples;
    graph(root, total_samples, 1, 1, left_margin);
    if (b_.size() != before) b_.push_back('\n');
    out_.maybe_flush();
  }

 private:
  // The sorted children perf kept for `parent` (sort_chain_graph_abs / _rel).
  std::vector<NodeId> children(NodeId parent, uint64_t parent_cumul) {
    std::vector<NodeId> v;
    uint64_t min_hit = min_hit_;
    if (opts_.chain_mode == ChainMode::kFractal) {
      // __sort_chain_graph_rel(): ceil(children_hit * min_percent) of each node.
      const CallTree::Node& p = tree_.node(parent);
      uint64_t children_hit = parent_cumul - p.hit;
      min_hit = static_cast<uint64_t>(
          std::ceil(static_cast<double>(children_hit) * (opts_.chain_min_percent / 100.0)));
    }
    tree_.sorted_children(parent, min_hit, v);
    return v;
  }

  bool need_percent_display(const std::vector<NodeId>& kids, uint64_t parent_samples) const {
    if (kids.size() > 1) return true;
    return tree_.node(kids.front()).cumul != parent_samples;
  }

  void left(int left_margin) {
    b_.append(std::string_view("            "));
    for (int i = 0; i < left_margin; ++i) b_.push_back(' ');
  }

  // callchain_list__sym_name(), then with show_branchflag_count the node's branch counts
  // (callchain_list_counts__printf_value()).
  void name(NodeId n) {
    const ChainFrame& f = tree_.node(n).frame;
    append_frame_name(b_, f, tree_.srcline(f));
    if (!branch_counts_) return;
    counts_text_.clear();
    if (const ChainBranchCounts* c = tree_.branch_counts(n)) {
      c->append_text(counts_text_);
    } else {
      ChainBranchCounts().append_text(counts_text_);
    }
    b_.append(counts_text_);
  }

  void value(uint64_t cumul, uint64_t cumul_count, uint64_t total) {
    append_chain_value(b_, opts_.chain_value, cumul, cumul_count, total);
  }

  // ipchain__fprintf_graph_line().
  void graph_line(int depth, uint32_t depth_mask, int left_margin) {
    left(left_margin);
    for (int i = 0; i < depth; ++i) {
      b_.append(depth_mask & bit(i) ? std::string_view("|          ")
                                    : std::string_view("           "));
    }
    b_.push_back('\n');
  }

  // ipchain__fprintf_graph(): one frame; the first of a node carries its value.
  void frame_line(uint64_t cumul, uint64_t cumul_count, NodeId n, int depth, uint32_t depth_mask,
                  int period, uint64_t total, int left_margin) {
    left(left_margin);
    for (int i = 0; i < depth; ++i) {
      b_.push_back(depth_mask & bit(i) ? '|' : ' ');
      if (!period && i == depth - 1) {
        b_.append(std::string_view("--"));
        value(cumul, cumul_count, total);
        b_.append(std::string_view("--"));
      } else {
        b_.append(std::string_view("          "));
      }
    }
    name(n);
    b_.push_back('\n');
  }

  // __callchain__fprintf_graph().
  void graph(NodeId root, uint64_t total_samples, int depth, uint32_t depth_mask, int left_margin) {
    const CallTree::Node& r = tree_.node(root);
    std::vector<NodeId> kids = children(root, r.cumul);
    uint32_t new_depth_mask = depth_mask;
    uint64_t remaining = total_samples;
    uint64_t cumul_count = 0;
    uint32_t entries_printed = 0;
    for (size_t k = 0; k < kids.size(); ++k) {
      const CallTree::Node& child = tree_.node(kids[k]);
      remaining -= child.cumul;
      cumul_count += child.cumul_count;
      bool last = k + 1 == kids.size();
      if (last && (opts_.chain_mode != ChainMode::kFractal || !remaining)) {
        new_depth_mask &= ~bit(depth - 1);
      }
      graph_line(depth, depth_mask, left_margin);
      NodeId end = tree_.compressed_end(kids[k]);
      int i = 0;
      for (NodeId n = kids[k];; n = tree_.node(n).first_child) {
        frame_line(child.cumul, child.cumul_count, n, depth, new_depth_mask, i++, total_samples,
                   left_margin);
        if (n == end) break;
      }
      const CallTree::Node& e = tree_.node(end);
      uint64_t new_total =
          opts_.chain_mode == ChainMode::kFractal ? e.cumul - e.hit : total_samples;
      graph(end, new_total, depth + 1, new_depth_mask | bit(depth), left_margin);
      if (++entries_printed == opts_.chain_print_limit) break;
    }
    if (opts_.chain_mode == ChainMode::kFractal && remaining && remaining != total_samples &&
        !kids.empty()) {
      // The "[...]" line for what the percent limit hid.
      if (opts_.chain_value == ChainValue::kCount) {
        uint64_t parent_count = r.cumul_count - r.count;
        if (parent_count <= cumul_count) return;
      }
      new_depth_mask &= ~bit(depth - 1);
      uint64_t rem_count = r.cumul_count - r.count - cumul_count;
      left(left_margin);
      for (int i = 0; i < depth; ++i) {
        b_.push_back(new_depth_mask & bit(i) ? '|' : ' ');
        if (i == depth - 1) {
          b_.append(std::string_view("--"));
          value(remaining, rem_count, total_samples);
          b_.append(std::string_view("--"));
        } else {
          b_.append(std::string_view("          "));
        }
      }
      b_.append(std::string_view("[...]\n"));
    }
  }

  const CallTree& tree_;
  const ReportPrintOptions& opts_;
  OutBuffer& out_;
  fmt::memory_buffer& b_;
  const bool branch_counts_;
  std::string counts_text_;
  uint64_t min_hit_ = 0;
};

// ui/stdio/hist.c callchain__fprintf_flat() and callchain__fprintf_folded(): every node where
// chains ended with hits >= min_hit (callchain.c __sort_chain_flat(): children first, in
// their tree's order, then the node), by hits, equal ones in that order (rb_insert_callchain()
// puts them right); each with its whole path from the root.
class FlatPrinter {
 public:
  FlatPrinter(const Hists& hists, const ReportPrintOptions& opts, OutBuffer& out)
      : tree_(hists.tree()), opts_(opts), b_(out.buffer()) {}

  void print(NodeId root, uint64_t total, uint64_t min_hit) {
    std::vector<NodeId> ends;
    collect(root, min_hit, ends);
    std::stable_sort(ends.begin(), ends.end(),
                     [&](NodeId a, NodeId b) { return tree_.node(a).hit > tree_.node(b).hit; });
    uint32_t printed = 0;
    std::vector<NodeId> path;
    for (NodeId n : ends) {
      path.clear();
      for (NodeId p = n; p != root && p != CallTree::kNone; p = tree_.node(p).parent) {
        path.push_back(p);
      }
      const CallTree::Node& node = tree_.node(n);
      if (opts_.chain_mode == ChainMode::kFolded) {
        std::string_view sep = opts_.field_sep.empty() ? std::string_view(";") : opts_.field_sep;
        // The node's own hits and count, then the frames joined by ';' (by -t's separator
        // when given: __callchain__fprintf_folded()).
        value(node.hit, node.count, total);
        b_.push_back(' ');
        for (size_t i = path.size(); i-- > 0;) {
          name(tree_.node(path[i]).frame);
          if (i) b_.append(sep);
        }
        b_.push_back('\n');
      } else {
        b_.append(std::string_view("           "));
        value(node.cumul, node.cumul_count, total);
        b_.push_back('\n');
        for (size_t i = path.size(); i-- > 0;) {
          b_.append(std::string_view("                "));
          name(tree_.node(path[i]).frame);
          b_.push_back('\n');
        }
        b_.push_back('\n');
      }
      if (++printed == opts_.chain_print_limit) break;
    }
  }

 private:
  // Post-order, children in their tree's order, without recursion (chains can be deep).
  void collect(NodeId root, uint64_t min_hit, std::vector<NodeId>& out) const {
    struct Level {
      NodeId node;
      std::vector<NodeId> children;
      size_t next = 0;
    };
    std::vector<Level> stack;
    auto push = [&](NodeId n) {
      Level& l = stack.emplace_back(Level{n, {}, 0});
      tree_.children_in_order(n, l.children);
    };
    push(root);
    while (!stack.empty()) {
      Level& l = stack.back();
      if (l.next < l.children.size()) {
        push(l.children[l.next++]);
        continue;
      }
      const CallTree::Node& node = tree_.node(l.node);
      if (node.hit && node.hit >= min_hit) out.push_back(l.node);
      stack.pop_back();
    }
  }

  void name(const ChainFrame& f) { append_frame_name(b_, f, tree_.srcline(f)); }

  void value(uint64_t period, uint64_t count, uint64_t total) {
    append_chain_value(b_, opts_.chain_value, period, count, total);
  }

  const CallTree& tree_;
  const ReportPrintOptions& opts_;
  fmt::memory_buffer& b_;
};

}  // namespace

void print_entry_callchain(const Hists& hists, const HistEntry& he,
                           const ReportPrintOptions& options, OutBuffer& out) {
  if (he.chain_root == CallTree::kNone) return;
  const HistConfig& c = hists.config();
  // hist.c output_resort(): min_callchain_hits from the histogram's call-chain period.
  uint64_t min_hit = static_cast<uint64_t>(static_cast<double>(hists.callchain_total()) *
                                           (options.chain_min_percent / 100));
  if (options.chain_mode == ChainMode::kFlat || options.chain_mode == ChainMode::kFolded) {
    FlatPrinter(hists, options, out).print(he.chain_root, hists.total_period(), min_hit);
    return;
  }
  uint64_t parent_samples = c.children ? he.acc_period : he.period;
  // ui/stdio/hist.c callchain__fprintf_graph(): a --sort starting with "sym" (and no
  // --fields) hides the first frame of a lone chain.
  bool skip_first = !c.sort.fields_given && c.sort.order.starts_with("sym");
  GraphPrinter(hists, options, out)
      .print(he.chain_root, hists.total_period(), parent_samples, min_hit, skip_first);
}

}  // namespace readperf
