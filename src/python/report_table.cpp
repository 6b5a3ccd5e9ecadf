#include "report_table.h"

#include <fmt/format.h>
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <cstdlib>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

#include "readperf/analysis/report_session.h"
#include "readperf/analysis/symbol_prefetch.h"
#include "readperf/format/perf_abi.h"
#include "readperf/output/report_printer.h"
#include "readperf/output/trace_text.h"
#include "readperf/reader/event_name.h"
#include "readperf/reader/perf_data.h"
#include "readperf/symbols/demangle.h"

namespace py = pybind11;

namespace readperf {

namespace {

// What the report's setup takes from the recording, as report__setup_sample_type() and
// cmd_report() decide it for `report --stdio` without -g (src/cli/report_histograms.cpp).
struct RecordingTraits {
  bool has_callchain = false;  // a pipe's events come later: perf assumes none
  bool all_tracepoints = false;
  bool perf7 = false;  // recorded by perf 7 or later
};

RecordingTraits traits_of(const PerfData& pd) {
  RecordingTraits t;
  bool is_pipe = pd.kind() == ContainerKind::kPipe;
  t.has_callchain = !is_pipe && (pd.events().combined_sample_type() & kSampleCallchain);
  t.all_tracepoints = !is_pipe && !pd.events().empty();
  for (size_t i = 0; t.all_tracepoints && i < pd.events().size(); ++i) {
    if (pd.events()[i].attr.type != kTypeTracepoint) t.all_tracepoints = false;
  }
  const auto& v = pd.features().version;
  t.perf7 = v && std::atoi(v->c_str()) >= 7;
  return t;
}

py::object text(std::string_view s) {
  // Names are bytes from the file: undecodable ones are kept.
  return py::reinterpret_steal<py::object>(
      PyUnicode_DecodeUTF8(s.data(), static_cast<py::ssize_t>(s.size()), "surrogateescape"));
}

template <class T>
py::array_t<T> array_of(const std::vector<T>& v) {
  py::array_t<T> a(static_cast<py::ssize_t>(v.size()));
  std::copy(v.begin(), v.end(), a.mutable_data());
  return a;
}

// The report's rows, gathered while the session's objects (the entries' names) are alive.
struct Rows {
  std::vector<std::string> event;
  std::vector<std::vector<std::string>> keys;  // by sort key, then row
  std::vector<uint64_t> period, samples, children_period;
  std::vector<double> overhead, children;
};

double percent(uint64_t value, uint64_t total) {
  // ui/hist.c __hpp__fmt()'s percentage.
  return total ? 100.0 * static_cast<double>(value) / static_cast<double>(total) : 0.0;
}

}  // namespace

py::dict report_table(const std::string& path, const SymbolConfig& symbols, uint32_t max_stack,
                      const std::string& sort_order, bool children) {
  Rows rows;
  SortSpec spec;
  std::optional<Error> failed;
  bool bad_sort = false;
  {
    py::gil_scoped_release release;
    auto data = PerfData::open(path);
    if (!data) {
      failed = data.error();
    } else {
      PerfData& pd = **data;
      prefetch_symbols(pd, symbols);
      RecordingTraits traits = traits_of(pd);
      // cmd_report(): children only over call chains, then in caller order.
      bool cumulate = children && traits.has_callchain;
      SortingOptions sorting;
      sorting.sort_order = sort_order;
      sorting.default_order =
          traits.all_tracepoints ? kDefaultTracepointSortOrder : kDefaultSortOrder;
      sorting.cumulate = cumulate;
      Result<SortSpec> sorted = setup_sorting(sorting);
      if (!sorted) {
        failed = sorted.error();
        bad_sort = true;
      } else {
        spec = *sorted;
        ReportSetup setup;
        setup.hist.sort = spec;
        setup.hist.children = cumulate;
        setup.hist.use_callchain = traits.has_callchain || pd.kind() == ContainerKind::kPipe;
        setup.hist.caller_order = cumulate;
        setup.hist.callchain_entries_user_level = traits.perf7;
        // One table per event: every event's entries, a group's members too (--no-group).
        setup.event_group = false;
        setup.max_stack = max_stack;
        setup.symbols = symbols;
        setup.symbols.recorded_os_release = pd.features().os_release.value_or("");
        setup.symbols.demangle_params =
            perf_version_demangles_with_params(pd.features().version.value_or(""));
        TraceTexts trace_texts(pd, /*raw=*/false);
        if (spec.has(SortKey::kTrace)) {
          setup.trace_text = [&](const Evsel& e, const Sample& s, Resolver& r, const Thread& t) {
            return trace_texts.text(e, s, r, t);
          };
        }
        Result<ReportData> report = run_report_session(pd, setup);
        if (!report) {
          failed = report.error();
        } else {
          rows.keys.resize(spec.keys.size());
          ReportPrintOptions po;
          for (size_t ev = 0; ev < report->hists.size(); ++ev) {
            const Hists* h = report->hists[ev].get();
            if (!h || !h->nr_samples()) continue;
            std::string name = ev < pd.events().size() ? event_name(pd.events()[ev]) : "";
            std::vector<std::vector<std::string>> texts;
            for (SortKey k : spec.keys) texts.push_back(report_key_texts(*h, k, po));
            uint64_t total = h->percent_total();
            const std::vector<uint32_t>& order = h->order();
            for (size_t i = 0; i < order.size(); ++i) {
              const HistEntry& e = h->entry(order[i]);
              if (e.filtered) continue;
              rows.event.push_back(name);
              for (size_t k = 0; k < texts.size(); ++k) rows.keys[k].push_back(texts[k][i]);
              rows.period.push_back(e.period);
              rows.samples.push_back(e.nr_events);
              rows.overhead.push_back(percent(e.period, total));
              // Without call chains a sample's children are itself.
              uint64_t acc = cumulate ? e.acc_period : e.period;
              rows.children_period.push_back(acc);
              rows.children.push_back(percent(acc, total));
            }
          }
        }
      }
    }
  }
  if (failed) {
    if (bad_sort) throw py::value_error(failed->message());
    throw std::runtime_error(failed->message());
  }

  py::dict d;
  py::list events;
  for (const std::string& e : rows.event) events.append(text(e));
  d["event"] = events;
  for (size_t k = 0; k < spec.keys.size(); ++k) {
    py::list col;
    if (spec.keys[k] == SortKey::kSymbol) {
      // "[.] name": the level, then the symbol (put_sym_column()).
      py::list level;
      for (const std::string& t : rows.keys[k]) {
        level.append(text(std::string_view(t).substr(1, 1)));
        col.append(text(std::string_view(t).substr(4)));
      }
      d["level"] = level;
    } else {
      for (const std::string& t : rows.keys[k]) col.append(text(t));
    }
    d[py::str(std::string(sort_key_name(spec.keys[k])))] = col;
  }
  if (children) {
    d["children"] = array_of(rows.children);
    d["self"] = array_of(rows.overhead);
    d["children_period"] = array_of(rows.children_period);
  } else {
    d["overhead"] = array_of(rows.overhead);
  }
  d["period"] = array_of(rows.period);
  d["samples"] = array_of(rows.samples);
  return d;
}

}  // namespace readperf
