// `report` in branch mode (builtin-report.c process_sample_event(), hist.c hist_iter_branch):
// an entry per branch of a sample's stack, and the branches' cycles for the IPC columns.
#include "report_sink.h"

namespace readperf {

// builtin-report.c process_sample_event() in branch mode: hist_iter_branch adds one entry
// per branch of the stack, at its target, with a period of 1; samples without a branch
// stack add nothing.
void ReportSink::add_branches(const Sample& s, const Evsel& evsel) {
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

}  // namespace readperf
