// stackcollapse-perf.pl (Brendan Gregg's FlameGraph, commit 41fee1f) as a state machine fed the
// lines `perf script` prints, one at a time, without the text ever being written: the exporter
// hands over each sample's header line, each call chain line and the blank line that ends a
// sample. Its rules are the script's, regex for regex, so odd names fold the way the pipeline
// `perf script | stackcollapse-perf.pl` folds them:
// - the header `comm tid [cpu] time: period event:` names the process (spaces become '_', with
//   --pid/--tid `comm-pid/tid`) and weights the stack by its period (1 when none is printed);
//   only the first event seen (or --event-filter's) is kept, the others are dropped;
// - a frame `ip sym+0xoff (dso)` loses its offset and everything from the first '(' (C++
//   arguments, except "(anonymous namespace)"), ';' becomes ':', quotes go; `[unknown]` becomes
//   the dso's base name in brackets, or `[unknown]`; `a->b` are inline frames (`b_[i]`);
//   --kernel appends `_[k]` to kernel frames, --jit `_[j]` to perf-PID.map ones;
// - the blank line ends the sample: `comm;root;...;leaf` gains its weight.
//
//   StackCounts counts;
//   StackCollapser c(CollapseOptions{}, counts, stderr);
//   c.line("exe 12199   381.622512:     250000 cpu-clock:ppp: ");
//   c.line("\t           153e0 update_active+0x270 (/usr/lib/ld-linux-x86-64.so.2)");
//   c.line("");
//   counts.for_each_folded(...);   // "exe;update_active 250000"
#pragma once

#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "readperf/analysis/stack_counts.h"

namespace readperf {

struct CollapseOptions {
  bool include_pid = false;      // --pid: comm-PID
  bool include_tid = false;      // --tid: comm-PID/TID
  bool annotate_kernel = false;  // --kernel: func_[k]
  bool annotate_jit = false;     // --jit: func_[j]
  bool include_addrs = false;    // --addrs: [dso <ip>] for frames without a symbol
  std::string event_filter;      // --event-filter: this event only (default: the first seen)
  bool count_samples = false;    // readperf's own: weight each sample 1, not its period
  // readperf's own, for the viewers that show every event: no event is filtered out and each
  // stack gets its event's name as an extra root frame, before the process name.
  bool event_root = false;
};

// The pieces the script's frame regex `^\s*(\w+)\s*(.+) \((.*)\)` takes from a line.
struct FrameLine {
  std::string_view pc, rawfunc, mod;
};
// Matches the frame regex with Perl's backtracking; nullopt when it does not match.
std::optional<FrameLine> match_frame_line(std::string_view line);

// The names one frame line folds into (several for `a->b`), in stack order: the script's
// tidying and annotations. `pname` is the process name the sample was given.
std::vector<std::string> fold_frame(const FrameLine& f, std::string_view pname,
                                    const CollapseOptions& opts);

class StackCollapser {
 public:
  // Warnings the script prints (the event it filters, lines it does not recognise) go to
  // `warn` (may be null).
  StackCollapser(CollapseOptions opts, StackCounts& counts, FILE* warn)
      : opts_(std::move(opts)), counts_(counts), warn_(warn) {}

  // One line of `perf script` output, without its newline.
  void line(std::string_view text);

 private:
  bool header(std::string_view text);
  void frame(const FrameLine& f);
  void end_of_stack();
  bool pname_true() const { return pname_ && !pname_->empty() && *pname_ != "0"; }

  CollapseOptions opts_;
  StackCounts& counts_;
  FILE* warn_;
  bool event_defaulted_ = false;
  bool event_warned_ = false;
  std::optional<std::string> pname_;  // Perl's $pname: undef between samples
  std::string event_;                 // the sample's event, for event_root
  uint64_t period_ = 1;
  // The frames of the sample so far, each line's names reversed, leaf first: end_of_stack()
  // reverses them into the script's `unshift`ed order.
  std::vector<uint32_t> frames_;
  std::vector<uint32_t> stack_;
  std::vector<std::string> folded_;  // reused by frame()
};

}  // namespace readperf
