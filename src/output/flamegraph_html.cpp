// The flame graph page writer: the folded stacks of each event turned into a tree (children
// merged by name, values inclusive), the base recording's stacks walked down the same tree,
// and the tree written as compact JSON into the page of flamegraph_page.h.
#include "readperf/output/flamegraph_html.h"

#include <fmt/format.h>

#include <algorithm>
#include <unordered_map>
#include <vector>

#include "flamegraph_page.h"
#include "json_util.h"
#include "readperf/output/speedscope_exporter.h"

namespace readperf {

namespace {

struct Node {
  uint32_t name;  // index into Tree::names
  uint64_t value = 0, base = 0;
  std::vector<uint32_t> kids;
};

class Tree {
 public:
  uint32_t name_id(std::string_view s) {
    auto it = ids_.find(std::string(s));
    if (it != ids_.end()) return it->second;
    auto id = static_cast<uint32_t>(names.size());
    names.emplace_back(s);
    ids_.emplace(names.back(), id);
    return id;
  }
  // The child of `parent` named `name`, made when `create`; ~0u when absent.
  uint32_t child(uint32_t parent, uint32_t name, bool create) {
    uint64_t key = (uint64_t{parent} << 32) | name;
    auto it = children_.find(key);
    if (it != children_.end()) return it->second;
    if (!create) return ~0u;
    auto id = static_cast<uint32_t>(nodes.size());
    nodes.push_back(Node{name, 0, 0, {}});
    nodes[parent].kids.push_back(id);
    children_.emplace(key, id);
    return id;
  }
  uint32_t root() {
    if (nodes.empty()) nodes.push_back(Node{name_id("all"), 0, 0, {}});
    return 0;
  }

  std::vector<std::string> names;
  std::vector<Node> nodes;  // nodes[0]: a root over the events

 private:
  std::unordered_map<std::string, uint32_t> ids_;
  std::unordered_map<uint64_t, uint32_t> children_;
};

// JSON for a <script> block: "</script>" must not appear, so '<' is escaped.
void html_json_string(fmt::memory_buffer& b, std::string_view s) {
  fmt::memory_buffer tmp;
  json_string(tmp, s);
  for (char c : tmp) {
    if (c == '<') {
      b.append(std::string_view("\\u003c"));
    } else {
      b.push_back(c);
    }
  }
}

void write_node(const Tree& t, uint32_t id, OutBuffer& out) {
  const Node& n = t.nodes[id];
  out.put('[');
  out.dec(n.name);
  out.put(',');
  out.dec(n.value);
  out.put(',');
  out.dec(n.base);
  out.write(",[");
  for (size_t i = 0; i < n.kids.size(); ++i) {
    if (i) out.put(',');
    write_node(t, n.kids[i], out);
  }
  out.write("]]");
  out.maybe_flush();
}

}  // namespace

void write_flamegraph_html(const StackCounts& counts, const StackCounts* base,
                           const FlamegraphOptions& opts, bool count_samples, OutBuffer& out) {
  Tree t;
  uint32_t root = t.root();
  counts.for_each_stack([&](std::span<const uint32_t> stack, uint64_t n) {
    uint32_t at = root;
    for (uint32_t f : stack) {
      at = t.child(at, t.name_id(counts.name(f)), true);
      t.nodes[at].value += n;
    }
  });
  std::unordered_map<uint32_t, uint64_t> base_totals;  // event node -> its total in the base
  if (base) {
    base->for_each_stack([&](std::span<const uint32_t> stack, uint64_t n) {
      if (stack.empty()) return;
      uint32_t at = t.child(root, t.name_id(base->name(stack[0])), false);
      if (at == ~0u) return;
      base_totals[at] += n;
      // Frames missing from this recording's tree have no width to colour: stop there.
      for (size_t i = 0; at != ~0u; ++i) {
        t.nodes[at].base += n;
        if (i + 1 == stack.size()) break;
        at = t.child(at, t.name_id(base->name(stack[i + 1])), false);
      }
    });
  }

  fmt::memory_buffer& b = out.buffer();
  out.write(flamegraph_page::kPageHead);
  out.write("{\"title\":");
  html_json_string(b, opts.title);
  out.write(",\"diff\":");
  if (base) {
    html_json_string(b, opts.diff_name.empty() ? "base" : opts.diff_name);
  } else {
    out.write("null");
  }
  out.write(",\"names\":[");
  for (size_t i = 0; i < t.names.size(); ++i) {
    if (i) out.put(',');
    html_json_string(b, t.names[i]);
    out.maybe_flush();
  }
  out.write("],\n\"events\":[");
  // The chosen event first: the page opens on events[0].
  std::vector<uint32_t> events = t.nodes[root].kids;
  std::stable_partition(events.begin(), events.end(),
                        [&](uint32_t e) { return t.names[t.nodes[e].name] == opts.event; });
  for (size_t i = 0; i < events.size(); ++i) {
    const Node& e = t.nodes[events[i]];
    std::string_view name = t.names[e.name];
    if (i) out.write(",\n");
    out.write("{\"name\":");
    html_json_string(b, name);
    const char* unit = count_samples ? "samples"
                       : std::string_view(speedscope_unit(name, false)) == "nanoseconds"
                           ? "nanoseconds"
                           : "count";
    out.print(",\"unit\":\"{}\",\"total\":{},\"otherTotal\":{},\"tree\":", unit, e.value,
              base_totals[events[i]]);
    write_node(t, events[i], out);
    out.put('}');
  }
  out.write("]}\n");
  out.write(flamegraph_page::kPageTail);
  out.flush();
}

Status run_flamegraph(PerfData& data, PerfData* base, CollapsedConfig config,
                      const FlamegraphOptions& opts, OutBuffer& out, FILE* err) {
  config.collapse.event_root = true;
  StackCounts counts, base_counts;
  Status st = collapse_stacks(data, config, counts, err);
  if (base) {
    Status bst = collapse_stacks(*base, config, base_counts, err);
    if (st && !bst) st = bst;
  }
  write_flamegraph_html(counts, base ? &base_counts : nullptr, opts, config.collapse.count_samples,
                        out);
  return st;
}

}  // namespace readperf
