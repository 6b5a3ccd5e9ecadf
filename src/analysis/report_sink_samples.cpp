// A sample added to its event's histogram (builtin-report.c process_sample_event(), hist.c
// hist_entry_iter__add()): resolved, its call chain walked, or replayed from the repeat caches
// when one identical to it, or resolving the same, was added since the Machine last changed.
#include <algorithm>
#include <cstring>

#include "report_sink.h"

namespace readperf {

namespace {

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

}  // namespace

void ReportSink::on_sample(const Sample& s, const Evsel& evsel) {
  if (!(evsel.attr.sample_type & kSampleRead)) {
    add_sample(s, evsel, s.period);
    return;
  }
  // session.c evlist__deliver_sample(): one delivery per counter that moved.
  counter_deltas_.split(s, evsel, pd_.events(), [&](const Evsel& ev, uint64_t, uint64_t period) {
    add_sample(s, ev, period);
  });
}

void ReportSink::add_sample(const Sample& s, const Evsel& evsel, uint64_t period) {
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
  key_.push_back(epochs_.of(s.pid));
  if (by_cpu_ || by_socket_) key_.push_back(s.cpu);
  if (by_time_) key_.push_back(s.time / std::max<uint64_t>(setup_.hist.time_quantum, 1));
  if (by_values_) push_values_key(key_, sample_values(s));
  if (by_transaction_) key_.push_back(s.transaction);
  if (by_cgroup_) key_.push_back(s.cgroup);
  if (with_chain) {
    RepeatCache::append_words(key_, s.callchain.bytes());
    if (s.has_branch_stack &&
        (setup_.branch_callstack || (evsel.attr.branch_sample_type & kBranchSampleCallStack))) {
      // `--call-graph lbr`: the user part of the chain is the branch stack; with
      // --branch-history the chain begins with it.
      key_.push_back(s.branch_stack.nr);
      RepeatCache::append_words(key_, s.branch_stack.entries);
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
  // While perf 6.1 still asks addr2line about a DSO without an answer yet, every question
  // counts (Resolver::A2lState): a replay would ask none.
  const bool uncached = unwound || with_trace_ || with_dynamic_ || hists.walks_entries_in() ||
                        mixed_chains_ || setup_.hist.mem_mode ||
                        setup_.hist.show_branchflag_count ||
                        (srcline_asked_ && !resolver_.srcline_calls_settled());
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
      (setup_.hist.children && std::any_of(frames_.begin(), frames_.end(), [](const HistFrame& f) {
         return f.enclosing_sym != nullptr;
       }))) {
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

void ReportSink::push_comm_key(std::string_view comm) {
  resolved_key_.push_back(comm.size());
  for (size_t i = 0; i < comm.size(); i += 8) {
    uint64_t w = 0;
    std::memcpy(&w, comm.data() + i, std::min<size_t>(8, comm.size() - i));
    resolved_key_.push_back(w);
  }
}

// What decides a frame's entry and tree node: DSO, symbol (or the address without one) and
// level.
void ReportSink::push_frame_key(const HistFrame& f, uint64_t addr) {
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

}  // namespace readperf
