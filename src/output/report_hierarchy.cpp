// `report --stdio --hierarchy`: perf 6.1's tree view of a histogram (ui/stdio/hist.c
// hists__fprintf_hierarchy_headers(), hist_entry__hierarchy_fprintf() and hists__fprintf()'s
// walk of the tree).
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <map>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "report_columns.h"
#include "report_layout.h"

namespace readperf {

namespace {

// HIERARCHY_INDENT: the spaces a level is indented by.
constexpr uint32_t kHierarchyIndent = 3;
// util/string.c `dots`: "%.*s" of it prints at most this many.
constexpr uint32_t kDotsLength = 207;

void put_dots(fmt::memory_buffer& b, uint32_t n) {
  b.append(std::string(std::min(n, kDotsLength), '.'));
}

// print_hierarchy_indent(): room for the deepest level's indent, "%-*.*s" of `line` (a space
// or the dots); nothing under -t.
void put_hierarchy_indent(fmt::memory_buffer& b, bool field_sep, uint32_t indent, bool dots) {
  if (field_sep || indent < 2) return;
  uint32_t width = (indent - 2) * kHierarchyIndent;
  uint32_t printed = dots ? std::min(width, kDotsLength) : std::min<uint32_t>(width, 1);
  b.append(std::string(printed, dots ? '.' : ' '));
  b.append(std::string(width - printed, ' '));
}

// The entries of a hierarchy's level `depth`.
std::vector<uint32_t> level_ids(const Hists& hists, uint32_t depth) {
  std::vector<uint32_t> ids;
  for (const HierarchyNode& node : hists.hierarchy()) {
    if (node.depth == depth) ids.push_back(node.entry);
  }
  return ids;
}

struct Layout {
  std::vector<Column> overhead;  // the first hpp_list_node: the sort list's hpp fields
  std::vector<std::vector<SortKey>> levels;         // each level's keys
  std::vector<std::vector<uint32_t>> level_widths;  // and their widths
  uint32_t nr_hpp_node = 0;  // hists->nr_hpp_node: the overhead node and the levels
  ColumnWidths widths;       // the other keys' widths
};

class HierarchyPrinter {
 public:
  HierarchyPrinter(const Hists& hists, const ReportPrintOptions& opts, const Layout& layout,
                   size_t limit, OutBuffer& out)
      : hists_(hists), opts_(opts), layout_(layout), limit_(limit), out_(out) {}

  // A key's header: a tracepoint field's is its name (hde->header).
  std::string_view key_header(SortKey key) const {
    if (is_dynamic_key(key)) return hists_.config().sort.dynamic[dynamic_index(key)].field.name;
    return sort_key_header(key);
  }

  // hists__fprintf_hierarchy_headers().
  void headers() {
    fmt::memory_buffer& b = out_.buffer();
    bool sep = !opts_.field_sep.empty();
    std::string_view col_sep = sep ? std::string_view(opts_.field_sep) : "  ";
    b.append(std::string_view("# "));
    put_hierarchy_indent(b, sep, layout_.nr_hpp_node, false);
    for (const Column& c : layout_.overhead) {
      fmt::format_to(std::back_inserter(b), "{:>{}}", c.name, c.width);
      b.append(col_sep);
    }
    // The levels' headers joined by " / ", a level's keys by "+" ("%-*.*s" then strim()).
    size_t header_width = 0;
    for (size_t i = 0; i < layout_.levels.size(); ++i) {
      if (i) {
        b.append(std::string_view(" / "));
        header_width += 3;
      }
      for (size_t k = 0; k < layout_.levels[i].size(); ++k) {
        std::string_view name = key_header(layout_.levels[i][k]);
        name = name.substr(0, std::min<size_t>(name.size(), layout_.level_widths[i][k]));
        while (!name.empty() && name.front() == ' ') name.remove_prefix(1);
        while (!name.empty() && name.back() == ' ') name.remove_suffix(1);
        if (k) {
          b.push_back('+');
          ++header_width;
        }
        b.append(name);
        header_width += name.size();
      }
    }
    b.append(std::string_view("\n# "));
    put_hierarchy_indent(b, sep, layout_.nr_hpp_node, true);
    for (size_t i = 0; i < layout_.overhead.size(); ++i) {
      if (i) b.append(sep ? col_sep : std::string_view(".."));
      put_dots(b, layout_.overhead[i].width);
    }
    for (size_t depth = 0; depth < layout_.levels.size(); ++depth) {
      // The level's widths, one more for each '+' between them.
      size_t width = depth * kHierarchyIndent;
      for (size_t k = 0; k < layout_.level_widths[depth].size(); ++k) {
        width += layout_.level_widths[depth][k] + (k ? 1 : 0);
      }
      header_width = std::max(header_width, width);
    }
    b.append(col_sep);
    put_dots(b, static_cast<uint32_t>(header_width));
    b.append(std::string_view("\n#\n"));
  }

