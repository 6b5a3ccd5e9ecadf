// The processing half of `perf report`: every record of a recording applied to a Machine in
// perf's order, every sample resolved (Resolver) and added to its event's histogram
// (builtin-report.c process_sample_event), lost samples counted.
//
//   ReportSetup setup;                    // sort keys, children, call chains, filters
//   Result<ReportData> r = run_report_session(data, setup);
//   for (auto& h : r->hists) if (h) print(*h);
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "readperf/analysis/block_report.h"
#include "readperf/analysis/branch_cycles.h"
#include "readperf/analysis/evswitch.h"
#include "readperf/analysis/hist.h"
#include "readperf/analysis/sample_filter.h"
#include "readperf/analysis/sample_selection.h"
#include "readperf/format/error.h"
#include "readperf/reader/perf_data.h"
#include "readperf/symbols/symbol_config.h"

namespace readperf {

class Resolver;

// sort.c default_parent_pattern: the parent key's pattern without -p.
inline constexpr std::string_view kDefaultParentPattern = "^sys_|^do_page_fault";

struct ReportSetup {
  HistConfig hist;  // every event's histogram
  // --show-ref-call-graph: an event without call chains has its entries' call graphs (those
  // perf's stale callchain cursor gave them) sorted and printed too.
  bool show_ref_callgraph = false;
  // --time and -C/--cpu drop samples before they count; entries outside --comms, --pid,
  // --tid, --dsos and --symbols (symbol_conf.comm_list, dso_list, sym_list) are kept (they
  // count in the totals) but not shown.
  SampleSelection selection;
  // --symbol-filter: entries whose symbol does not contain it are hidden (first event only,
  // as builtin-report.c report__collapse_hists() sets it).
  std::string symbol_filter;
  SymbolConfig symbols;
  // report's max_stack (PERF_MAX_STACK_DEPTH): call-chain entries beyond it are dropped,
  // counted from the end the chain is walked from.
  uint32_t max_stack = 127;
  // callchain_param.branch_callstack (`--branch-history`, `-g branch`): samples with branch
  // stacks have their branches before their call chains (ResolverOptions::branch_callstack);
  // max_stack then bounds the branches and the chain entries each, as perf's does.
  bool branch_callstack = false;
  // --stitch-lbr, with the PMU's LBR depth (ResolverOptions::stitch_lbr, max_lbr).
  bool stitch_lbr = false;
  uint32_t max_lbr = 0;
  // --ignore-callees REGEX (POSIX extended, as sort.c compiles it): a call-chain frame whose
  // symbol matches becomes the sample's location and its callees are forgotten. Empty: none.
  std::string ignore_callees;
  // The parent key's pattern (-p, sort.c default_parent_pattern), and -x/--exclude-other:
  // samples without a parent are filtered.
  std::string parent_pattern{kDefaultParentPattern};
  bool exclude_other = false;
  // -U/--hide-unresolved (symbol_conf.hide_unresolved): samples without a symbol are dropped,
  // and call-chain frames without one.
  bool hide_unresolved = false;
  // --switch-on/--switch-off (initialized; not owned, may be null): samples it discards are
  // dropped after the --time filter, before --cpu (builtin-report.c process_sample_event()).
  EvSwitch* evswitch = nullptr;
  // --disable-order: the records in file order (report.tool.ordered_events off).
  bool disable_order = false;
  // --total-cycles in branch mode: each event's block report (ReportData::block_reports).
  bool total_cycles = false;
  // symbol_conf.event_group (report's --group, on by default): a group's members are shown
  // as columns of its leader's entries.
  bool event_group = true;
  // --group or --no-group given: a recording without groups is made one group of all its
  // events (builtin-report.c setup_forced_leader()).
  bool group_set = false;
  // Sees every record before the report does (exporters that need more than the histograms:
  // record counts, processes, a record-by-record listing); not owned, may be null.
  EventSink* tap = nullptr;
  // The `trace` key's text of a tracepoint sample (sort.c get_trace_output()): given by the
  // caller, which owns the formatter (libtraceevent) and keeps the text alive and interned
  // (equal texts, one pointer) as long as the report; kernel addresses in the text resolve
  // through the session's Resolver. Unset, tracepoint samples share "".
  std::function<std::string_view(const Evsel&, const Sample&, Resolver&, const Thread&)> trace_text;
};

// One event group as perf knows it after reading the recording (HEADER_GROUP_DESC, also from
// a pipe's HEADER_FEATURE record, or forced by --group).
struct EventGroup {
  size_t leader = 0;        // the event index; the members are the next nr_members - 1
  uint32_t nr_members = 0;  // with the leader
  std::string name;         // "anon group" unless named
  bool forced = false;      // evsel->forced_leader: described without "NAME { }"
};

// header.c process_group_desc(), then setup_forced_leader(): groups from the recording's
// GROUP_DESC (a pipe's arrives as a record), or all events as one under --group/--no-group
// (`group_set`) when there are none.
std::vector<EventGroup> report_event_groups(const PerfData& pd, bool group_set);

struct ReportData {
  std::vector<std::unique_ptr<Hists>> hists;  // by event index; null for events never sampled
  uint64_t total_lost_samples = 0;            // evlist->stats.total_lost_samples
  // Branch mode: the types of the branches added (builtin-report.c
  // hist_iter__branch_callback(), every event's), for the statistics after the report.
  BranchTypeStat branch_types;
  // Branch mode with the IPC column (ipc_lbr) or --total-cycles: the branches' cycles by
  // symbol.
  std::unique_ptr<BranchCycles> branch_cycles;
  // --total-cycles: by event index (every event's, as block_info__create_report() makes them).
  std::vector<BlockReport> block_reports;
  // Every group the recording has (also under --no-group: perf's "of events" counts its
  // members); under event_group the leaders' hists are linked to their members'.
  std::vector<EventGroup> groups;
  // The Machine and symbol tables the entries point into (threads, DSOs, symbols).
  std::shared_ptr<void> owner;
  // The resolver that found them, for `-v`'s account of where symbols came from; lives as
  // long as `owner`.
  const Resolver* resolver = nullptr;
};

Result<ReportData> run_report_session(PerfData& data, const ReportSetup& setup);

}  // namespace readperf
