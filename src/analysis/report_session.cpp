#include "readperf/analysis/report_session.h"

#include <algorithm>
#include <cstring>
#include <unordered_map>

#include "readperf/analysis/counter_deltas.h"
#include "readperf/analysis/posix_regex.h"
#include "readperf/analysis/repeat_cache.h"
#include "readperf/analysis/resolver.h"
#include "readperf/format/perf_abi.h"
#include "readperf/session/machine.h"
#include "readperf/session/session_builder.h"
#include "readperf/symbols/demangle.h"
#include "readperf/symbols/symbol_cache.h"

namespace readperf {

namespace {

// The Resolver's own bound on a chain; report applies its max_stack itself, from the end its
// callchain order walks from.
constexpr uint32_t kResolverMaxStack = 1024;

// The values the sample-value sort keys group by. x86's perf never sets p_stage_cyc (only
// powerpc's arch event code does): 0 whatever the file holds, as perf 6.1 on x86.
SampleValues sample_values(const Sample& s) {
  return {.weight = s.weight, .code_page_size = s.code_page_size, .ins_lat = s.ins_lat};
}

void push_values_key(std::vector<uint64_t>& key, const SampleValues& v) {
  key.push_back(v.weight);
  key.push_back(v.code_page_size);
  key.push_back(uint64_t{v.ins_lat} << 16 | v.p_stage_cyc);
}

// Where a repeat cache's deferred samples go (RepeatCache::drain()).
auto replay_into(Hists& hists) {
  return [&hists](std::span<const uint32_t> plan, uint64_t period, uint64_t count) {
    hists.replay(plan, period, count);
  };
}

// What the histogram entries point into, kept alive with them.
struct SessionState {
  SessionState(const SymbolConfig& config, bool callchain, const ReportSetup& setup)
      : symbols(config),
        resolver(machine, symbols,
                 ResolverOptions{
                     .callchain = callchain,
                     .max_stack = setup.branch_callstack ? setup.max_stack : kResolverMaxStack,
                     .caller_order = setup.hist.caller_order,
                     .branch_callstack = setup.branch_callstack,
                     .chain_from_branches = setup.hist.show_branchflag_count,
                     .stitch_lbr = setup.stitch_lbr,
                     .max_lbr = setup.max_lbr}) {}
  Machine machine;
  SymbolCache symbols;
  Resolver resolver;  // owns the symbols it makes for KSYMBOL maps
  // ChainFrame::srcline's texts (`-g address|srcline`), read when the report prints.
  std::vector<std::string_view> chain_srclines{std::string_view()};
};

class ReportSink : public EventSink {
 public:
  ReportSink(PerfData& pd, const ReportSetup& setup)
      : pd_(pd),
        setup_(setup),
        state_(std::make_shared<SessionState>(setup.symbols,
                                              setup.hist.use_callchain || setup.hist.children ||
                                                  setup.hist.sort.has(SortKey::kParent),
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

  ReportData take() {
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

  void on_read(const RecordView& r) override {
    if (setup_.tap) setup_.tap->on_read(r);
  }
  void on_skipped(const RecordView& r, const Error& why) override {
    if (setup_.tap) setup_.tap->on_skipped(r, why);
  }
  void on_user_record(const RecordView& r) override {
    if (setup_.tap) setup_.tap->on_user_record(r);
    builder_.on_user_record(r);
  }

  void on_kernel_record(const RecordView& r, const Sample& s, const Evsel* evsel) override {
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
    note_change(r);
    if (builder_.apply(r, s).removed_parent) ++global_epoch_;
  }

 private:
  Hists& hists_for(const Evsel& evsel) {
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
        config.symtab_origin = [r = &state_->resolver](const Dso* d) {
          return r->symtab_origin(d);
        };
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

  // Which repeat keys a record that changes the Machine makes stale: its process's, or every
  // one for the kernel's maps.
  void note_change(const RecordView& r) {
    ByteOrder order = pd_.order();
    switch (r.type) {
      case kRecordMmap:
      case kRecordMmap2: {
        uint8_t cpumode = r.misc & kMiscCpumodeMask;
        if (cpumode == kMiscKernel || cpumode == kMiscGuestKernel) {
          ++global_epoch_;
          return;
        }
        MmapEvent e;
        if (parse_mmap(r, order, e)) changed(e.pid);
        return;
      }
      case kRecordComm: {
        CommEvent e;
        if (parse_comm(r, order, e)) changed(e.pid);
        return;
      }
      case kRecordFork:
      case kRecordExit: {
        TaskEvent e;
        if (!parse_task(r, order, e)) return;
        changed(e.pid);
        changed(e.ppid);
        return;
      }
      case kRecordKsymbol:
        ++global_epoch_;
        return;
      case kRecordNamespaces: {
        ByteCursor c = r.body(order);
        changed(c.s32());
        return;
      }
      default:
        return;
    }
  }

  // The Machine changed for process `pid` (its maps, threads or comms): its samples seen
  // before may now resolve differently. Repeat keys carry the epochs, so old plans are
  // simply never found again.
  void changed(int32_t pid) {
    ++pid_epochs_[pid];
    last_epoch_pid_ = kNoPid;
  }

  uint64_t epoch(int32_t pid) {
    if (pid != last_epoch_pid_) {
      auto it = pid_epochs_.find(pid);
      last_epoch_ = it == pid_epochs_.end() ? 0 : it->second;
      last_epoch_pid_ = pid;
    }
    return (global_epoch_ << 32) | last_epoch_;
  }

  void on_sample(const Sample& s, const Evsel& evsel) {
    if (!(evsel.attr.sample_type & kSampleRead)) {
      add_sample(s, evsel, s.period);
      return;
    }
    // session.c evlist__deliver_sample(): one delivery per counter that moved.
    counter_deltas_.split(s, evsel, pd_.events(), [&](const Evsel& ev, uint64_t, uint64_t period) {
      add_sample(s, ev, period);
    });
  }

  // The order perf's dso pointers compare in: creation order in the machine's table.
  int32_t dso_order(const Dso* d) {
    if (!d) return -1;
    auto it = dso_order_.find(d);
    if (it != dso_order_.end()) return it->second;
    const auto& all = machine_.dsos().all();
    for (; indexed_ < all.size(); ++indexed_) {
      dso_order_.emplace(&all[indexed_], static_cast<int32_t>(indexed_));
    }
    it = dso_order_.find(d);
    if (it != dso_order_.end()) return it->second;
    int32_t id = static_cast<int32_t>(1'000'000 + dso_order_.size());
    dso_order_.emplace(d, id);
    return id;
  }

  HistFrame hist_frame(const Frame& f, bool chain = true) {
    HistFrame h;
    if (with_srcfile_) h.srcfile = resolver_.srcfile(f, chain);
    h.chain.ip = f.ip;
    h.chain.dso = f.dso;
    h.chain.sym = f.sym;
    h.chain.dso_order = dso_order(f.dso);
    h.addr = f.addr;
    h.sym_addr = f.sym_addr;
    h.level = f.level;
    h.map_size = f.map ? f.map->end - f.map->start : 0;
    h.map_id = f.map ? f.map->id : 0;
    h.enclosing_sym = f.enclosing_sym;
    // sort.c sort__addr_cmp(): he->ip unmapped by the entry's map. The sample's own he->ip is
    // al->addr (map-relative); a call-chain entry's is the ip itself (callchain.c
    // fill_callchain_info()), which perf unmaps all the same.
    uint64_t he_ip = chain ? f.ip : f.addr;
    h.unmapped_ip = f.map ? f.map->unmap_ip(he_ip) : he_ip;
    if (setup_.hist.show_branchflag_count) h.branch = f.branch;
    if (chain && setup_.hist.chain_key != ChainKey::kFunction) {
      std::string_view node_srcline =
          resolver_.callchain_srcline(f, setup_.hist.chain_key == ChainKey::kAddress);
      h.chain.srcline = chain_srcline_id(node_srcline);
      // hist.c iter_add_next_cumulative_entry(): fill_callchain_info() gives the entry the
      // cursor node's srcline (machine.c callchain_srcline(): show_sym off), which --sort
      // srcline then shows instead of computing its own (sort.c sort__srcline_cmp()).
      if (with_srcline_ && node_srcline.data()) h.srcline = node_srcline;
    }
    if (with_srcline_ && !h.srcline.data()) h.srcline = resolver_.srcline(f, chain);
    return h;
  }

  // ChainFrame::srcline: an index into SessionState::chain_srclines (0 for none), texts the
  // resolver interned (equal texts, one pointer).
  uint32_t chain_srcline_id(std::string_view s) {
    if (!s.data()) return 0;
    std::vector<std::string_view>& texts = state_->chain_srclines;
    auto [it, added] =
        chain_srcline_ids_.try_emplace(s.data(), static_cast<uint32_t>(texts.size()));
    if (added) texts.push_back(s);
    return it->second;
  }

  // machine.c ip__resolve_ams(): a branch address may be on either side of the kernel
  // boundary, so perf tries each cpumode (the guest ones find nothing in a host report:
  // level 'H'). With srcline_from/srcline_to, sort.c addr_map_symbol__srcline():
  // map__srcline() at the map-relative address, "??:0" without a map.
  // `f`: the address as Resolver::resolve_any_cpumode() found it.
  BranchAddr branch_addr(const Frame& f, uint64_t ip) {
    BranchAddr a;
    a.addr = ip;
    a.al_addr = ip;
    if (f.map) {
      a.al_addr = f.addr;
      a.dso = f.dso;
      a.sym = f.sym;
      a.level = f.level;
    }
    if (with_branch_srclines_) a.srcline = resolver_.srcline(f.map ? f : Frame{}, false);
    return a;
  }

  static MemAddr mem_addr(const Frame& f, uint64_t addr) {
    MemAddr a;
    a.addr = addr;
    a.al_addr = f.map ? f.addr : addr;
    if (!f.map) return a;
    a.dso = f.dso;
    a.sym = f.sym;
    if (f.sym) a.sym_offset = f.sym_addr - f.sym->start;
    a.map_prot = f.map->prot;
    a.map_flags = f.map->flags;
    return a;
  }

  // machine.c sample__resolve_mem(): the instruction by ip__resolve_ams() (any cpumode), the
  // data address by ip__resolve_data() (thread__find_symbol() in the sample's cpumode).
  MemSample resolve_mem(const Thread& t, const Sample& s) {
    MemSample m;
    m.iaddr = mem_addr(resolver_.resolve_any_cpumode(t, s.ip), s.ip);
    m.daddr =
        mem_addr(resolver_.resolve_addr(t, static_cast<uint8_t>(s.cpumode()), s.addr), s.addr);
    m.phys_addr = s.phys_addr;
    m.data_page_size = s.data_page_size;
    m.data_src = s.data_src;
    return m;
  }

  // builtin-report.c process_sample_event() in branch mode: hist_iter_branch adds one entry
  // per branch of the stack, at its target, with a period of 1; samples without a branch
  // stack add nothing.
  void add_branches(const Sample& s, const Evsel& evsel) {
    Hists& hists = hists_for(evsel);
    // hist_entry_iter__add() resolves the call chain in every mode, for the parent key.
    const ResolvedSample& rs = resolver_.resolve(s, &evsel, by_parent_);
    if (setup_.hide_unresolved && !rs.self.sym) return;
    if (!s.has_branch_stack) return;
    Thread* t = rs.thread;
    HistSample hs;
    hs.thread = t;
    hs.comm = rs.comm;
    hs.placeholder_comm = !t->comm_set;
    hs.period = 1;
    hs.cpumode = static_cast<uint8_t>(s.cpumode());
    set_sample_keys(hs, s, *t);
    HistFrame self = hist_frame(rs.self, false);
    hs.filtered = filter_bits(*t, self, rs.self.map != nullptr, hs.cpumode);
    if (by_parent_) hs.parent = chain_parent(rs);
    if (setup_.exclude_other && !hs.parent) hs.filtered |= kHistFilterParent;
    // machine.c sample__resolve_bstack(): each end looked up once.
    const size_t nr = s.branch_stack.nr;
    branch_ends_.resize(nr);
    for (size_t i = 0; i < nr; ++i) {
      BranchEntry be = s.branch_stack.entry(i);
      branch_ends_[i] = {resolver_.resolve_any_cpumode(*t, be.from),
                         resolver_.resolve_any_cpumode(*t, be.to)};
    }
    // builtin-report.c: with the IPC column, hist.c hist__account_cycles() gives each branch's
    // cycles to the block it ends, oldest first (perf stores the newest first), when the
    // newest branch has cycles; a stack that is not every branch (nonany_branch_mode) knows
    // no block starts.
    if (data_.branch_cycles && nr && BranchFlags(s.branch_stack.entry(0).flags).cycles()) {
      const Frame* prev = nullptr;
      for (size_t i = nr; i-- > 0;) {
        const unsigned cycles = BranchFlags(s.branch_stack.entry(i).flags).cycles();
        data_.branch_cycles->account(branch_ends_[i].from, nonany_branch_mode_ ? nullptr : prev,
                                     cycles);
        prev = &branch_ends_[i].to;
        total_cycles_ += cycles;
      }
    }
    for (size_t i = 0; i < nr; ++i) {
      BranchEntry be = s.branch_stack.entry(i);
      BranchInfo bi;
      const Frame& target = branch_ends_[i].to;
      bi.to = branch_addr(target, be.to);
      bi.from = branch_addr(branch_ends_[i].from, be.from);
      bi.flags = be.flags;
      // hist.c iter_add_next_branch_entry(): -U skips a branch with an unresolved end.
      if (setup_.hide_unresolved && !(bi.from.sym && bi.to.sym)) continue;
      // iter_next_branch_entry(): the sample's location moved to the branch's target (its
      // level stays the sample's).
      hs.self = HistFrame{};
      hs.self.chain.ip = be.to;
      hs.self.chain.dso = bi.to.dso;
      hs.self.chain.sym = bi.to.sym;
      hs.self.chain.dso_order = dso_order(bi.to.dso);
      hs.self.addr = be.to;
      // hist.c iter_next_branch_entry(): al->addr is the branch's raw target (bi->to.addr),
      // which sort.c sort__addr_cmp() unmaps by the target's map all the same.
      hs.self.unmapped_ip = target.map ? target.map->unmap_ip(be.to) : be.to;
      hs.self.level = rs.self.level;
      hs.branch = &bi;
      hists.add(hs, &plan_);
      // hist_iter__branch_callback() counts he->branch_info: the branch that made the entry
      // this one joined, not this branch.
      const BranchInfo& entry = hists.branch(plan_[0]);
      data_.branch_types.count(entry.flags, entry.from.addr, entry.to.addr);
    }
  }

  void add_sample(const Sample& s, const Evsel& evsel, uint64_t period) {
    // builtin-report.c process_sample_event(): --time, --switch-on/--switch-off and --cpu
    // drop the sample.
    if (setup_.selection.skip_time(s.time)) return;
    if (setup_.evswitch && setup_.evswitch->discard(evsel)) return;
    if (setup_.selection.skip_cpu(s.cpu)) return;
    if (setup_.hist.branch_mode) {
      add_branches(s, evsel);
      return;
    }
    // hist.c iter_add_single_mem_entry(): the period is the weight (1 without one), so that
    // the overheads are shares of the total weight.
    if (setup_.hist.mem_mode) period = s.weight ? s.weight : 1;
    Hists& hists = hists_for(evsel);
    Repeats& rep = repeats_[evsel.index];
    // callchain.c sample__resolve_callchain(): the chain is walked for the call graphs and
    // for the parent key, and kept only for the first.
    const bool keep_chain = setup_.hist.use_callchain || setup_.hist.children;
    // sample__resolve_callchain(): with show_branchflag_count, the branches alone make a
    // chain.
    const bool with_chain =
        (s.has_callchain || (setup_.hist.show_branchflag_count && s.has_branch_stack)) &&
        (keep_chain || by_parent_);
    // A sample identical to one added since the Machine last changed does what that one did:
    // replay it, resolving nothing.
    key_.clear();
    key_.push_back((uint64_t{static_cast<uint32_t>(s.pid)} << 32) | static_cast<uint32_t>(s.tid));
    key_.push_back(uint64_t{s.cpumode()} | (uint64_t{with_chain} << 8));
    key_.push_back(s.ip);
    key_.push_back(epoch(s.pid));
    if (by_cpu_ || by_socket_) key_.push_back(s.cpu);
    if (by_time_) key_.push_back(s.time / std::max<uint64_t>(setup_.hist.time_quantum, 1));
    if (by_values_) push_values_key(key_, sample_values(s));
    if (by_transaction_) key_.push_back(s.transaction);
    if (by_cgroup_) key_.push_back(s.cgroup);
    if (with_chain) {
      Bytes b = s.callchain.bytes();
      size_t at = key_.size();
      key_.resize(at + b.size() / 8);
      if (!b.empty()) std::memcpy(key_.data() + at, b.data(), b.size() / 8 * 8);
      if (s.has_branch_stack &&
          (setup_.branch_callstack || (evsel.attr.branch_sample_type & kBranchSampleCallStack))) {
        // `--call-graph lbr`: the user part of the chain is the branch stack; with
        // --branch-history the chain begins with it.
        Bytes e = s.branch_stack.entries;
        at = key_.size();
        key_.push_back(s.branch_stack.nr);
        key_.resize(at + 1 + e.size() / 8);
        // An empty branch stack's view has no data pointer, which memcpy may not be given.
        if (!e.empty()) std::memcpy(key_.data() + at + 1, e.data(), e.size() / 8 * 8);
      }
    }
    // A `--call-graph dwarf` sample's chain comes from its registers and stack copy, and the
    // `trace` key groups by a tracepoint's data: the key holds neither, so such samples are
    // always resolved.
    const bool unwound = with_chain && resolver_.options().dwarf_unwind &&
                         (s.sample_type & (kSampleRegsUser | kSampleStackUser)) ==
                             (kSampleRegsUser | kSampleStackUser) &&
                         s.user_stack_size != 0;
    // Memory mode keys entries on the data address and data_src, which the keys leave out.
    // Branch counts grow along a chain's whole path, which a replay does not walk.
    const bool uncached = unwound || with_trace_ || with_dynamic_ || hists.walks_entries_in() ||
                          mixed_chains_ || setup_.hist.mem_mode ||
                          setup_.hist.show_branchflag_count;
    const RepeatCache::Hash raw_hash = RepeatCache::hash(key_);
    if (size_t slot = uncached ? RepeatCache::kNone : rep.raw.find_slot(raw_hash);
        slot != RepeatCache::kNone) {
      rep.raw.defer(slot, period);  // replayed with the others of its key, at the end
      resolver_.count_repeat(s);    // for the summary of samples in missing binaries
      return;
    }

    const ResolvedSample& rs = resolver_.resolve(s, &evsel);
    // builtin-report.c process_sample_event(): -U drops a sample without a symbol.
    if (setup_.hide_unresolved && !rs.self.sym) return;
    Thread* t = rs.thread;
    std::string_view trace;
    if ((with_trace_ || with_dynamic_) && evsel.attr.type == kTypeTracepoint) {
      trace = setup_.trace_text ? setup_.trace_text(evsel, s, resolver_, *t) : "";
    }
    HistSample hs;
    if (with_dynamic_) {
      hs.raw = std::string_view(reinterpret_cast<const char*>(s.raw.data()), s.raw.size());
    }
    hs.thread = t;
    hs.comm = rs.comm;
    hs.placeholder_comm = !t->comm_set;
    hs.self = hist_frame(rs.self, false);
    hs.period = period;
    hs.trace = trace;
    hs.cpumode = static_cast<uint8_t>(s.cpumode());
    hs.filtered = filter_bits(*t, hs.self, rs.self.map != nullptr, hs.cpumode);
    hs.cpu = s.cpu;
    hs.socket = socket_of(s.cpu);
    // hist.c hist_time().
    uint64_t q = setup_.hist.time_quantum;
    hs.time = q ? s.time / q * q : s.time;
    if (by_values_) hs.values = sample_values(s);
    set_sample_keys(hs, s, *t);
    if (setup_.hist.mem_mode) {
      mem_ = resolve_mem(*t, s);
      hs.mem = &mem_;
    }

    frames_.clear();
    if (with_chain) {
      // Leaf first from the resolver; perf's cursor for caller order walks from the root and
      // stops after max_stack entries from there.
      size_t n = setup_.branch_callstack ? rs.callchain.size()
                                         : std::min<size_t>(rs.callchain.size(), setup_.max_stack);
      if (setup_.hist.caller_order) {
        for (size_t i = 0; i < n; ++i) {
          frames_.push_back(hist_frame(rs.callchain[rs.callchain.size() - 1 - i]));
        }
      } else {
        for (size_t i = 0; i < n; ++i) frames_.push_back(hist_frame(rs.callchain[i]));
      }
      if (ignore_callees_ || by_parent_) scan_chain(rs, hs);
      if (!keep_chain) frames_.clear();
      // machine.c add_callchain_ip(): -U leaves frames without a symbol out of the chain
      // (they still count towards --max-stack).
      if (setup_.hide_unresolved) {
        std::erase_if(frames_, [](const HistFrame& f) { return !f.chain.sym; });
      }
      // callchain.c fill_callchain_info(): a frame with neither map nor symbol keeps the
      // level of the one before it.
      for (HistFrame& f : frames_) {
        if (!f.chain.sym && !f.chain.dso) f.level = 0;
      }
    }
    if (mixed_chains_) {
      // callchain.c sample__resolve_callchain(): a sample without a chain leaves perf's
      // cursor as the last one resolved left it, and the Children walk reads that.
      if (with_chain) {
        cursor_frames_ = frames_;
        cursor_set_ = true;
      } else if (!s.has_callchain && cursor_set_) {
        frames_ = cursor_frames_;
        hs.stale_chain = true;
      }
    }
    hs.chain = frames_;
    // hist.c symbol__parent_filter(), after the walk (which may have reset the filter bits).
    if (setup_.exclude_other && !hs.parent) hs.filtered |= kHistFilterParent;

    // The same functions reached through other addresses touch the same entries and tree
    // nodes: replay by the resolved key before walking the trees.
    // The thread matters through its comm, its tid (--sort pid) and the filters; other
    // threads of the same command share plans.
    resolved_key_.clear();
    push_comm_key(hs.comm);
    resolved_key_.push_back(
        (uint64_t{hs.cpumode} << 40) | (uint64_t{hs.filtered} << 32) |
        (setup_.hist.sort.has(SortKey::kPid) ? static_cast<uint32_t>(t->tid) : 0u));
    if (by_cpu_) resolved_key_.push_back(hs.cpu);
    if (by_socket_) resolved_key_.push_back(static_cast<uint32_t>(hs.socket));
    if (by_time_) resolved_key_.push_back(hs.time);
    if (by_values_) push_values_key(resolved_key_, hs.values);
    if (by_transaction_) resolved_key_.push_back(hs.transaction);
    if (by_cgroup_) resolved_key_.push_back(hs.cgroup);
    if (by_cgroup_id_) {
      resolved_key_.push_back(hs.cgroup_ns_dev);
      resolved_key_.push_back(hs.cgroup_ns_ino);
    }
    push_frame_key(hs.self, hs.self.addr);
    if (with_trace_) resolved_key_.push_back(reinterpret_cast<uintptr_t>(trace.data()));
    if (by_parent_) resolved_key_.push_back(reinterpret_cast<uintptr_t>(hs.parent));
    for (const HistFrame& f : frames_) push_frame_key(f, f.chain.ip);
    // An inline frame's Children entry may change hands with the map it is met through
    // (Hists::place()): such samples are added one by one.
    if (with_dynamic_ || hists.walks_entries_in() || mixed_chains_ || setup_.hist.mem_mode ||
        setup_.hist.show_branchflag_count ||
        (setup_.hist.children &&
         std::any_of(frames_.begin(), frames_.end(),
                     [](const HistFrame& f) { return f.enclosing_sym != nullptr; }))) {
      hists.add(hs);
      return;
    }
    const RepeatCache::Hash resolved_hash = RepeatCache::hash(resolved_key_);
    if (std::span<const uint32_t> plan = rep.resolved.find(resolved_hash); !plan.empty()) {
      hists.replay(plan, period);
      if (!uncached) rep.raw.insert(raw_hash, plan, replay_into(hists));
      return;
    }
    hists.add(hs, &plan_);
    if (!uncached) rep.raw.insert(raw_hash, plan_, replay_into(hists));
    rep.resolved.insert(resolved_hash, plan_, replay_into(hists));
  }

  // machine.c add_callchain_ip(): the first chain entry in walk order whose symbol matches
  // the parent pattern (not an inline frame, nor one unwound from a user stack copy).
  const Symbol* chain_parent(const ResolvedSample& rs) const {
    const size_t n = rs.callchain.size();
    for (size_t i = 0; i < n; ++i) {
      const size_t at = setup_.hist.caller_order ? n - 1 - i : i;
      const Frame& f = rs.callchain[at];
      if (f.inlined || !f.sym || at >= rs.unwound_begin) continue;
      if (parent_.matches(f.sym->name)) return f.sym;
    }
    return nullptr;
  }

  // machine.c add_callchain_ip(), for each chain entry with a symbol in walk order: the
  // first that matches the parent pattern is the sample's parent; else one that matches
  // --ignore-callees replaces the sample's location (root_al, a fresh addr_location: its
  // filter bits are 0) and resets the cursor, so the chain restarts at it (the last match
  // wins). Inline frames are no chain entries (they are appended after the check), nor are
  // the frames unwound from a user stack copy (unwind_entry() appends them unchecked).
  void scan_chain(const ResolvedSample& rs, HistSample& hs) {
    size_t n = frames_.size(), match = n;
    const Frame* root = nullptr;
    for (size_t i = 0; i < n; ++i) {
      const size_t at = setup_.hist.caller_order ? rs.callchain.size() - 1 - i : i;
      const Frame& f = rs.callchain[at];
      if (f.inlined || !f.sym || at >= rs.unwound_begin) continue;
      if (by_parent_ && !hs.parent && parent_.matches(f.sym->name)) {
        hs.parent = f.sym;
      } else if (ignore_callees_ && ignore_callees_.matches(f.sym->name)) {
        match = i;
        root = &f;
      }
    }
    if (!root) return;
    frames_.erase(frames_.begin(), frames_.begin() + static_cast<std::ptrdiff_t>(match));
    hs.self = hist_frame(*root, false);
    hs.filtered = 0;
    hs.cpumode = root->cpumode;
  }

  // hist.c __hists__add_entry(): the sample's transaction and cgroup, the thread's cgroup
  // namespace as its latest NAMESPACES record left it.
  static void set_sample_keys(HistSample& hs, const Sample& s, const Thread& t) {
    hs.transaction = s.transaction;
    hs.cgroup = s.cgroup;
    hs.cgroup_ns_dev = t.cgroup_ns_dev;
    hs.cgroup_ns_ino = t.cgroup_ns_ino;
  }

  // event.c machine__resolve(): al->socket is env->cpu[cpu].socket_id, -1 for an unrecorded
  // CPU or a recording without the topology's per-CPU ids.
  int32_t socket_of(uint32_t cpu) const {
    const auto& topo = pd_.features().cpu_topology;
    if (static_cast<int32_t>(cpu) < 0 || !topo || !topo->cpus || cpu >= topo->cpus->size()) {
      return -1;
    }
    return (*topo->cpus)[cpu].socket_id;
  }

  void push_comm_key(std::string_view comm) {
    resolved_key_.push_back(comm.size());
    for (size_t i = 0; i < comm.size(); i += 8) {
      uint64_t w = 0;
      std::memcpy(&w, comm.data() + i, std::min<size_t>(8, comm.size() - i));
      resolved_key_.push_back(w);
    }
  }

  // What decides a frame's entry and tree node: DSO, symbol (or the address without one) and
  // level.
  void push_frame_key(const HistFrame& f, uint64_t addr) {
    uint64_t w = reinterpret_cast<uintptr_t>(f.chain.dso) | (uint64_t{uint8_t(f.level)} << 48) |
                 (uint64_t{f.chain.sym != nullptr} << 56);
    resolved_key_.push_back(w);
    resolved_key_.push_back(f.chain.sym ? reinterpret_cast<uintptr_t>(f.chain.sym) : addr);
    if (with_srcline_) resolved_key_.push_back(reinterpret_cast<uintptr_t>(f.srcline.data()));
    if (setup_.hist.chain_key != ChainKey::kFunction) {
      resolved_key_.push_back(addr);
      resolved_key_.push_back(f.chain.srcline);
    }
    if (by_dso_size_) resolved_key_.push_back(f.map_size);
    if (by_addr_) resolved_key_.push_back(f.unmapped_ip);
    if (with_srcfile_) resolved_key_.push_back(reinterpret_cast<uintptr_t>(f.srcfile.data()));
  }

  uint8_t filter_bits(const Thread& t, const HistFrame& f, bool has_map, uint8_t cpumode) const {
    // event.c machine__resolve() and thread.h thread__is_filtered().
    const SampleSelection& sel = setup_.selection;
    return sel.thread_bits(t) | sel.dso_bits(has_map, f.chain.dso) |
           sel.symbol_bits(has_map, f.chain.sym, f.chain.ip) | SampleSelection::guest_bits(cpumode);
  }

  PerfData& pd_;
  bool os_release_seen_ = false;
  bool version_seen_ = false;
  const ReportSetup& setup_;
  const bool with_srcline_ = setup_.hist.sort.has(SortKey::kSrcline);  // after setup_
  std::unordered_map<const char*, uint32_t> chain_srcline_ids_;
  // Children over events with and without call chains: perf's stale cursor (add_sample()),
  // tracked through every sample, none replayed.
  const bool mixed_chains_ = setup_.hist.children && setup_.hist.use_callchain && [this] {
    bool with = false, without = false;
    for (size_t i = 0; i < pd_.events().size(); ++i) {
      ((pd_.events()[i].attr.sample_type & kSampleCallchain) ? with : without) = true;
    }
    return with && without;
  }();
  uint64_t total_cycles_ = 0;  // report.total_cycles: every accounted branch's cycles
  std::vector<HistFrame> cursor_frames_;
  bool cursor_set_ = false;
  const bool with_trace_ = setup_.hist.sort.has(SortKey::kTrace);
  // The dynamic keys (tracepoint fields) read the sample's raw data, and the trace text for
  // the fields printed formatted.
  const bool with_dynamic_ = !setup_.hist.sort.dynamic.empty();
  const bool with_srcfile_ = setup_.hist.sort.has(SortKey::kSrcfile);
  const bool with_branch_srclines_ =
      setup_.hist.sort.has(SortKey::kSrclineFrom) || setup_.hist.sort.has(SortKey::kSrclineTo);
  // Sort keys that tell samples apart by more than their thread and addresses: repeat keys
  // carry them.
  const bool by_cpu_ = setup_.hist.sort.has(SortKey::kCpu);
  const bool by_time_ = setup_.hist.sort.has(SortKey::kTime);
  const bool by_dso_size_ = setup_.hist.sort.has(SortKey::kDsoSize);
  const bool by_transaction_ = setup_.hist.sort.has(SortKey::kTransaction);
  const bool by_cgroup_ = setup_.hist.sort.has(SortKey::kCgroup);
  const bool by_cgroup_id_ = setup_.hist.sort.has(SortKey::kCgroupId);
  const bool by_addr_ = setup_.hist.sort.has(SortKey::kAddr);
  const bool by_values_ =
      std::any_of(setup_.hist.sort.keys.begin(), setup_.hist.sort.keys.end(), is_sample_value_key);
  // --socket-filter reads the socket of an entry's first sample: samples of other CPUs are
  // not the same either.
  const bool by_socket_ = setup_.hist.sort.has(SortKey::kSocket) || setup_.hist.socket_filter > -1;
  const PosixRegex ignore_callees_{setup_.ignore_callees};
  const bool by_parent_ = setup_.hist.sort.has(SortKey::kParent);
  const PosixRegex parent_{setup_.parent_pattern};
  std::shared_ptr<SessionState> state_;
  Machine& machine_;
  Resolver& resolver_;
  SessionBuilder builder_;
  ReportData data_;
  std::vector<HistFrame> frames_;
  struct BranchEnds {
    Frame from;
    Frame to;
  };
  std::vector<BranchEnds> branch_ends_;  // the sample's branches, resolved
  // builtin-report.c: "handle more cases than just ANY?"
  const bool nonany_branch_mode_ = [this] {
    uint64_t combined = 0;
    for (size_t i = 0; i < pd_.events().size(); ++i) {
      combined |= pd_.events()[i].attr.branch_sample_type;
    }
    return !(combined & kBranchSampleAny);
  }();
  struct Repeats {
    RepeatCache raw;
    RepeatCache resolved;
  };
  std::vector<Repeats> repeats_;  // by event index
  std::vector<uint32_t> plan_;
  std::vector<uint64_t> key_;
  MemSample mem_;  // the sample being added, in memory mode
  std::vector<uint64_t> resolved_key_;
  static constexpr int64_t kNoPid = INT64_MIN;
  std::unordered_map<int32_t, uint32_t> pid_epochs_;
  uint64_t global_epoch_ = 0;
  int64_t last_epoch_pid_ = kNoPid;
  uint64_t last_epoch_ = 0;
  CounterDeltas counter_deltas_;
  std::unordered_map<const Dso*, int32_t> dso_order_;
  size_t indexed_ = 0;
};

}  // namespace

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