  // hists__fprintf()'s walk: every node in tree order (__rb_hierarchy_next(HMD_FORCE_CHILD)),
  // those filtered or under --percent-limit not printed.
  void entries() {
    std::vector<uint32_t> stack(hists_.hierarchy_roots().rbegin(), hists_.hierarchy_roots().rend());
    while (!stack.empty()) {
      uint32_t id = stack.back();
      stack.pop_back();
      const HierarchyNode& node = hists_.hierarchy()[id];
      // can_goto_child(): never below a leaf (a group member's deeper dummies there).
      if (!node.leaf) stack.insert(stack.end(), node.children.rbegin(), node.children.rend());
      const HistEntry& e = hists_.entry(node.entry);
      if (e.filtered) continue;
      if (percent(e) < opts_.percent_limit) continue;
      entry(node);
      if (!node.leaf && !has_children_over_limit(node)) no_entry_line(node);
      out_.maybe_flush();
    }
  }

 private:
  // hist_entry__get_percent_limit() (no children mode with --hierarchy).
  float percent(const HistEntry& e) const {
    uint64_t total = hists_.percent_total();
    if (!total) return 0;
    return static_cast<float>(static_cast<double>(e.period) * 100.0 / static_cast<double>(total));
  }

  // hist_entry__has_hierarchy_children(): the first child no filter hides is over the limit.
  bool has_children_over_limit(const HierarchyNode& node) const {
    for (uint32_t child : node.children) {
      const HistEntry& e = hists_.entry(hists_.hierarchy()[child].entry);
      if (e.filtered) continue;
      return percent(e) >= opts_.percent_limit;
    }
    return false;
  }

  // hist_entry__hierarchy_fprintf().
  void entry(const HierarchyNode& node) {
    fmt::memory_buffer& b = out_.buffer();
    bool sep = !opts_.field_sep.empty();
    size_t line_start = b.size();
    b.append(std::string(node.depth * kHierarchyIndent, ' '));
    for (size_t i = 0; i < layout_.overhead.size(); ++i) {
      if (!sep) {
        b.append(std::string_view("  "));
      } else if (i) {
        b.append(opts_.field_sep);
      }
      size_t start = b.size();
      put_hpp_column(b, hists_, node.entry, layout_.overhead[i], sep);
      pad_to(b, start, layout_.overhead[i].width);
    }
    if (!sep) {
      // "%*s" of (nr_hpp_node - 2) * 3: a negative width (no level of the event's own, a
      // group member's dummy node printed) pads as much, left-aligned.
      int indent = (static_cast<int>(layout_.nr_hpp_node) - 2) * static_cast<int>(kHierarchyIndent);
      b.append(std::string(static_cast<size_t>(std::abs(indent)), ' '));
    }
    // perf formats the line into its buffer of entry_line_limit() characters.
    if (b.size() - line_start > limit_) b.resize(line_start + limit_);
    // The level's own columns: each one's text without the leading spaces (skip_spaces():
    // dynamic keys are right-aligned).
    const Hists& owner = node.keys_of ? *node.keys_of : hists_;
    const std::vector<SortKey>& keys = owner.hierarchy_levels()[node.depth];
    for (size_t k = 0; k < keys.size(); ++k) {
      uint32_t width = node.keys_of ? member_width(owner, node.depth, keys[k])
                                    : layout_.level_widths[node.depth][k];
      text_.clear();
      put_key_text(text_, hists_, node.entry, keys[k], width, opts_.field_sep, mispredict_);
      std::string_view text(text_.data(), std::min(text_.size(), limit_));
      while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) {
        text.remove_prefix(1);
      }
      b.append(sep ? std::string_view(opts_.field_sep) : std::string_view("  "));
      b.append(text);
    }
    b.push_back('\n');
    if (node.leaf && hists_.config().use_callchain) {
      print_entry_callchain(hists_, hists_.entry(node.entry), opts_, out_);
    }
  }

