// `readperf report [--stdio]`: the option handling of perf's cmd_report() and
// report__setup_sample_type() that decides children mode, call chains and sort keys, then the
// session and the printer.
#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <utility>

#include "readperf/analysis/posix_regex.h"
#include "readperf/analysis/report_session.h"
#include "readperf/analysis/symbol_prefetch.h"
#include "readperf/format/perf_abi.h"
#include "readperf/output/header_printer.h"
#include "readperf/output/read_values.h"
#include "readperf/output/report_printer.h"
#include "readperf/output/symbol_sources.h"
#include "readperf/output/trace_text.h"
#include "readperf/reader/event_name.h"
#include "readperf/symbols/demangle.h"
#include "report_args.h"
#include "report_command.h"
#include "selection_args.h"
#include "symbol_source_args.h"

namespace readperf::cli {

namespace {

constexpr uint32_t kPerfTypeTracepoint = 2;

}  // namespace

int run_histogram_report(PerfData& pd, const ReportOptions& opts, OutBuffer& out) {
  auto fail = [&](const std::string& msg) {
    out.flush();
    fmt::print(stderr, "readperf: {}\n", msg);
    return 1;
  };
  // What perf refuses inside __cmd_report(), whose error cmd_report() replaces with 0.
  auto perf_refused = [&](const std::string& msg) {
    out.flush();
    fmt::print(stderr, "readperf: {}\n", msg);
    return 0;
  };
  bool is_pipe = pd.kind() == ContainerKind::kPipe;

  // cmd_report(): option parsing.
  ReportPrintOptions po;
  ChainParams cp;
  bool cumulate = opts.children.value_or(true);  // symbol_conf.cumulate_callchain
  if (opts.call_graph) {
    std::string arg =
        opts.call_graph->empty() ? "graph,0.5,caller,function,percent" : *opts.call_graph;
    if (Status st = parse_call_graph(arg, cp, po); !st) return fail(st.error().message());
  }
  if (opts.no_call_graph) {
    cp.enabled = true;
    cp.none = true;
    cp.use_callchain = false;
  }
  if (opts.percent_limit) {
    po.percent_limit = *opts.percent_limit;
    po.chain_min_percent = *opts.percent_limit;
  }
  if (opts.inverted) cp.caller = true;
  if (cumulate && !cp.order_set) cp.caller = true;

  // cmd_report(): branch mode is a tristate, the recording's branch stacks deciding by
  // default; it has no children.
  bool has_br_stack = pd.header().features[kFeatBranchStack] &&
                      !(pd.events().combined_sample_type() & kSampleStackUser);
  // ... and branch stacks synthesized from an instruction trace (--itrace=l or L): without
  // AUX area data to make them, every sample lacks one and branch mode shows none.
  if (opts.itrace.synthesizes_branch_stacks()) has_br_stack = true;
  // --branch-history (branch_call_mode) keeps one entry per sample, its branches added to its
  // call chain, keyed by address, sorted by "srcline,symbol,dso" unless --sort says otherwise.
  bool branch_mode = opts.branch_stack.value_or(has_br_stack) && !opts.branch_history;
  if (branch_mode) cumulate = false;
  // "if (has_br_stack && branch_call_mode) symbol_conf.show_branchflag_count = true".
  const bool show_branchflag_count = has_br_stack && opts.branch_history;
  if (opts.branch_history) {
    cp.key = ChainKey::kAddress;
    cp.branch_callstack = true;
    cp.use_callchain = true;
  }
  // cmd_report(): memory mode has no children, and no branch mode.
  if (opts.mem_mode) {
    if (branch_mode) return perf_refused("branch and mem mode incompatible");
    cumulate = false;
  }
  // cmd_report(): --hierarchy has no children (the call-chain order chosen for them stays).
  if (opts.hierarchy) {
    if (!opts.fields.empty()) {
      return perf_refused("Error: --hierarchy and --fields options cannot be used together");
    }
    cumulate = false;
  }

  // report__setup_sample_type(): a pipe has no events yet at this point.
  // Its refusals come from __cmd_report(), after cmd_report() printed the header lines.
  uint64_t sample_type = is_pipe ? 0 : pd.events().combined_sample_type();
  // Call chains and branch stacks an instruction trace's decoder adds (--itrace g/G, l/L; by
  // default on a recording with AUX area data, whose report perf 6.1 decodes with call chains).
  const ItraceOptions& itrace = opts.itrace;
  if (itrace.synthesizes_callchains() ||
      (!is_pipe && pd.header().features[kFeatAuxtrace] && !itrace.set)) {
    sample_type |= kSampleCallchain;
  }
  if (itrace.synthesizes_branch_stacks()) sample_type |= kSampleBranchStack;
  std::string_view sample_type_refusal;
  if (!is_pipe && !(sample_type & kSampleCallchain)) {
    if (cp.use_callchain && !show_branchflag_count) {
      sample_type_refusal =
          "Selected -g or --branch-history.\nBut no callchain or branch data.\n"
          "Did you call 'perf record' without -g or -b?";
    }
  } else if (!cp.enabled && !cp.none && !cp.use_callchain) {
    cp.use_callchain = true;
  }
  if (cumulate && !(sample_type & kSampleCallchain)) cumulate = false;
  if (branch_mode && !is_pipe && !(sample_type & kSampleBranchStack) &&
      sample_type_refusal.empty()) {
    sample_type_refusal = "Selected -b but no branch data. Did you call perf record without -b?";
  }

  // sort.c setup_sorting(): the default order (get_default_sort_order(): "trace" when every
  // event is a tracepoint; a pipe has no events yet at this point), a '+' order appended to
  // it.
  std::string sort_order = opts.sort;
  // cmd_report(): --total-cycles stays only in branch mode, where the sort order becomes the
  // default one (the block view has its own order).
  const bool total_cycles = opts.total_cycles && branch_mode;
  if (total_cycles) sort_order.clear();
  if (opts.branch_history && sort_order.empty()) sort_order = "srcline,symbol,dso";
  bool all_tracepoints = !is_pipe && !pd.events().empty();
  for (size_t i = 0; all_tracepoints && i < pd.events().size(); ++i) {
    if (pd.events()[i].attr.type != kPerfTypeTracepoint) all_tracepoints = false;
  }
  std::string_view default_order = all_tracepoints ? kDefaultTracepointSortOrder
                                   : branch_mode   ? kDefaultBranchSortOrder
                                   : opts.mem_mode ? kDefaultMemSortOrder
                                                   : kDefaultSortOrder;
  // get_default_sort_order(): with --raw-trace, a column per field of each tracepoint.
  if (all_tracepoints && opts.raw_trace) default_order = "trace_fields";
  // builtin-report.c: a --sort naming "symbol" gets the ipc_null column (ipc_lbr in branch
  // mode); it looks at the option as given, before sort.c expands a '+' order.
  std::string ipc;
  if (!sort_order.empty() && sort_order.find("symbol") != std::string::npos) {
    ipc = branch_mode ? ",ipc_lbr" : ",ipc_null";
  }
  if (!sort_order.empty() && sort_order[0] == '+') {
    sort_order = std::string(default_order) + "," + sort_order.substr(1);
  }
  sort_order += ipc;
  SortingOptions sorting;
  sorting.sort_order = sort_order;
  sorting.default_order = default_order;
  sorting.field_order = opts.fields;
  sorting.cumulate = cumulate;
  sorting.show_nr_samples = opts.show_nr_samples;
  sorting.show_total_period = opts.show_total_period;
  sorting.show_cpu_utilization = opts.show_cpu_utilization;
  sorting.branch_mode = branch_mode;
  sorting.mem_mode = opts.mem_mode;
  sorting.parent_key = opts.parent.has_value();
  // sort.c add_dynamic_entry(): a key that is no static one may name tracepoint fields. The
  // formats are parsed for the first such key only (they live as long as the report, whose
  // columns print through them).
  std::unique_ptr<TraceFormatter> formats;
  bool formats_tried = false;
  sorting.dynamic_fields = [&](std::string_view tok) {
    if (!formats_tried && !is_pipe && pd.tracing_data()) {
      if (auto f = TraceFormatter::create(*pd.tracing_data())) formats = std::move(*f);
    }
    formats_tried = true;
    return dynamic_fields(pd, formats.get(), tok, opts.raw_trace);
  };
  Result<SortSpec> spec = setup_sorting(sorting);
  if (!spec) return fail(spec.error().message());
  if (spec->has(SortKey::kParent) && !is_pipe && !(sample_type & kSampleCallchain)) {
    // report__setup_sample_type() asks this first.
    sample_type_refusal =
        "Selected --sort parent, but no callchain data. Did you call 'perf record' without -g?";
  }
  if (spec->has(SortKey::kParent)) {
    // sort.c sort_dimension__add(): a bad parent pattern fails setup_sorting(), and
    // cmd_report() then ends with nothing printed and status 0.
    std::string pattern = opts.parent.value_or(std::string(kDefaultParentPattern));
    if (std::string why = PosixRegex::compile_error(pattern); !why.empty()) {
      fmt::print(stderr, "Invalid regex: {}\n{}", pattern, why);
      return 0;
    }
  }

  ReportSetup setup;
  setup.hist.sort = *spec;
  setup.hist.children = cumulate;
  setup.hist.use_callchain = cp.use_callchain;
  setup.hist.caller_order = cp.caller;
  setup.hist.chain_key = cp.key;
  setup.hist.show_branchflag_count = show_branchflag_count;
  setup.show_ref_callgraph = opts.show_ref_callgraph;
  setup.hist.verbose = opts.verbose > 0;
  setup.hist.show_nr_samples = opts.show_nr_samples;
  setup.hist.filter_relative = opts.percentage_relative;
  setup.hist.branch_mode = branch_mode;
  setup.hist.mem_mode = opts.mem_mode;
  setup.hist.hierarchy = opts.hierarchy;
  setup.event_group = opts.group.value_or(true);
  setup.group_set = opts.group.has_value();
  // The recording perf's major version ("7.2.13"): reports of perf 7 files follow perf 7.
  if (const auto& v = pd.features().version; v && std::atoi(v->c_str()) >= 7) {
    setup.hist.callchain_entries_user_level = true;
  }
  SampleSelectionOptions selection;
  selection.comms = split_list(opts.comms);
  selection.dsos = split_list(opts.dsos);
  selection.symbols = split_list(opts.symbols);
  for (auto [text, list] :
       {std::pair{&opts.pids, &selection.pids}, std::pair{&opts.tids, &selection.tids}}) {
    Result<std::vector<int32_t>> ids = parse_id_list(*text);
    if (!ids) return fail(ids.error().message());
    *list = std::move(*ids);
  }
  setup.symbol_filter = opts.symbol_filter;
  // machine.c thread__resolve_callchain_sample(): min(max_stack, chain->nr), so a negative
  // depth keeps no entry.
  int max_stack = opts.max_stack;
  // cmd_report(): synthesized call chains may be deeper than --max-stack.
  if (itrace.synthesizes_callchains() && static_cast<int>(itrace.callchain_sz) > max_stack) {
    max_stack = static_cast<int>(itrace.callchain_sz);
  }
  setup.max_stack = static_cast<uint32_t>(std::max(max_stack, 0));
  setup.branch_callstack = cp.branch_callstack;
  // report__setup_sample_type(): callchain_param_setup()'s record mode (DWARF with user
  // registers and stack, LBR with branch stacks, else FP, when call chains are used) must be
  // LBR for --stitch-lbr.
  if (opts.stitch_lbr) {
    bool lbr_mode = (cp.use_callchain || cumulate) &&
                    (sample_type & (kSampleRegsUser | kSampleStackUser)) !=
                        (kSampleRegsUser | kSampleStackUser) &&
                    (sample_type & kSampleBranchStack);
    if (lbr_mode) {
      setup.stitch_lbr = true;
      setup.max_lbr = pmu_max_branches(pd.features());
    } else {
      fmt::print(stderr,
                 "Can't find LBR callchain. Switch off --stitch-lbr.\n"
                 "Please apply --call-graph lbr when recording.\n");
    }
  }
  setup.ignore_callees = opts.ignore_callees;
  setup.hist.socket_filter = opts.socket_filter;
  if (opts.parent) setup.parent_pattern = *opts.parent;
  setup.exclude_other = opts.exclude_other;
  setup.hide_unresolved = opts.hide_unresolved;
  setup.hist.nanosecs = opts.nanosecs;
  if (!opts.time_quantum.empty()) {
    // builtin-report.c parse_time_quantum(): a number, then nothing (ns), s, ms, us or ns.
    const char* arg = opts.time_quantum.c_str();
    char* end = nullptr;
    uint64_t q = std::strtoul(arg, &end, 0);
    while (*end == ' ') ++end;
    std::string_view unit = end;
    uint64_t scale = unit.empty() || unit == "ns" ? 1
                     : unit == "s"                ? 1000000000
                     : unit == "ms"               ? 1000000
                     : unit == "us"               ? 1000
                                                  : 0;
    if (end == arg || !scale) return fail(fmt::format("Cannot parse time quantum `{}'", arg));
    if (!q) return fail("time quantum cannot be 0");
    setup.hist.time_quantum = q * scale;
  }
  po.time_slices = opts.time;
  setup.symbols = symbol_config(opts);
  setup.symbols.inline_names = opts.inline_names;
  setup.symbols.full_source_path = opts.full_source_path;
  setup.symbols.recorded_os_release = pd.features().os_release.value_or("");
  // A pipe's version comes later, as a record (report_session.cpp). Under -v perf 6.1
  // demangles with parameters too (symbol-elf.c demangle_sym(): DMGL_PARAMS | DMGL_ANSI when
  // verbose > 0).
  setup.symbols.demangle_params =
      perf_version_demangles_with_params(pd.features().version.value_or("")) || opts.verbose > 0;
  TraceTexts trace_texts(pd, opts.raw_trace);
  if (spec->has(SortKey::kTrace) || !spec->dynamic.empty()) {
    setup.trace_text = [&](const Evsel& e, const Sample& s, Resolver& r, const Thread& t) {
      return trace_texts.text(e, s, r, t);
    };
  }
  prefetch_symbols(pd, setup.symbols);
  po.dso_filter = !selection.dsos.empty();
  po.quiet = opts.quiet;
  po.skip_empty = opts.skip_empty;
  po.show_ref_callgraph = opts.show_ref_callgraph;
  po.field_sep = opts.field_sep;
  po.event_group = setup.event_group;
  if (opts.column_widths) {
    // ui/hist.c perf_hpp__set_user_width(): strtol() each width, on while a ',' follows.
    const char* ptr = opts.column_widths->c_str();
    while (true) {
      char* end = nullptr;
      long width = std::strtol(ptr, &end, 10);
      // perf prints a negative width's columns unaligned, its sort columns as printf's
      // negative widths; readperf does not follow it there.
      if (width < 0 || width > 4096) {
        return fail(fmt::format("-w/--column-widths: width {} is not supported", width));
      }
      po.column_widths.push_back(static_cast<int>(width));
      if (*end != ',') break;
      ptr = end + 1;
    }
  }

  // cmd_report(): --group-sort-idx needs groups (the recording's, or --group's one of all
  // events), else the option's usage, before any output.
  if (opts.group_sort_idx != 0) {
    // evlist->core.nr_groups: a forced group of one event is none.
    std::vector<EventGroup> groups = report_event_groups(pd, opts.group.has_value());
    if (std::none_of(groups.begin(), groups.end(),
                     [](const EventGroup& g) { return g.nr_members > 1; })) {
      out.flush();
      fmt::print(stderr,
                 "    --group-sort-idx <n>\n{:26}Sort the output by the event at the index n in "
                 "group. If n is invalid, sort by the first event. WARNING: should be used on "
                 "grouped events.\n",
                 "");
      return 234;  // -EINVAL
    }
    setup.hist.group_sort_idx = opts.group_sort_idx;
  }
  // cmd_report(): evswitch__init() right after the session is opened, before any output.
  EvSwitch evswitch;
  if (!opts.switch_on.empty() || !opts.switch_off.empty()) {
    EventNames names;
    if (Status st = evswitch.init(pd.events(), names, opts.switch_on, opts.switch_off,
                                  opts.show_on_off_events);
        !st) {
      out.flush();
      fmt::print(stderr,
                 "readperf: {}\nHINT:  use 'perf evlist' to see the available event names\n",
                 st.error().message());
      return 1;
    }
    setup.evswitch = &evswitch;
  }
  if (opts.header && !opts.quiet) {
    if (Status st = run_header(pd, opts.show_info, out); !st) return fail(st.error().message());
  } else if (!opts.quiet) {
    out.write(
        "# To display the perf.data header info, please use --header/--header-only "
        "options.\n#\n");
  }
  // cmd_report(): symbol.c symbol__init() fails on this separator after the header lines;
  // the status is 0.
  if (opts.field_sep.substr(0, 1) == ".") {
    return perf_refused("'.' is the only non valid --field-separator argument");
  }
  // cmd_report(): --time is parsed after the header lines, then sort__setup_elide().
  selection.time = opts.time;
  selection.cpu_list = opts.cpu_list;
  Result<SampleSelection> selected = SampleSelection::parse(selection, pd);
  if (!selected) return fail(selected.error().message());
  setup.selection = std::move(*selected);
  elide_filtered_columns(setup.selection, setup.hist.sort, out);

  if (!sample_type_refusal.empty()) return perf_refused(std::string(sample_type_refusal));

  std::optional<ReadValues> thread_values;
  if (opts.show_threads) setup.tap = &thread_values.emplace(pd.order());
  setup.disable_order = opts.disable_order;
  setup.total_cycles = total_cycles;
  Result<ReportData> data = run_report_session(pd, setup);
  if (!data) return perf_refused(data.error().message());
  if (opts.verbose > 0 && data->resolver) print_symbol_sources(*data->resolver, stderr);

  // builtin-report.c __cmd_report(): the entries after collapsing; --hierarchy's are its
  // nodes (none when no key applies to any event).
  size_t nr_entries = 0;
  for (const auto& h : data->hists) {
    if (h) nr_entries += setup.hist.hierarchy ? h->hierarchy().size() : h->entries().size();
  }
  if (!nr_entries) {
    out.flush();
    fmt::print(stderr, "The {} data has no samples!\n", opts.input);
    return 0;
  }
  std::vector<ReportSection> sections;
  // --no-skip-empty: an event never sampled gets its section, from an empty histogram.
  std::vector<std::unique_ptr<Hists>> empty;
  for (size_t i = 0; i < pd.events().size(); ++i) {
    const Hists* h = i < data->hists.size() ? data->hists[i].get() : nullptr;
    if (!h && !opts.skip_empty) {
      HistConfig config = setup.hist;
      config.event = static_cast<uint32_t>(i);
      h = empty.emplace_back(std::make_unique<Hists>(config)).get();
      empty.back()->finish();
    }
    sections.push_back({event_name(pd.events()[i]), h});
  }
  for (const EventGroup& g : data->groups) {
    ReportSection& leader = sections[g.leader];
    leader.nr_members = g.nr_members;
    if (!setup.event_group || g.nr_members < 2) continue;
    // evsel__group_desc(); evlist__tty_browse_hists() shows the leader only.
    std::string desc = g.forced ? "" : g.name + " { ";
    desc += leader.event_name;
    for (size_t i = g.leader + 1; i < g.leader + g.nr_members; ++i) {
      desc += ", " + sections[i].event_name;
      sections[i].hists = nullptr;
    }
    if (!g.forced) desc += " }";
    leader.event_name = std::move(desc);
  }
  if (total_cycles) po.block_reports = &data->block_reports;
  print_report(sections, data->total_lost_samples, po, out);
  // perf's closing block (builtin-report.c:578, "#\n# (%s)\n#\n") without its tip line: that line
  // is a random pick from perf's tips.txt, which no reader of the output relies on, and every
  // comparison with perf (the goldens, ../shared/bench) leaves it out.
  if (!opts.quiet) out.print("#\n#\n");
  if (thread_values) thread_values->print(out, opts.pretty == "raw");
  if (setup.hist.branch_mode) {
    std::string stats;
    data->branch_types.append_display(stats);
    out.write(stats);
  }
  out.flush();
  return 0;
}

}  // namespace readperf::cli
