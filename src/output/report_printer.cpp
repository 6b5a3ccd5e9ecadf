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
  uint32_t width = 0;
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
  for (uint32_t id : hists.order()) {
    const HistEntry& e = hists.entry(id);
    if (e.filtered) continue;
    if (e.sym) {
      uint32_t len = static_cast<uint32_t>(e.sym->name.size()) + 4;
      if (hists.config().verbose) len += kUnresolvedWidth + 2 + 3;
      w.symbol = std::max(w.symbol, len);
    } else {
      w.symbol = std::max(w.symbol, kUnresolvedWidth + 4 + 2);
      if (w.dso < kUnresolvedWidth && !opts.dso_filter) w.dso = kUnresolvedWidth;
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
    if (hists.config().branch_mode) widen_branch_columns(hists, id, opts.dso_filter, w.branch);
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

// ui/hist.c's hpp columns: header and width (hpp__width_fn: the wider of the two, in the
// group view a column per member side by side).
Column hpp_column(HppField f, bool overhead_is_self, uint32_t members) {
  switch (f) {
    case HppField::kOverheadChildren:
      return {f, {}, "Children", 8 * members};
    case HppField::kOverhead:
      return {f, {}, overhead_is_self ? "Self" : "Overhead", 8 * members};
    case HppField::kOverheadSys:
      return {f, {}, "sys", 8 * members};
    case HppField::kOverheadUs:
      return {f, {}, "usr", 8 * members};
    case HppField::kSamples:
      return {f, {}, "Samples", 12 * members};
    case HppField::kPeriod:
      return {f, {}, "Period", 12 * members};
    case HppField::kSortKey:
      break;
  }
  return {f, {}, "", 0};
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

std::vector<Column> make_columns(const Hists& hists, const ColumnWidths& w) {
  // The output fields as setup_sorting() lined them up; elided sort keys are not printed.
  const SortSpec& spec = hists.config().sort;
  std::vector<Column> cols;
  uint32_t members = static_cast<uint32_t>(hists.group_size());
  for (const HistField& f : spec.columns) {
    if (f.hpp != HppField::kSortKey) {
      cols.push_back(hpp_column(f.hpp, spec.overhead_is_self, members));
      continue;
    }
    if (spec.is_elided(f.key)) continue;
    uint32_t width = key_width(f.key, w);
    cols.push_back({f.hpp, f.key, sort_key_header(f.key), width});
  }
  return cols;
}

void pad_to(fmt::memory_buffer& b, size_t start, uint32_t width) {
  size_t printed = b.size() - start;
  if (printed < width) b.append(std::string(width - printed, ' '));
}

void put_percent(fmt::memory_buffer& b, uint64_t value, uint64_t total) {
  // ui/hist.c __hpp__fmt(): " %*.2f%%" with the column's width less the space and the '%'.
  double percent = total ? 100.0 * static_cast<double>(value) / static_cast<double>(total) : 0.0;
  fmt::format_to(std::back_inserter(b), " {:6.2f}%", percent);
}

}  // namespace

void put_fixed(fmt::memory_buffer& b, std::string_view s, uint32_t width) {
  if (s.size() > width) s = s.substr(0, width);
  b.append(s);
  if (s.size() < width) b.append(std::string(width - s.size(), ' '));
}

void put_sym_column(fmt::memory_buffer& b, char level, const Symbol* sym, uint64_t ip,
                    uint64_t sym_base, uint32_t width) {
  size_t start = b.size();
  fmt::format_to(std::back_inserter(b), "[{}] ", level);
  if (sym) {
    if (sym->type == kTypeObject) {
      fmt::format_to(std::back_inserter(b), "{}+0x{:x}", sym->name, ip - sym_base);
    } else {
      size_t used = b.size() - start;
      std::string_view name = sym->name;
      if (width > used && name.size() > width - used) name = name.substr(0, width - used);
      if (width <= used) name = {};
      b.append(name);
      if (sym->inlined) b.append(std::string_view(" (inlined)"));
    }
  } else if (ip) {
    fmt::format_to(std::back_inserter(b), "0x{:016x}", ip);
  } else {
    b.append(std::string_view("0000000000000000"));
  }
}

namespace {

void print_header_lines(const std::vector<Column>& cols, OutBuffer& out) {
  // ui/stdio/hist.c hists__fprintf_standard_headers().
  fmt::memory_buffer& b = out.buffer();
  b.append(std::string_view("# "));
  for (size_t i = 0; i < cols.size(); ++i) {
    const Column& c = cols[i];
    if (i) b.append(std::string_view("  "));
    if (c.field == HppField::kSortKey) {
      put_fixed(b, c.name, c.width);
    } else {
      fmt::format_to(std::back_inserter(b), "{:>{}}", c.name, c.width);
    }
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

// sort.c's se_snprintf functions: what sort key `key`'s column shows for entry `id`, padded
// or cut to `width` as perf does.
void put_key_column(fmt::memory_buffer& b, const Hists& hists, uint32_t id, SortKey key,
                    uint32_t width, std::string_view& mispredict) {
  const HistEntry& e = hists.entry(id);
  switch (key) {
    case SortKey::kPid: {
      // sort.c hist_entry__thread_snprintf(): "%7d:%-*.*s", the thread's latest comm.
      uint32_t w = std::max<uint32_t>(7, width) - 8;
      fmt::format_to(std::back_inserter(b), "{:7}:", e.thread ? e.thread->tid : -1);
      put_fixed(b, e.thread ? std::string_view(e.thread->comm_str()) : "", w);
      break;
    }
    case SortKey::kComm:
      put_fixed(b, hists.comm_name(e.comm), width);
      break;
    case SortKey::kDso:
      put_fixed(b, e.dso ? hists.dso_name(e.dso) : "[unknown]", width);
      break;
    case SortKey::kSymbol:
      // "ip - map->unmap_ip(map, sym->start)": a call-chain entry's ip is an address,
      // a sample's own is map-relative.
      put_sym_column(b, e.level, e.sym, e.ip, e.sym_base, width);
      break;
    case SortKey::kIpcNull:
      put_fixed(b, "-      -", width);
      break;
    case SortKey::kSrcline:
      // sort.c hist_entry__srcline_snprintf(): "%-.*s", cut but not padded.
      b.append(e.srcline.substr(0, std::min<size_t>(e.srcline.size(), width)));
      break;
    case SortKey::kSrcfile: {
      // sort.c hist_entry__srcfile_snprintf(): "%-.*s" too; glibc's "(null)" for an entry
      // never compared (sort__srcfile_cmp() found none).
      std::string_view f = hists.entries_compared() ? e.srcfile : "(null)";
      b.append(f.substr(0, std::min<size_t>(f.size(), width)));
      break;
    }
    case SortKey::kTrace: {
      // sort.c hist_entry__trace_snprintf(): "%-.*s" of the text, "N/A" for an event
      // that is not a tracepoint.
      std::string_view text = e.trace.data() ? e.trace : "N/A";
      b.append(text.substr(0, std::min<size_t>(text.size(), width)));
      break;
    }
    case SortKey::kCpu: {
      // sort.c hist_entry__cpu_snprintf(): "%*.*d", whose precision counts digits only:
      // an unrecorded CPU (-1) is "-001", not fmt's "-01".
      int32_t cpu = static_cast<int32_t>(e.cpu);
      if (cpu < 0) b.push_back('-');
      int64_t magnitude = cpu < 0 ? -int64_t{cpu} : int64_t{cpu};
      fmt::format_to(std::back_inserter(b), "{:0{}}", magnitude, width);
    } break;
    case SortKey::kTime: {
      // sort.c hist_entry__time_snprintf(): timestamp__scnprintf_usec/_nsec, "%-.*s".
      std::string t =
          hists.config().nanosecs
              ? fmt::format("{}.{:09}", e.time / 1000000000, e.time % 1000000000)
              : fmt::format("{}.{:06}", e.time / 1000000000, e.time % 1000000000 / 1000);
      b.append(std::string_view(t).substr(0, width));
      break;
    }
    case SortKey::kSocket: {
      // sort.c hist_entry__socket_snprintf(): "%*.*d" with width - 3 digits at least.
      int32_t socket = e.socket;
      int64_t magnitude = socket < 0 ? -int64_t{socket} : int64_t{socket};
      std::string digits = fmt::format("{:0{}}", magnitude, width > 3 ? width - 3 : 1);
      if (socket < 0) digits.insert(0, 1, '-');
      fmt::format_to(std::back_inserter(b), "{:>{}}", digits, width);
    } break;
    case SortKey::kParent: {
      // sort.c hist_entry__parent_snprintf(): "%-*.*s", "[other]" without a parent.
      std::string_view name = e.parent ? e.parent->name : "[other]";
      name = name.substr(0, std::min<size_t>(name.size(), width));
      fmt::format_to(std::back_inserter(b), "{:<{}}", name, width);
    } break;
    case SortKey::kDsoSize:
      // sort.c _hist_entry__dso_size_snprintf(): "%*d" of the map's size, else "unknown".
      if (e.dso && e.map_size) {
        fmt::format_to(std::back_inserter(b), "{:>{}}", static_cast<int32_t>(e.map_size), width);
      } else {
        fmt::format_to(std::back_inserter(b), "{:>{}}", "unknown", width);
      }
      break;
    case SortKey::kSymbolSize:
      // sort.c _hist_entry__sym_size_snprintf(): "%*d", else "unknown".
      if (e.sym) {
        fmt::format_to(std::back_inserter(b), "{:>{}}",
                       static_cast<int32_t>(e.sym->end - e.sym->start), width);
      } else {
        fmt::format_to(std::back_inserter(b), "{:>{}}", "unknown", width);
      }
      break;
    default:
      put_branch_column(b, key, hists, id, width, mispredict);
      break;
  }
}

void print_entry_line(const Hists& hists, uint32_t id, const std::vector<Column>& cols,
                      std::string_view& mispredict, OutBuffer& out) {
  // ui/stdio/hist.c __hist_entry__snprintf(): "  " before every column, each padded to its
  // width except the last (hist_entry__snprintf_alignment).
  fmt::memory_buffer& b = out.buffer();
  auto percent = [&](uint64_t value, uint64_t total) { put_percent(b, value, total); };
  auto count = [&](uint64_t n, uint64_t) { fmt::format_to(std::back_inserter(b), " {:11}", n); };
  for (size_t i = 0; i < cols.size(); ++i) {
    const Column& c = cols[i];
    b.append(std::string_view("  "));
    size_t start = b.size();
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
        break;
    }
    if (i + 1 < cols.size()) pad_to(b, start, c.width);
  }
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
  std::vector<Column> cols = make_columns(hists, widths);
  if (!opts.quiet) print_header_lines(cols, out);

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
    print_entry_line(hists, id, cols, mispredict, out);
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
