#include "readperf/output/report_printer.h"

#include <fmt/format.h>

#include <algorithm>
#include <vector>

#include "readperf/session/dso.h"
#include "readperf/session/thread.h"
#include "readperf/symbols/symbol_table.h"
#include "report_block_view.h"
#include "report_columns.h"
#include "report_layout.h"

namespace readperf {

namespace {}  // namespace

namespace {

void print_header_lines(const std::vector<Column>& cols, std::string_view sep, OutBuffer& out) {
  // ui/stdio/hist.c hists__fprintf_standard_headers(): with -t, the headers joined by the
  // separator and no dotted rule.
  fmt::memory_buffer& b = out.buffer();
  b.append(std::string_view("# "));
  for (size_t i = 0; i < cols.size(); ++i) {
    const Column& c = cols[i];
    if (i) b.append(sep.empty() ? std::string_view("  ") : sep);
    if (c.field == HppField::kSortKey && !is_dynamic_key(c.key)) {
      put_fixed(b, c.name, c.width);
    } else {
      fmt::format_to(std::back_inserter(b), "{:>{}}", c.name, c.width);
    }
  }
  if (!sep.empty()) {
    b.push_back('\n');
    return;
  }
  b.append(std::string_view("\n# "));
  for (size_t i = 0; i < cols.size(); ++i) {
    if (i) b.append(std::string_view("  "));
    b.append(std::string(cols[i].width, '.'));
  }
  b.append(std::string_view("\n#\n"));
}

void print_entry_line(const Hists& hists, uint32_t id, const std::vector<Column>& cols,
                      std::string_view sep, size_t limit, std::string_view& mispredict,
                      OutBuffer& out) {
  // ui/stdio/hist.c __hist_entry__snprintf(): "  " before every column (-t: the separator
  // between columns), each padded to its width except the last field
  // (hist_entry__snprintf_alignment).
  fmt::memory_buffer& b = out.buffer();
  size_t line_start = b.size();
  for (size_t i = 0; i < cols.size(); ++i) {
    const Column& c = cols[i];
    if (sep.empty()) {
      b.append(std::string_view("  "));
    } else if (i) {
      b.append(sep);
    }
    size_t start = b.size();
    if (c.field == HppField::kSortKey) {
      put_key_text(b, hists, id, c.key, c.width, sep, mispredict);
    } else {
      put_hpp_column(b, hists, id, c, !sep.empty());
    }
    if (!c.last_field) pad_to(b, start, c.width);
  }
  if (b.size() - line_start > limit) b.resize(line_start + limit);
  b.push_back('\n');
}

// units.c convert_unit(): 1001 and more samples are shown in K, M, G (truncated).
std::pair<uint64_t, char> convert_unit(uint64_t value) {
  double v = static_cast<double>(value);
  char unit = ' ';
  for (char u : {'K', 'M', 'G'}) {
    if (v > 1000.0) {
      v /= 1000.0;
      unit = u;
    }
  }
  return {static_cast<uint64_t>(v), unit};
}

void print_section(const ReportSection& s, const ReportPrintOptions& opts,
                   std::string_view& mispredict, const BlockReport* blocks, OutBuffer& out) {
  const Hists& hists = *s.hists;
  const HistConfig& c = hists.config();
  // builtin-report.c hists__fprintf_nr_sample_events(), a group's counts its members' too;
  // nothing under -q.
  if (!opts.quiet) {
    auto samples = [&](const Hists& h) {
      return c.filter_relative ? h.nr_non_filtered_samples() : h.nr_samples();
    };
    uint64_t nr_samples = samples(hists);
    uint64_t nr_events = hists.percent_total();
    for (size_t m = 0; m + 1 < hists.group_size(); ++m) {
      if (const Hists* member = hists.member(m)) {
        nr_samples += samples(*member);
        nr_events += member->percent_total();
      }
    }
    auto [n, unit] = convert_unit(nr_samples);
    out.print("# Samples: {}{} of event{} '{}'", n, unit, s.nr_members > 1 ? "s" : "",
              s.event_name);
    if (!opts.time_slices.empty()) out.print(" (time slices: {})", opts.time_slices);
    // builtin-report.c hists__fprintf_nr_sample_events().
    if (opts.show_ref_callgraph && s.event_name.find("call-graph=no") != std::string::npos) {
      out.write(", show reference callgraph");
    }
    if (c.mem_mode) {
      // builtin-report.c hists__fprintf_nr_sample_events(): the total is of weights; the
      // sort order as builtin-report.c left it (ipc_null appended), else the default.
      out.print("\n# Total weight : {}", nr_events);
      out.print("\n# Sort order   : {}",
                c.sort.order.empty() ? kDefaultMemSortOrder : c.sort.order);
    } else {
      out.print("\n# Event count (approx.): {}", nr_events);
    }
    if (c.socket_filter > -1) out.print("\n# Processor Socket: {}", c.socket_filter);
    out.print("\n#\n");
  }

  if (blocks) {
    // report__browse_block_hists() instead of hists__fprintf(), and no blank lines after.
    print_block_table(*blocks, out);
    return;
  }
  if (c.hierarchy) {
    print_hierarchy(hists, opts, s.nr_members, out);
    out.write("\n\n");
    return;
  }
  ColumnWidths widths = compute_widths(hists, opts, hists.order());
  std::vector<Column> cols = make_columns(hists, widths, opts, s.nr_members);
  if (!opts.quiet) print_header_lines(cols, opts.field_sep, out);
  size_t limit = entry_line_limit(hists, cols, !opts.field_sep.empty());

  uint64_t total = hists.percent_total();
  for (uint32_t id : hists.order()) {
    const HistEntry& e = hists.entry(id);
    if (e.filtered) continue;
    // sort.h hist_entry__get_percent_limit(), compared as a float.
    float percent = 0;
    if (total) {
      uint64_t p = c.children ? e.acc_period : e.period;
      percent = static_cast<float>(static_cast<double>(p) * 100.0 / static_cast<double>(total));
    }
    if (percent < opts.percent_limit) continue;
    print_entry_line(hists, id, cols, opts.field_sep, limit, mispredict, out);
    if (c.use_callchain && c.chains_sorted) print_entry_callchain(hists, e, opts, out);
    out.maybe_flush();
  }
  out.write("\n\n");
}

}  // namespace

void print_report(std::span<const ReportSection> sections, uint64_t total_lost_samples,
                  const ReportPrintOptions& options, OutBuffer& out) {
  // builtin-report.c evlist__tty_browse_hists(): with --skip-empty (perf's default) no
  // section for an event without samples.
  if (!options.quiet) out.print("#\n# Total Lost Samples: {}\n#\n", total_lost_samples);
  std::string_view mispredict = "N/A";  // sort.c hist_entry__mispredict_snprintf()'s static
  size_t printed = 0;
  for (const ReportSection& s : sections) {
    if (!s.hists || (options.skip_empty && !s.hists->nr_samples())) continue;
    const BlockReport* blocks = nullptr;
    if (options.block_reports && printed < options.block_reports->size()) {
      blocks = &(*options.block_reports)[printed];
    }
    ++printed;
    print_section(s, options, mispredict, blocks, out);
  }
}

std::vector<std::string> report_key_texts(const Hists& hists, SortKey key,
                                          const ReportPrintOptions& options) {
  // The column as print_section() lays it out (the entries' widths, so nothing is cut that
  // the text report shows whole), then without the padding.
  uint32_t width = key_width(key, compute_widths(hists, options, hists.order()));
  std::string_view mispredict = "N/A";
  std::vector<std::string> out;
  out.reserve(hists.order().size());
  fmt::memory_buffer b;
  for (uint32_t id : hists.order()) {
    b.clear();
    put_key_column(b, hists, id, key, width, mispredict);
    std::string_view text(b.data(), b.size());
    size_t first = text.find_first_not_of(' ');
    size_t last = text.find_last_not_of(' ');
    out.emplace_back(first == std::string_view::npos ? std::string_view()
                                                     : text.substr(first, last - first + 1));
  }
  return out;
}

}  // namespace readperf
