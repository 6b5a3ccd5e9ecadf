// The column layout of `report --stdio` (ui/hist.c's hpp columns, hists->col_len[]), shared
// by the flat report and the --hierarchy one (report_hierarchy.cpp).
#pragma once

#include <fmt/format.h>

#include <array>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "readperf/analysis/hist.h"
#include "readperf/output/out_buffer.h"
#include "readperf/output/report_printer.h"
#include "report_columns.h"

namespace readperf {

struct Column {
  HppField field;
  SortKey key = SortKey::kComm;
  std::string_view name;
  uint32_t width = 0;  // fmt->width(): the header's and the alignment's
  // An hpp column's value width (fmt->user_len ?: fmt->len); perf prints each value with it
  // less the space and the '%' (hpp__fmt()), 1 under -t. May be 0 or negative from -w.
  int len = 0;
  bool last_field = false;  // the last of the output fields (elided or not): not padded
};

// perf's hists->col_len[] for the columns readperf prints.
struct ColumnWidths {
  uint32_t comm = 0, thread = 0, dso = 0, symbol = 0, ipc = 0, srcline = 0, trace = 0, cpu = 0,
           time = 0, symbol_size = 0, socket = 0, dso_size = 0, parent = 0, srcfile = 0,
           transaction = 0, cgroup_id = 0, cgroup = 0, addr = 0;
  // The sample-value keys' (is_sample_value_key()), by SortKey from kLocalWeight on.
  std::array<uint32_t, 7> sample_value{};
  BranchWidths branch;
  MemWidths mem;
};

// hists__calc_col_len() over the entries `ids` that no filter hides, each column then widened
// to its header.
ColumnWidths compute_widths(const Hists& hists, const ReportPrintOptions& opts,
                            std::span<const uint32_t> ids);

// The width of sort key `key`'s column.
uint32_t key_width(SortKey key, const ColumnWidths& w);

// The output fields as setup_sorting() lined them up, with their widths (-w's among them);
// `nr_members`: evsel->core.nr_members of the section's event (0 outside a group).
std::vector<Column> make_columns(const Hists& hists, const ColumnWidths& w,
                                 const ReportPrintOptions& opts, uint32_t nr_members);

// Spaces up to `width` printed since `start` (hist_entry__snprintf_alignment()).
void pad_to(fmt::memory_buffer& b, size_t start, uint32_t width);

// ui/hist.c hpp__fmt(): an hpp column's values for entry `id` (-t: `field_sep`).
void put_hpp_column(fmt::memory_buffer& b, const Hists& hists, uint32_t id, const Column& c,
                    bool field_sep);

// A sort key's text for entry `id` (put_key_column()); under -t its separator's first
// character as '.' (sort.c repsep_snprintf()).
void put_key_text(fmt::memory_buffer& b, const Hists& hists, uint32_t id, SortKey key,
                  uint32_t width, std::string_view sep, std::string_view& mispredict);

// ui/stdio/hist.c hists__fprintf(): the characters an entry's line keeps.
size_t entry_line_limit(const Hists& hists, const std::vector<Column>& cols, bool field_sep);

// --hierarchy: the column headers (without -q) and the tree's entries of one histogram
// (report_hierarchy.cpp).
void print_hierarchy(const Hists& hists, const ReportPrintOptions& opts, uint32_t nr_members,
                     OutBuffer& out);

}  // namespace readperf
