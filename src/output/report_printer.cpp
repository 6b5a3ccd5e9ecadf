#include "readperf/output/report_printer.h"

#include <fmt/format.h>

#include <algorithm>
#include <vector>

#include "readperf/session/dso.h"
#include "readperf/session/thread.h"
#include "readperf/symbols/symbol_table.h"
#include "report_columns.h"

namespace readperf {

namespace {

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
           time = 0, symbol_size = 0, socket = 0, dso_size = 0, parent = 0, srcfile = 0;
  BranchWidths branch;
};

ColumnWidths compute_widths(const Hists& hists, const ReportPrintOptions& opts) {
  // output_resort() runs hists__calc_col_len() on every entry that is not filtered out,
  // whatever --percent-limit later hides; hists__fprintf() then widens each column to its
  // header (perf_hpp__reset_sort_width).
  ColumnWidths w;
  // hists__set_unres_dso_col_len(): an unresolved entry widens the DSO columns to an
  // address's width unless --dsos, -w or -t was given.
  bool keep_dso_width = opts.dso_filter || !opts.column_widths.empty() || !opts.field_sep.empty();
  for (uint32_t id : hists.order()) {
    const HistEntry& e = hists.entry(id);
    if (e.filtered) continue;
    if (e.sym) {
      uint32_t len = static_cast<uint32_t>(e.sym->name.size()) + 4;
      if (hists.config().verbose) len += kUnresolvedWidth + 2 + 3;
      w.symbol = std::max(w.symbol, len);
    } else {
      w.symbol = std::max(w.symbol, kUnresolvedWidth + 4 + 2);
      if (w.dso < kUnresolvedWidth && !keep_dso_width) w.dso = kUnresolvedWidth;
    }
    // thread__comm_len(): the entry's thread's latest comm, not the entry's own.
    uint32_t comm_len = e.thread ? static_cast<uint32_t>(e.thread->comm_str().size()) : 0;
    if (comm_len > w.comm) {
      w.comm = comm_len;
      w.thread = comm_len + 8;
    }
    if (e.dso) w.dso = std::max(w.dso, static_cast<uint32_t>(hists.dso_name(e.dso).size()));
    if (e.parent) w.parent = std::max(w.parent, static_cast<uint32_t>(e.parent->name.size()));
    w.srcline = std::max(w.srcline, static_cast<uint32_t>(e.srcline.size()));
    if (hists.entries_compared()) {
      w.srcfile = std::max(w.srcfile, static_cast<uint32_t>(e.srcfile.size()));
      w.trace = std::max(w.trace, static_cast<uint32_t>(e.trace.size()));
    }
    if (hists.config().branch_mode) widen_branch_columns(hists, id, keep_dso_width, w.branch);
  }
  auto header = [](SortKey k) { return static_cast<uint32_t>(sort_key_header(k).size()); };
  w.comm = std::max(w.comm, header(SortKey::kComm));
  w.thread = std::max(w.thread, header(SortKey::kPid));
  w.dso = std::max(w.dso, header(SortKey::kDso));
  w.symbol = std::max(w.symbol, header(SortKey::kSymbol));
  w.ipc = std::max(w.ipc, header(SortKey::kIpcNull));
  w.srcline = std::max(w.srcline, header(SortKey::kSrcline));
  w.trace = std::max(w.trace, header(SortKey::kTrace));
  // hists__calc_col_len()'s fixed widths, for every entry shown.
  w.cpu = std::max<uint32_t>(3, header(SortKey::kCpu));
  w.time = std::max<uint32_t>(hists.config().nanosecs ? 16 : 12, header(SortKey::kTime));
  w.symbol_size = header(SortKey::kSymbolSize);
  w.socket = std::max<uint32_t>(6, header(SortKey::kSocket));
  w.dso_size = header(SortKey::kDsoSize);
  w.parent = std::max(w.parent, header(SortKey::kParent));
  w.srcfile = std::max(w.srcfile, header(SortKey::kSrcfile));
  return w;
}

// ui/hist.c's hpp columns: header and fmt->len (perf_hpp__reset_width()).
Column hpp_column(HppField f, bool overhead_is_self) {
  switch (f) {
    case HppField::kOverheadChildren:
      return {f, {}, "Children", 0, 8};
    case HppField::kOverhead:
      return {f, {}, overhead_is_self ? "Self" : "Overhead", 0, 8};
    case HppField::kOverheadSys:
      return {f, {}, "sys", 0, 8};
    case HppField::kOverheadUs:
      return {f, {}, "usr", 0, 8};
    case HppField::kSamples:
      return {f, {}, "Samples", 0, 12};
    case HppField::kPeriod:
      return {f, {}, "Period", 0, 12};
    case HppField::kSortKey:
      break;
  }
  return {f, {}, "", 0, 0};
}

// The width of sort key `key`'s column.
uint32_t key_width(SortKey key, const ColumnWidths& w) {
  switch (key) {
    case SortKey::kPid:
      return w.thread;
    case SortKey::kComm:
      return w.comm;
    case SortKey::kDso:
      return w.dso;
    case SortKey::kSymbol:
      return w.symbol;
    case SortKey::kIpcNull:
      return w.ipc;
    case SortKey::kSrcline:
      return w.srcline;
    case SortKey::kTrace:
      return w.trace;
    case SortKey::kCpu:
      return w.cpu;
    case SortKey::kTime:
      return w.time;
    case SortKey::kSymbolSize:
      return w.symbol_size;
    case SortKey::kSocket:
      return w.socket;
    case SortKey::kDsoSize:
      return w.dso_size;
    case SortKey::kParent:
      return w.parent;
    case SortKey::kSrcfile:
      return w.srcfile;
    default:
      return branch_column_width(key, w.branch);
  }
}

// `nr_members`: evsel->core.nr_members of the section's event (0 outside a group).
std::vector<Column> make_columns(const Hists& hists, const ColumnWidths& w,
                                 const ReportPrintOptions& opts, uint32_t nr_members) {
  // The output fields as setup_sorting() lined them up; elided sort keys are not printed,
  // but take their place in -w's list (perf_hpp__set_user_width() walks every field).
  const SortSpec& spec = hists.config().sort;
  std::vector<Column> cols;
  // The group view's columns are nr_members values wide (hpp__width_fn()); a linked leader
  // (Hists::link_group) is one whatever its section says.
  uint32_t members = opts.event_group ? nr_members : 0;
  if (hists.group_size() > 1) members = static_cast<uint32_t>(hists.group_size());
  for (size_t i = 0; i < spec.columns.size(); ++i) {
    const HistField& f = spec.columns[i];
    int user_len = i < opts.column_widths.size() ? opts.column_widths[i] : 0;
    if (f.hpp != HppField::kSortKey) {
      // hpp__width_fn(): the user's width or fmt->len, at least a column per group member
      // and the header.
      Column c = hpp_column(f.hpp, spec.overhead_is_self);
      int fmt_len = c.len;
      if (user_len) c.len = user_len;
      int width = std::max(c.len, static_cast<int>(members) * fmt_len);
      c.width =
          std::max(static_cast<uint32_t>(std::max(width, 0)), static_cast<uint32_t>(c.name.size()));
      cols.push_back(c);
      continue;
    }
    if (spec.is_elided(f.key)) continue;
    // __sort__hpp_width(): the user's width, else the entries' (already at least the
    // header's).
    uint32_t width = user_len ? static_cast<uint32_t>(user_len) : key_width(f.key, w);
    cols.push_back({f.hpp, f.key, sort_key_header(f.key), width});
  }
  if (!cols.empty() && !spec.columns.empty()) {
    const HistField& last = spec.columns.back();
    cols.back().last_field = last.hpp != HppField::kSortKey || !spec.is_elided(last.key);
  }
  return cols;
}

void pad_to(fmt::memory_buffer& b, size_t start, uint32_t width) {
  size_t printed = b.size() - start;
  if (printed < width) b.append(std::string(width - printed, ' '));
}

// printf's "%*": a negative width left-justifies.
template <typename T>
void put_printf_width(fmt::memory_buffer& b, std::string_view spec, T value, int width) {
  if (width < 0) {
    fmt::format_to(std::back_inserter(b), fmt::runtime(fmt::format("{{:<{}{}}}", -width, spec)),
                   value);
  } else {
    fmt::format_to(std::back_inserter(b), fmt::runtime(fmt::format("{{:>{}{}}}", width, spec)),
                   value);
  }
}

void put_percent(fmt::memory_buffer& b, uint64_t value, uint64_t total, int len) {
  // ui/hist.c __hpp__fmt(): " %*.2f%%" with the column's len less the space and the '%'.
  double percent = total ? 100.0 * static_cast<double>(value) / static_cast<double>(total) : 0.0;
  b.push_back(' ');
  if (len == 6) {
    fmt::format_to(std::back_inserter(b), "{:6.2f}", percent);
  } else {
    put_printf_width(b, ".2f", percent, len);
  }
  b.push_back('%');
}

void put_count(fmt::memory_buffer& b, uint64_t value, int len) {
  // " %*" PRIu64 with the column's len less the space.
  b.push_back(' ');
  if (len == 11) {
    fmt::format_to(std::back_inserter(b), "{:11}", value);
  } else {
    put_printf_width(b, "", value, len);
  }
}

}  // namespace

