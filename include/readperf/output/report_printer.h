// `report --stdio`: the histograms as perf 6.1 prints them (builtin-report.c
// evlist__tty_browse_hists, ui/stdio/hist.c hists__fprintf, ui/hist.c's hpp columns): per
// event a "# Samples" header, the column headers with their dotted rule, one line per entry
// and, with call chains, each entry's call graph.
//
//   ReportPrintOptions po;            // perf's defaults
//   std::vector<ReportSection> s = {{"cpu-clock:ppp", &hists}};
//   print_report(s, lost_samples, po, out);
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "readperf/analysis/block_report.h"
#include "readperf/analysis/hist.h"
#include "readperf/output/out_buffer.h"

namespace readperf {

// callchain_param as report's -g parses it ("graph,0.5,caller,function,percent").
enum class ChainMode : uint8_t { kGraph, kFractal, kFlat, kFolded };
enum class ChainValue : uint8_t { kPercent, kPeriod, kCount };

struct ReportPrintOptions {
  float percent_limit = 0;  // --percent-limit: entries below it are not printed
  double chain_min_percent = 0.5;
  ChainMode chain_mode = ChainMode::kGraph;
  ChainValue chain_value = ChainValue::kPercent;
  uint32_t chain_print_limit = 0;   // 0: no limit
  bool dso_filter = false;          // --dsos given: unresolved entries do not widen "Shared Object"
  bool quiet = false;               // -q: no header lines, only the entries
  bool skip_empty = true;           // --skip-empty: no section for an event without samples
  bool show_ref_callgraph = false;  // --show-ref-call-graph
  std::string time_slices;          // --time: "(time slices: X)" after the event name
  // -t/--field-separator (symbol_conf.field_sep): columns joined by it instead of "  ", no
  // dotted rule, numbers unpadded; its first character becomes '.' inside sort-key text.
  // Empty: none.
  std::string field_sep;
  // -w/--column-widths (symbol_conf.col_width_list_str, perf_hpp__set_user_width()): a
  // width for each output field in order, the elided ones included; 0 keeps perf's.
  std::vector<int> column_widths;
  // symbol_conf.event_group: the group view's column widths (members side by side) apply.
  bool event_group = true;
  // --total-cycles: the block reports, by event index, printed instead of the histograms. As
  // evlist__tty_browse_hists() indexes them, the Nth section printed gets the Nth report
  // (not its own event's when an earlier event has no section). Null: none.
  const std::vector<BlockReport>* block_reports = nullptr;
};

struct ReportSection {
  std::string event_name;  // a group's description for a linked leader (Hists::link_group)
  const Hists* hists = nullptr;
  uint32_t nr_members = 0;  // evsel->core.nr_members: "of events" above 1
};

// Everything after perf's "# To display the perf.data header info..." lines, without the
// closing "# (Tip: ...)" block: "# Total Lost Samples", then each event that has samples.
void print_report(std::span<const ReportSection> sections, uint64_t total_lost_samples,
                  const ReportPrintOptions& options, OutBuffer& out);

// What `report --stdio` prints in sort key `key`'s column for each entry of hists.order()
// (the filtered ones too), without its padding: the text of a report as data (Python's
// Recording.report()).
std::vector<std::string> report_key_texts(const Hists& hists, SortKey key,
                                          const ReportPrintOptions& options);

// ui/stdio/hist.c hist_entry_callchain__fprintf(): the call graph below one entry.
void print_entry_callchain(const Hists& hists, const HistEntry& he,
                           const ReportPrintOptions& options, OutBuffer& out);

}  // namespace readperf
