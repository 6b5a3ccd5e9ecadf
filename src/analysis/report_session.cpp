// `perf report`'s session (builtin-report.c __cmd_report()): the records fed to the
// ReportSink in perf's order, the Machine's changes tracked for the repeat caches, the
// histograms finished and their event groups linked once every sample is in.
#include "readperf/analysis/report_session.h"

#include "readperf/symbols/demangle.h"
#include "report_sink.h"

namespace readperf {

namespace {

// The Resolver's own bound on a chain; report applies its max_stack itself, from the end its
// callchain order walks from.
constexpr uint32_t kResolverMaxStack = 1024;

}  // namespace

SessionState::SessionState(const SymbolConfig& config, bool callchain, const ReportSetup& setup)
    : symbols(config),
      resolver(
          machine, symbols,
          ResolverOptions{.callchain = callchain,
                          .max_stack = setup.branch_callstack ? setup.max_stack : kResolverMaxStack,
                          .caller_order = setup.hist.caller_order,
                          .branch_callstack = setup.branch_callstack,
                          .chain_from_branches = setup.hist.show_branchflag_count,
                          .stitch_lbr = setup.stitch_lbr,
                          .max_lbr = setup.max_lbr}) {}

ReportSink::ReportSink(PerfData& pd, const ReportSetup& setup)
    : pd_(pd),
      setup_(setup),
      state_(std::make_shared<SessionState>(
          setup.symbols,
          setup.hist.use_callchain || setup.hist.children || setup.hist.sort.has(SortKey::kParent),
          setup)),
      machine_(state_->machine),
      resolver_(state_->resolver),
      builder_(state_->machine, pd.order()) {
  builder_.begin(pd.features());
  // builtin-report.c: report.symbol_ipc, set where ipc_lbr joins the sort order.
  // ... and total_cycles_mode: both have hist__account_cycles() called.
  if (setup.hist.branch_mode && (setup.hist.sort.has(SortKey::kIpcLbr) || setup.total_cycles)) {
    data_.branch_cycles = std::make_unique<BranchCycles>();
  }
  resolver_.set_dwarf_unwind(unwinds_user_stacks(pd.features().arch),
                             pd.features().arch.has_value());
}

ReportData ReportSink::take() {
  for (size_t i = 0; i < repeats_.size(); ++i) {
    if (data_.hists[i]) repeats_[i].raw.drain(replay_into(*data_.hists[i]));
  }
  data_.groups = report_event_groups(pd_, setup_.group_set);
  data_.hists.resize(pd_.events().size());
  // report__collapse_hists(): each member collapsed, then matched and linked to its leader,
  // which is finished after.
  std::vector<bool> leader(data_.hists.size(), false);
  if (setup_.event_group) {
    for (const EventGroup& g : data_.groups) {
      if (g.nr_members > 1 && data_.hists[g.leader]) leader[g.leader] = true;
    }
  }
  for (size_t i = 0; i < data_.hists.size(); ++i) {
    if (data_.hists[i] && !leader[i]) data_.hists[i]->finish();
  }
  for (const EventGroup& g : data_.groups) {
    if (!leader[g.leader]) continue;
    std::vector<const Hists*> members;
    for (size_t i = g.leader + 1; i < g.leader + g.nr_members; ++i) {
      members.push_back(data_.hists[i].get());
    }
    data_.hists[g.leader]->link_group(std::move(members));
    data_.hists[g.leader]->finish();
  }
  if (data_.branch_cycles && setup_.hist.sort.has(SortKey::kIpcLbr)) {
    // builtin-report.c hists__resort_cb(): the symbols' annotation, once the samples are in.
    data_.branch_cycles->compute(resolver_);
    for (auto& h : data_.hists) {
      if (h) h->set_branch_cycles(data_.branch_cycles.get());
    }
  }
  if (setup_.total_cycles && data_.branch_cycles) {
    for (const auto& h : data_.hists) {
      BlockReport none;  // an event never sampled: no block, the common total
      none.total_cycles = total_cycles_;
      data_.block_reports.push_back(
          h ? make_block_report(*h, *data_.branch_cycles, total_cycles_, resolver_) : none);
    }
  }
  data_.owner = state_;
  data_.resolver = &state_->resolver;
  return std::move(data_);
}

void ReportSink::on_read(const RecordView& r) {
  if (setup_.tap) setup_.tap->on_read(r);
}

void ReportSink::on_skipped(const RecordView& r, const Error& why) {
  if (setup_.tap) setup_.tap->on_skipped(r, why);
}

void ReportSink::on_user_record(const RecordView& r) {
  if (setup_.tap) setup_.tap->on_user_record(r);
  builder_.on_user_record(r);
}

void ReportSink::on_kernel_record(const RecordView& r, const Sample& s, const Evsel* evsel) {
  if (setup_.tap) setup_.tap->on_kernel_record(r, s, evsel);
  if (!os_release_seen_ && pd_.features().os_release) {
    // In pipe mode the release arrives as a HEADER_FEATURE record, before any sample.
    os_release_seen_ = true;
    state_->symbols.set_recorded_os_release(*pd_.features().os_release);
  }
  if (!version_seen_ && pd_.features().version) {
    version_seen_ = true;
    state_->symbols.set_demangle_params(
        perf_version_demangles_with_params(*pd_.features().version) || setup_.hist.verbose);
  }
  switch (r.type) {
    case kRecordSample:
      if (evsel) on_sample(s, *evsel);
      return;
    case kRecordLostSamples: {
      // session.c: evlist->stats.total_lost_samples += lost_samples.lost.
      ByteCursor c = r.body(pd_.order());
      data_.total_lost_samples += c.u64();
      return;
    }
    default:
      break;
  }
  epochs_.note(r, pd_.order());
  if (builder_.apply(r, s).removed_parent) epochs_.change_all();
}

Hists& ReportSink::hists_for(const Evsel& evsel) {
  if (data_.hists.size() <= evsel.index) {
    data_.hists.resize(evsel.index + 1);
    repeats_.resize(evsel.index + 1);
  }
  auto& h = data_.hists[evsel.index];
  if (!h) {
    HistConfig config = setup_.hist;
    config.event = static_cast<uint32_t>(evsel.index);
    if (evsel.index == 0) config.symbol_filter = setup_.symbol_filter;
    const SampleSelection& sel = setup_.selection;
    if (sel.selects_threads()) config.filter_lists |= kHistFilterThread;
    if (sel.selects_dsos()) config.filter_lists |= kHistFilterDso;
    if (sel.selects_symbols()) config.filter_lists |= kHistFilterSymbol;
    config.chain_srclines = &state_->chain_srclines;
    config.cgroups = &state_->machine.cgroups();
    if (config.verbose) {
      config.symtab_origin = [r = &state_->resolver](const Dso* d) { return r->symtab_origin(d); };
      config.verbose_rip = [r = &state_->resolver](const Dso* d, uint64_t ip) {
        return r->kernel_unmap_ip(d, ip);
      };
    }
    // hist.c evsel__output_resort_cb(): "use_callchain |= show_branchflag_count".
    config.chains_sorted = (evsel.attr.sample_type & kSampleCallchain) ||
                           setup_.show_ref_callgraph || setup_.hist.show_branchflag_count;
    h = std::make_unique<Hists>(config);
  }
  return *h;
}

std::vector<EventGroup> report_event_groups(const PerfData& pd, bool group_set) {
  std::vector<EventGroup> groups;
  size_t nr_events = pd.events().size();
  const auto& desc = pd.features().group_desc;
  if (desc && !desc->empty()) {
    for (const GroupDesc& d : *desc) {
      // A description perf finds invalid (overlapping or past the last event) leaves the
      // events ungrouped.
      if (d.leader_idx >= nr_events || d.nr_members > nr_events - d.leader_idx ||
          (!groups.empty() && d.leader_idx < groups.back().leader + groups.back().nr_members)) {
        return {};
      }
      groups.push_back(
          {d.leader_idx, d.nr_members, d.name == "{anon_group}" ? "anon group" : d.name, false});
    }
    return groups;
  }
  if (group_set && nr_events) {
    groups.push_back({0, static_cast<uint32_t>(nr_events), "anon group", true});
  }
  return groups;
}

Result<ReportData> run_report_session(PerfData& data, const ReportSetup& setup) {
  // session.c __perf_session__new(): without sample_id_all perf cannot order by time.
  PerfData::ProcessOptions po;
  po.ordered = (data.kind() == ContainerKind::kPipe || data.events().sample_id_all()) &&
               !setup.disable_order;
  ReportSink sink(data, setup);
  Status st = data.process(sink, po);
  if (!st) return tl::unexpected(st.error());
  return sink.take();
}

}  // namespace readperf
