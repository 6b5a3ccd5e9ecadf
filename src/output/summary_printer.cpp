// The summary view. Nothing here resolves an address: the rows come from the report
// session's histograms (function_rows), so the percentages are those of
// `perf report --no-children --sort dso,sym`.
#include "readperf/output/summary_printer.h"

#include <fmt/format.h>

#include <algorithm>

#include "readperf/reader/event_name.h"

namespace readperf {

namespace {

std::string cut(std::string s, size_t width) {
  if (width < 4 || s.size() <= width) return s;
  s.resize(width - 3);
  s += "...";
  return s;
}

double percent(uint64_t part, uint64_t total) {
  return total ? 100.0 * static_cast<double>(part) / static_cast<double>(total) : 0.0;
}

}  // namespace

void print_summary_section(std::string_view event_name, const Hists& hists,
                           const SummaryConfig& config, OutBuffer& out) {
  std::vector<FunctionRow> rows = function_rows(hists);
  size_t shown = config.limit ? std::min(config.limit, rows.size()) : rows.size();
  uint64_t total = hists.total_period();
  out.print("Event '{}': {} samples, period {}, {} function{}\n", event_name, hists.nr_samples(),
            total, rows.size(), rows.size() == 1 ? "" : "s");

  std::vector<std::string> names(shown);
  std::vector<std::string> sources(shown);
  size_t name_w = std::string_view("Function").size();
  size_t bin_w = std::string_view("Binary").size();
  size_t samples_w = std::string_view("Samples").size();
  size_t period_w = std::string_view("Period").size();
  for (size_t i = 0; i < shown; ++i) {
    const FunctionRow& r = rows[i];
    names[i] =
        fmt::format("[{}] {}", r.level ? r.level : '.', cut(r.name(), config.max_name_width));
    if (config.source_file) sources[i] = config.source_file(r.dso, r.sym);
    if (sources[i].empty()) sources[i] = "-";
    name_w = std::max(name_w, names[i].size());
    bin_w = std::max(bin_w, binary_name(r.dso).size());
    samples_w = std::max(samples_w, fmt::formatted_size("{}", r.samples));
    period_w = std::max(period_w, fmt::formatted_size("{}", r.period));
  }
  out.print("{:>8}  {:>{}}  {:>{}}  {:<{}}  {:<{}}  {}\n", "Percent", "Samples", samples_w,
            "Period", period_w, "Function", name_w, "Binary", bin_w, "Source");
  for (size_t i = 0; i < shown; ++i) {
    const FunctionRow& r = rows[i];
    out.print("{:>7.2f}%  {:>{}}  {:>{}}  {:<{}}  {:<{}}  {}\n", percent(r.period, total),
              r.samples, samples_w, r.period, period_w, names[i], name_w, binary_name(r.dso), bin_w,
              sources[i]);
  }
  if (shown < rows.size()) {
    uint64_t rest_samples = 0;
    uint64_t rest_period = 0;
    for (size_t i = shown; i < rows.size(); ++i) {
      rest_samples += rows[i].samples;
      rest_period += rows[i].period;
    }
    out.print("{:>7.2f}%  {:>{}}  {:>{}}  ({} more function{}; --limit 0 shows all)\n",
              percent(rest_period, total), rest_samples, samples_w, rest_period, period_w,
              rows.size() - shown, rows.size() - shown == 1 ? "" : "s");
  }
}

Status run_summary(PerfData& data, const SummaryConfig& config, OutBuffer& out) {
  SymbolConfig symbols = config.symbols;
  symbols.recorded_os_release = data.features().os_release.value_or(symbols.recorded_os_release);
  Result<ReportData> r = run_report_session(data, function_report_setup(symbols));
  if (!r) return tl::unexpected(r.error());
  out.print("{}: {} event{}", data.path() == "-" ? "standard input" : data.path(),
            data.events().size(), data.events().size() == 1 ? "" : "s");
  if (r->total_lost_samples) out.print(", {} lost samples", r->total_lost_samples);
  out.print("\n");
  bool any = false;
  for (size_t i = 0; i < data.events().size(); ++i) {
    const Hists* h = i < r->hists.size() ? r->hists[i].get() : nullptr;
    if (!h || !h->nr_samples()) continue;
    out.print("\n");
    print_summary_section(event_name(data.events()[i]), *h, config, out);
    any = true;
  }
  if (!any) out.print("\nno samples\n");
  out.flush();
  return {};
}

}  // namespace readperf
