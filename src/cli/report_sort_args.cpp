// `report --sort`'s tracepoint fields (sort.c add_dynamic_entry()) and the sort columns a
// single-valued filter elides (sort.c sort__setup_elide()).
#include <cstdlib>

#include "readperf/analysis/sample_selection.h"
#include "readperf/format/perf_abi.h"
#include "readperf/output/out_buffer.h"
#include "readperf/output/trace_format.h"
#include "readperf/reader/event_name.h"
#include "readperf/reader/perf_data.h"
#include "report_args.h"

namespace readperf::cli {

// sort.c add_dynamic_entry(): the tracepoint fields a sort token names: `trace_fields` (every
// field of every tracepoint), `EVENT.FIELD`, `EVENT.*` (EVENT a full "sys:name", a part of
// one names a single event, or %N the Nth), `FIELD` (that field of every tracepoint that has
// it), each with an optional "/raw". None when the token names nothing.
std::optional<std::vector<DynamicField>> dynamic_fields(const PerfData& pd,
                                                        const TraceFormatter* formats,
                                                        std::string_view tok, bool raw_trace) {
  std::vector<DynamicField> out;
  std::string_view event_part, field = tok, opt;
  if (size_t dot = tok.find('.'); dot != std::string_view::npos) {
    event_part = tok.substr(0, dot);
    field = tok.substr(dot + 1);
  }
  if (size_t slash = field.find('/'); slash != std::string_view::npos) {
    opt = field.substr(slash + 1);
    field = field.substr(0, slash);
    if (opt != "raw") return std::nullopt;
    raw_trace = true;
  }
  const auto& events = pd.events();
  auto add = [&](size_t i, const TracepointField& f) {
    out.push_back({static_cast<uint32_t>(i), f, raw_trace});
  };
  auto is_tracepoint = [&](size_t i) { return events[i].attr.type == kTypeTracepoint; };
  if (field == "trace_fields") {
    for (size_t i = 0; formats && i < events.size(); ++i) {
      if (!is_tracepoint(i)) continue;
      for (const auto& f : formats->fields(events[i].attr.config)) add(i, f);
    }
    return out;
  }
  if (!formats) return std::nullopt;
  if (event_part.empty() && tok.find('.') == std::string_view::npos) {
    for (size_t i = 0; i < events.size(); ++i) {
      TracepointField f;
      if (is_tracepoint(i) && formats->find_any_field(events[i].attr.config, field, &f)) add(i, f);
    }
    if (out.empty()) return std::nullopt;
    return out;
  }
  // find_evsel().
  size_t found = events.size();
  if (!event_part.empty() && event_part[0] == '%') {
    long nr = std::strtol(std::string(event_part.substr(1)).c_str(), nullptr, 0);
    if (nr > static_cast<long>(events.size())) return std::nullopt;
    found = nr > 1 ? static_cast<size_t>(nr - 1) : 0;
  } else {
    const bool full_name = event_part.find(':') != std::string_view::npos;
    for (size_t i = 0; i < events.size(); ++i) {
      const std::string name = event_name(events[i]);
      if (full_name && name == event_part) {
        found = i;
        break;
      }
      if (!full_name && name.find(event_part) != std::string::npos) {
        if (found != events.size()) return std::nullopt;  // ambiguous
        found = i;
      }
    }
  }
  if (found >= events.size() || !is_tracepoint(found)) return std::nullopt;
  if (field == "*") {
    for (const auto& f : formats->fields(events[found].attr.config)) add(found, f);
  } else if (TracepointField f; formats->find_any_field(events[found].attr.config, field, &f)) {
    add(found, f);
  } else {
    return std::nullopt;
  }
  return out;
}

// sort.c sort__setup_elide(): a column whose filter names one value is not printed; a
// "# comm: X" line says which. When that would hide every sort column, all are shown.
void elide_filtered_columns(const SampleSelection& filters, SortSpec& spec, OutBuffer& out) {
  auto single = [](const std::vector<std::string>& list) -> const std::string* {
    return list.size() == 1 ? &list[0] : nullptr;
  };
  size_t sort_columns = 0;
  for (const HistField& f : spec.columns) {
    if (f.hpp != HppField::kSortKey) continue;
    ++sort_columns;
    const std::string* value = nullptr;
    std::string_view name;
    switch (f.key) {
      case SortKey::kSymbol:
        value = single(filters.symbols()), name = "symbol";
        break;
      case SortKey::kDso:
        value = single(filters.dsos()), name = "dso";
        break;
      case SortKey::kComm:
        value = single(filters.comms()), name = "comm";
        break;
      default:
        break;
    }
    if (!value) continue;
    out.print("# {}: {}\n", name, *value);
    spec.elided.push_back(f.key);
  }
  if (spec.elided.size() == sort_columns) spec.elided.clear();
}

}  // namespace readperf::cli
