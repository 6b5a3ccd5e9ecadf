// `readperf flamegraph`: a self-contained interactive flame graph page (inline script and
// style, no network): one graph per event (a selector switches), search by regular
// expression with the share of the matched samples, click-to-zoom (the clicked frame fills the
// width, its ancestors dimmed; Escape or "Reset zoom" goes back), and with a second recording
// a differential graph: the frames are this recording's, coloured red where their share of
// the event's total grew compared with the base recording and blue where it shrank
// (Brendan Gregg's differential flame graphs, difffolded.pl's "after" widths).
//
// The stacks are folded by the collapsed export's rules (StackCollapser on the script
// stream), the event as each stack's root, so the page holds a tree of the distinct stacks.
//
//   FlamegraphOptions opts;
//   Status st = run_flamegraph(*data, other.get(), cfg, opts, out, stderr);
#pragma once

#include <cstdio>
#include <string>

#include "readperf/analysis/stack_counts.h"
#include "readperf/output/collapsed_exporter.h"

namespace readperf {

struct FlamegraphOptions {
  std::string title = "Flame graph";
  std::string diff_name;  // the base recording's name when `base` is given
  std::string event;      // the event shown first (default the first in name order)
};

// Writes the page for `counts` (stacks rooted at their event's name), with `base` (may be
// null) as the differential's base. Counts are periods unless `count_samples`.
void write_flamegraph_html(const StackCounts& counts, const StackCounts* base,
                           const FlamegraphOptions& opts, bool count_samples, OutBuffer& out);

// Folds `data` (and `base`, may be null) and writes the page.
Status run_flamegraph(PerfData& data, PerfData* base, CollapsedConfig config,
                      const FlamegraphOptions& opts, OutBuffer& out, FILE* err);

}  // namespace readperf
