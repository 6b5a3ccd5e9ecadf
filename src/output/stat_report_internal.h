// The pieces of `stat report` (stat_report.cpp: the records and each round's processing;
// stat_display.cpp: the table). Not a public API.
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "readperf/format/error.h"
#include "readperf/output/out_buffer.h"
#include "readperf/output/stat_report.h"
#include "readperf/reader/perf_data.h"
#include "stat_counts.h"

namespace readperf {

struct StatConfigEvent;
struct StatEvent;

// util/stat.c: struct stats, its running mean.
struct StatMean {
  double n = 0, mean = 0;
  void update(double v) {
    ++n;
    mean += (v - mean) / n;
  }
};

// cpumap.h struct aggr_cpu_id, for the modes that group cpus (-1: not part of the id).
struct StatAggrId {
  int node = -1, socket = -1, die = -1, core = -1;
  auto key() const { return std::tie(node, socket, die, core); }
  bool operator==(const StatAggrId& o) const { return key() == o.key(); }
  bool operator<(const StatAggrId& o) const { return key() < o.key(); }
};

// stat-shadow.c's runtime stats this printer uses.
enum StatKind { kStatNsecs, kStatCycles, kStatBranches };

// evsel.h evsel__is_clock(); a hardware event of `config`; stat-shadow.c's context of a
// stat kind (none for clock events).
bool stat_is_clock(const EventAttr& a);
bool stat_is_hw(const EventAttr& a, uint64_t config);
int stat_context(StatKind kind, const EventAttr& a);

class StatReport : public EventSink {
 public:
  StatReport(PerfData& pd, OutBuffer& out, const StatReportOptions& options)
      : pd_(pd),
        out_(out),
        options_(options),
        csv_(options.csv_sep.has_value() && !options.json),
        json_(options.json),
        metric_only_(options.metric_only),
        sep_(csv_ ? (*options.csv_sep == "\\t" ? "\t" : *options.csv_sep) : " ") {}

  void on_user_record(const RecordView& r) override;
  Status status() const { return status_; }
  bool done() const override { return !status_; }

 private:
  // stat_report.cpp
  size_t nr_threads() const { return std::max<size_t>(thread_pids_.size(), 1); }
  size_t nr_cpus() const { return std::max<size_t>(cpus_.size(), 1); }
  StatCounter& counter(size_t index);
  void on_stat_config(const StatConfigEvent& config);
  void on_stat(const StatEvent& stat);
  void on_round(uint64_t type, uint64_t time);
  void process_counter(const Evsel& ev, StatCounter& k);
  // stat-shadow.c perf_stat__update_shadow_stats() under `map_idx`.
  void update_shadow(const EventAttr& a, uint64_t val, double scale, int map_idx);
  // builtin-stat.c perf_stat__get_*_file(): a cpu's socket, die, core or NUMA node.
  StatAggrId aggr_id(int cpu) const;
  // aggr_cpu_id__cpu()'s socket of the running machine: whether AGGR_NONE names the cpu of
  // CPU_MAP index `idx` (asked once per cpu, where perf asks sysfs for every line).
  bool cpu_named(size_t idx);

  // stat_display.cpp
  void print_counters();
  void print_interval_header();
  const char* interval_columns(const char** counts) const;
  void print_header();
  void print_footer();
  void print_global(const Evsel& ev, const StatCounter& k);
  void print_per_cpu(const Evsel& ev, const StatCounter& k);
  void print_aggregates();
  void print_per_thread(const Evsel& ev, const StatCounter& k);
  // printout(): the counts of one line after its `aggr` columns.
  void print_line(const std::string& aggr, const Evsel& ev, const StatCounter& k, uint64_t val,
                  uint64_t ena, uint64_t run, int map_idx);
  // aggr_printout() of -j: the object's start (unless the interval's prefix opened it) and the
  // aggregate's fields.
  std::string aggr_text(const StatAggrId& id, int nr) const;
  std::string json_aggr(const std::string& fields) const { return (interval_ ? "" : "{") + fields; }
  const StatMean* runtime(StatKind kind, const EventAttr& a, int map_idx) const;
  // `color`: get_ratio_color()'s, which only --metric-only's column width sees.
  void metric(const char* fmt_spec, const char* unit, double val, const char* color = nullptr);
  void shadow(const EventAttr& a, double avg, double scale, int map_idx);
  void running(uint64_t run, uint64_t ena);
  // cpu `idx`'s aggr_printout() of AGGR_NONE, and whether the running machine names it.
  std::string cpu_aggr(size_t idx, bool& known);

  // stat_metric_only.cpp: --metric-only's evlist__print_counters() pieces, a line per
  // aggregate with a column per metric.
  void print_metric_only_header();
  void print_no_aggr_metric();
  void print_global_metric_only();
  void print_metric_headers(const char* prefix, bool no_indent);
  // printout() of --metric-only: the line's metric of one counter, or an empty column.
  void metric_only_line(const Evsel& ev, const StatCounter& k, uint64_t val, uint64_t ena,
                        uint64_t run, int map_idx);
  // print_metric_only(), print_metric_only_csv(), print_metric_only_json() and, for the
  // header, print_metric_header().
  void metric_only(const char* fmt_spec, const char* unit, double val, const char* color);

  PerfData& pd_;
  OutBuffer& out_;
  StatReportOptions options_;
  bool csv_;         // -x: stat_config.csv_output
  bool json_;        // -j: stat_config.json_output
  bool metric_only_;                  // --metric-only: stat_config.metric_only
  bool metric_header_ = false;        // shadow() prints print_metric_headers()'s units
  const Evsel* metric_ev_ = nullptr;  // the counter shadow() prints the metric of (fixunit())
  int nr_metric_headers_ = 0;         // evlist__print_counters()'s num_print_iv
  std::string sep_;  // stat_config.csv_sep: " " without -x
  std::vector<int> cpus_;
  std::vector<int32_t> thread_pids_;  // THREAD_MAP
  std::vector<std::string> thread_comms_;
  std::vector<bool> cpu_named_;  // cpu_named() of each CPU_MAP index, once asked
  bool have_cpus_ = false, have_threads_ = false;
  int aggr_mode_ = kAggrGlobal;
  uint64_t interval_ = 0;
  bool scale_ = true;
  std::vector<StatCounter> counters_;
  std::map<std::tuple<int, int, int>, StatMean> runtime_;  // by StatKind, context, map index
  StatMean walltime_;
  std::string prefix_;  // the interval's time, before each line
  int nr_intervals_ = 0;
  bool free_counters_hint_ = false;
  Status status_;
};

}  // namespace readperf
