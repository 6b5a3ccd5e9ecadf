// Pieces of `report`'s option handling (report_histograms.cpp) kept apart: -g/--call-graph's
// parameters (report_call_graph_args.cpp) and the sort keys' tracepoint fields and elided
// columns (report_sort_args.cpp).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "readperf/analysis/call_tree.h"
#include "readperf/analysis/sort_keys.h"
#include "readperf/format/error.h"

namespace readperf {
class OutBuffer;
class PerfData;
class SampleSelection;
class TraceFormatter;
struct ReportPrintOptions;
}  // namespace readperf

namespace readperf::cli {

struct ChainParams {
  bool enabled = false;  // callchain_param.enabled: -g given
  bool none = false;     // mode CHAIN_NONE
  bool use_callchain = false;
  bool order_set = false;
  bool caller = false;
  ChainKey key = ChainKey::kFunction;  // callchain_param.key
  bool branch_callstack = false;       // callchain_param.branch_callstack (`-g branch`)
};

Status parse_call_graph(std::string arg, ChainParams& cp, ReportPrintOptions& po);

std::optional<std::vector<DynamicField>> dynamic_fields(const PerfData& pd,
                                                        const TraceFormatter* formats,
                                                        std::string_view tok, bool raw_trace);
void elide_filtered_columns(const SampleSelection& filters, SortSpec& spec, OutBuffer& out);

}  // namespace readperf::cli
