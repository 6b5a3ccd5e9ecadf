// The column layout of `report --stdio` (report_layout.h).
#include "report_layout.h"

#include <fmt/format.h>

#include <algorithm>
#include <string>

#include "readperf/session/cgroups.h"
#include "readperf/session/dso.h"
#include "readperf/session/thread.h"
#include "readperf/symbols/symbol_table.h"

namespace readperf {

ColumnWidths compute_widths(const Hists& hists, const ReportPrintOptions& opts,
                            std::span<const uint32_t> ids) {
  // output_resort() runs hists__calc_col_len() on every entry that is not filtered out,
  // whatever --percent-limit later hides; hists__fprintf() then widens each column to its
  // header (perf_hpp__reset_sort_width).
  ColumnWidths w;
  // hists__set_unres_dso_col_len(): an unresolved entry widens the DSO columns to an
  // address's width unless --dsos, -w or -t was given.
  bool keep_dso_width = opts.dso_filter || !opts.column_widths.empty() || !opts.field_sep.empty();
  for (uint32_t id : ids) {
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
    // HISTC_TRANSACTION: only entries with flags widen it.
    if (e.transaction) w.transaction = transaction_len();
    // HISTC_CGROUP: the name of an entry with a cgroup ("unknown" when no record named it).
    if (e.cgroup) {
      w.cgroup = std::max(w.cgroup, static_cast<uint32_t>(hists.cgroups().name(e.cgroup).size()));
    }
    if (hists.entries_compared()) {
      w.srcfile = std::max(w.srcfile, static_cast<uint32_t>(e.srcfile.size()));
      w.trace = std::max(w.trace, static_cast<uint32_t>(e.trace.size()));
    }
    if (hists.config().branch_mode) widen_branch_columns(hists, id, keep_dso_width, w.branch);
    if (hists.config().mem_mode) widen_mem_columns(hists, id, keep_dso_width, w.mem);
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
  // hists__calc_col_len(): HISTC_CGROUP at least 6, HISTC_CGROUP_ID 20, HISTC_ADDR
  // BITS_PER_LONG / 4 + 2.
  w.transaction = std::max(w.transaction, header(SortKey::kTransaction));
  w.cgroup = std::max({w.cgroup, 6u, header(SortKey::kCgroup)});
  w.cgroup_id = std::max(20u, header(SortKey::kCgroupId));
  w.addr = std::max(kUnresolvedWidth + 2, header(SortKey::kAddr));
  // hist.c hists__calc_col_len(): HISTC_LOCAL_WEIGHT and HISTC_GLOBAL_WEIGHT 12, the latency
  // and stage columns 13, HISTC_CODE_PAGE_SIZE 6.
  static constexpr std::array<uint32_t, 7> kValueWidths = {12, 12, 13, 13, 13, 13, 6};
  for (size_t i = 0; i < kValueWidths.size(); ++i) {
    SortKey k = static_cast<SortKey>(static_cast<size_t>(SortKey::kLocalWeight) + i);
    w.sample_value[i] = std::max(kValueWidths[i], header(k));
  }
  return w;
}

namespace {

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
    case HppField::kOverheadGuestSys:
      return {f, {}, "guest sys", 0, 9};
    case HppField::kOverheadGuestUs:
      return {f, {}, "guest usr", 0, 9};
    case HppField::kSamples:
      return {f, {}, "Samples", 0, 12};
    case HppField::kPeriod:
      return {f, {}, "Period", 0, 12};
    case HppField::kSortKey:
      break;
  }
  return {f, {}, "", 0, 0};
}

}  // namespace

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
    case SortKey::kTransaction:
      return w.transaction;
    case SortKey::kCgroupId:
      return w.cgroup_id;
    case SortKey::kCgroup:
      return w.cgroup;
    case SortKey::kAddr:
      return w.addr;
    default:
      if (is_mem_key(key)) return mem_column_width(key, w.mem);
      if (is_sample_value_key(key)) {
        return w
            .sample_value[static_cast<size_t>(key) - static_cast<size_t>(SortKey::kLocalWeight)];
      }
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
    if (is_dynamic_key(f.key)) {
      // A tracepoint field's column exists in its own event's section only
      // (perf_hpp__defined_dynamic_entry()); __sort__hde_width(): the user's width or
      // hde_width().
      const DynamicField& d = spec.dynamic[dynamic_index(f.key)];
      if (d.event != hists.config().event) continue;
      uint32_t width = user_len ? static_cast<uint32_t>(user_len) : dynamic_width(hists, f.key, d);
      cols.push_back({f.hpp, f.key, d.field.name, width});
      continue;
    }
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

namespace {

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

}  // namespace

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

void put_hpp_column(fmt::memory_buffer& b, const Hists& hists, uint32_t id, const Column& c,
                    bool field_sep) {
  auto percent = [&](uint64_t value, uint64_t total) {
    put_percent(b, value, total, field_sep ? 1 : c.len - 2);
  };
  auto count = [&](uint64_t n, uint64_t) { put_count(b, n, field_sep ? 1 : c.len - 1); };
  // The HistEntry value each hpp column prints; percentages but for Samples and Period.
  uint64_t HistEntry::*field = nullptr;
  switch (c.field) {
    case HppField::kOverheadChildren:
      // hpp__fmt_acc(): without cumulated call chains (none recorded) the column says so,
      // once, even in a group view.
      if (!hists.config().children) {
        fmt::format_to(std::back_inserter(b), " {:>{}}", "N/A", c.len - 1);
        return;
      }
      field = &HistEntry::acc_period;
      break;
    case HppField::kOverhead:
    case HppField::kPeriod:
      field = &HistEntry::period;
      break;
    case HppField::kOverheadSys:
      field = &HistEntry::period_sys;
      break;
    case HppField::kOverheadUs:
      field = &HistEntry::period_us;
      break;
    case HppField::kOverheadGuestSys:
      field = &HistEntry::period_guest_sys;
      break;
    case HppField::kOverheadGuestUs:
      field = &HistEntry::period_guest_us;
      break;
    case HppField::kSamples:
      field = &HistEntry::nr_events;
      break;
    case HppField::kSortKey:
      return;
  }
  if (c.field == HppField::kSamples || c.field == HppField::kPeriod) {
    put_group(hists, id, field, count);
  } else {
    put_group(hists, id, field, percent);
  }
}

void put_key_text(fmt::memory_buffer& b, const Hists& hists, uint32_t id, SortKey key,
                  uint32_t width, std::string_view sep, std::string_view& mispredict) {
  size_t start = b.size();
  put_key_column(b, hists, id, key, width, mispredict);
  // sort.c repsep_snprintf(): -t's first character is '.' in a key's text (perf's plain
  // "N/A" of a non-tracepoint's trace excepted).
  if (!sep.empty() && !(key == SortKey::kTrace && !hists.entry(id).trace.data())) {
    std::replace(b.begin() + static_cast<ptrdiff_t>(start), b.end(), sep[0], '.');
  }
}

}  // namespace readperf