namespace {

void print_header_lines(const std::vector<Column>& cols, std::string_view sep, OutBuffer& out) {
  // ui/stdio/hist.c hists__fprintf_standard_headers(): with -t, the headers joined by the
  // separator and no dotted rule.
  fmt::memory_buffer& b = out.buffer();
  b.append(std::string_view("# "));
  for (size_t i = 0; i < cols.size(); ++i) {
    const Column& c = cols[i];
    if (i) b.append(sep.empty() ? std::string_view("  ") : sep);
    if (c.field == HppField::kSortKey) {
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

// ui/hist.c __hpp__fmt(): the entry's value, then in the group view each member's, from
// the member's entry of the same keys (0 without one).
template <typename Put>
void put_group(const Hists& hists, uint32_t id, uint64_t HistEntry::*field, Put put) {
  put(hists.entry(id).*field, hists.percent_total());
  for (size_t m = 0; m + 1 < hists.group_size(); ++m) {
    const Hists* member = hists.member(m);
    uint32_t pair = hists.pair(id, m);
    if (pair == Hists::kNoPair || !member || !member->percent_total()) {
      put(0, 0);
    } else {
      put(member->entry(pair).*field, member->percent_total());
    }
  }
}

// ui/stdio/hist.c hists__fprintf(): an entry's line is formatted into a buffer of
// hists__sort_list_width() + 4 bytes, more by perf_hpp__color_overhead() (room for the
// percent colours, (COLOR_MAXLEN + sizeof(PERF_COLOR_RESET)) * PERF_HPP__MAX_INDEX) unless
// -t turned colours off: the characters a line keeps.
size_t entry_line_limit(const Hists& hists, const std::vector<Column>& cols, bool field_sep) {
  size_t width = 0;
  for (const Column& c : cols) width += c.width;
  if (!cols.empty()) width += 2 * (cols.size() - 1);
  if (hists.config().verbose && hists.config().sort.has(SortKey::kSymbol)) width += 3 + 16;
  return width + 3 + (field_sep ? 0 : (24 + 4) * 8);
}

void print_entry_line(const Hists& hists, uint32_t id, const std::vector<Column>& cols,
                      std::string_view sep, size_t limit, std::string_view& mispredict,
                      OutBuffer& out) {
  // ui/stdio/hist.c __hist_entry__snprintf(): "  " before every column (-t: the separator
  // between columns), each padded to its width except the last field
  // (hist_entry__snprintf_alignment).
  fmt::memory_buffer& b = out.buffer();
  size_t line_start = b.size();
  int len = 0;
  auto percent = [&](uint64_t value, uint64_t total) {
    put_percent(b, value, total, sep.empty() ? len - 2 : 1);
  };
  auto count = [&](uint64_t n, uint64_t) { put_count(b, n, sep.empty() ? len - 1 : 1); };
  for (size_t i = 0; i < cols.size(); ++i) {
    const Column& c = cols[i];
    if (sep.empty()) {
      b.append(std::string_view("  "));
    } else if (i) {
      b.append(sep);
    }
    size_t start = b.size();
    len = c.len;
    switch (c.field) {
      case HppField::kOverheadChildren:
        put_group(hists, id, &HistEntry::acc_period, percent);
        break;
      case HppField::kOverhead:
        put_group(hists, id, &HistEntry::period, percent);
        break;
      case HppField::kOverheadSys:
        put_group(hists, id, &HistEntry::period_sys, percent);
        break;
      case HppField::kOverheadUs:
        put_group(hists, id, &HistEntry::period_us, percent);
        break;
      case HppField::kSamples:
        put_group(hists, id, &HistEntry::nr_events, count);
        break;
      case HppField::kPeriod:
        put_group(hists, id, &HistEntry::period, count);
        break;
      case HppField::kSortKey:
        put_key_column(b, hists, id, c.key, c.width, mispredict);
        // sort.c repsep_snprintf(): -t's first character is '.' in a key's text (perf's
        // plain "N/A" of a non-tracepoint's trace excepted).
        if (!sep.empty() && !(c.key == SortKey::kTrace && !hists.entry(id).trace.data())) {
          std::replace(b.begin() + static_cast<ptrdiff_t>(start), b.end(), sep[0], '.');
        }
        break;
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
                   std::string_view& mispredict, OutBuffer& out) {
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
    out.print("\n# Event count (approx.): {}", nr_events);
    if (c.socket_filter > -1) out.print("\n# Processor Socket: {}", c.socket_filter);
    out.print("\n#\n");
  }

  ColumnWidths widths = compute_widths(hists, opts);
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
    if (c.use_callchain) print_entry_callchain(hists, e, opts, out);
    out.maybe_flush();
  }
  out.write("\n\n");
}

}  // namespace

void print_report(std::span<const ReportSection> sections, uint64_t total_lost_samples,
                  const ReportPrintOptions& options, OutBuffer& out) {
  // builtin-report.c evlist__tty_browse_hists(); skip_empty is perf's default.
  if (!options.quiet) out.print("#\n# Total Lost Samples: {}\n#\n", total_lost_samples);
  std::string_view mispredict = "N/A";  // sort.c hist_entry__mispredict_snprintf()'s static
  for (const ReportSection& s : sections) {
    if (!s.hists || !s.hists->nr_samples()) continue;
    print_section(s, options, mispredict, out);
  }
}

std::vector<std::string> report_key_texts(const Hists& hists, SortKey key,
                                          const ReportPrintOptions& options) {
  // The column as print_section() lays it out (the entries' widths, so nothing is cut that
  // the text report shows whole), then without the padding.
  uint32_t width = key_width(key, compute_widths(hists, options));
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