  // hists__fprintf(): "no entry >= x%" under a node whose children --percent-limit hides.
  void no_entry_line(const HierarchyNode& node) {
    fmt::memory_buffer& b = out_.buffer();
    put_hierarchy_indent(b, !opts_.field_sep.empty(), layout_.nr_hpp_node + node.depth + 1, false);
    // hists__overhead_width() + 4.
    uint32_t indent = 4;
    for (size_t i = 0; i < layout_.overhead.size(); ++i) {
      indent += layout_.overhead[i].width + (i ? 2 : 0);
    }
    fmt::format_to(std::back_inserter(b), "{:{}}no entry >= {:.2f}%\n", "", indent,
                   opts_.percent_limit);
  }

  // The width of a group member's level key (its own format copy's), for the leader's
  // dummy nodes of that member.
  // Worked out once per member, level and key (hde_width() caches it in hpp.len).
  uint32_t member_width(const Hists& member, uint32_t depth, SortKey key) {
    if (!is_dynamic_key(key)) return key_width(key, layout_.widths);
    auto [it, fresh] = member_widths_.try_emplace({&member, depth, key}, 0);
    if (fresh) {
      const DynamicField& d = member.config().sort.dynamic[dynamic_index(key)];
      it->second =
          dynamic_width(member, d, member.hierarchy_dynamic_len(key), level_ids(member, depth));
    }
    return it->second;
  }

  const Hists& hists_;
  const ReportPrintOptions& opts_;
  const Layout& layout_;
  std::map<std::tuple<const Hists*, uint32_t, SortKey>, uint32_t> member_widths_;
  size_t limit_;
  OutBuffer& out_;
  fmt::memory_buffer text_;
  std::string_view mispredict_ = "N/A";
};

}  // namespace

void print_hierarchy(const Hists& hists, const ReportPrintOptions& opts, uint32_t nr_members,
                     OutBuffer& out) {
  // hists__hierarchy_output_resort()'s hists__calc_col_len() on every node no filter hides.
  std::vector<uint32_t> ids;
  ids.reserve(hists.hierarchy().size());
  for (const HierarchyNode& node : hists.hierarchy()) ids.push_back(node.entry);
  ColumnWidths widths = compute_widths(hists, opts, ids);
  // The levels' formats are copies made before -w is read (ui/hist.c add_hierarchy_fmt()):
  // its widths reach none of them.
  ReportPrintOptions own = opts;
  own.column_widths.clear();
  std::vector<Column> flat = make_columns(hists, widths, own, nr_members);

  Layout layout;
  for (const HistField& f : hists.config().sort.sort_list) {
    if (f.hpp == HppField::kSortKey) continue;
    for (const Column& c : flat) {
      if (c.field == f.hpp) layout.overhead.push_back(c);
    }
  }
  layout.levels = hists.hierarchy_levels();
  for (uint32_t depth = 0; depth < layout.levels.size(); ++depth) {
    std::vector<uint32_t>& level_widths = layout.level_widths.emplace_back();
    std::vector<uint32_t> ids = level_ids(hists, depth);  // for its dynamic keys
    for (SortKey key : layout.levels[depth]) {
      if (is_dynamic_key(key)) {
        // hde_width() of the level's copy: its own dynamic_len (update_dynamic_len() on
        // each of the level's entries as it is placed for output).
        const DynamicField& d = hists.config().sort.dynamic[dynamic_index(key)];
        level_widths.push_back(dynamic_width(hists, d, hists.hierarchy_dynamic_len(key), ids));
      } else {
        level_widths.push_back(key_width(key, widths));
      }
    }
  }
  layout.nr_hpp_node = static_cast<uint32_t>(1 + layout.levels.size());
  layout.widths = widths;

  // hists__sort_list_width() counts the output fields elided or not as the flat view does.
  size_t limit = entry_line_limit(hists, flat, !opts.field_sep.empty());
  HierarchyPrinter printer(hists, opts, layout, limit, out);
  if (!opts.quiet) printer.headers();
  printer.entries();
}

}  // namespace readperf
