// A sample added to the histogram (hist.c hist_entry_iter__add()): its own entry, the Children
// entries of its call chain's frames (iter_add_next_cumulative_entry()) and the call-chain
// trees, or a plan of them replayed for a sample that resolves the same.
#include <algorithm>

#include "hist_keys.h"
#include "readperf/analysis/hist.h"

namespace readperf {

namespace {

// he_stat__add_cpumode_period(): PERF_RECORD_MISC_KERNEL, _USER, _GUEST_KERNEL, _GUEST_USER.
void add_cpumode_period(HistEntry& e, uint8_t cpumode, uint64_t period) {
  if (cpumode == 1) e.period_sys += period;
  if (cpumode == 2) e.period_us += period;
  if (cpumode == 4) e.period_guest_sys += period;
  if (cpumode == 5) e.period_guest_us += period;
}

}  // namespace

bool Hists::he_tmp_differs(const HistSample& s) const {
  if (by_time_) return true;
  // he_tmp has no .transaction, .cgroup nor .cgroup_id either.
  if (s.transaction && config_.sort.has(SortKey::kTransaction)) return true;
  if (s.cgroup && config_.sort.has(SortKey::kCgroup)) return true;
  if ((s.cgroup_ns_dev || s.cgroup_ns_ino) && config_.sort.has(SortKey::kCgroupId)) return true;
  for (SortKey k : config_.sort.keys) {
    if (is_sample_value_key(k) && sample_value(k, s.values)) return true;
  }
  return false;
}

bool Hists::cached_duplicate(uint32_t cand) const {
  // hist.c iter_add_next_cumulative_entry(): he_cache, the entries this sample already added
  // to, compared by hist_entry__cmp() with the frame's before it is looked up.
  for (uint32_t id : he_cache_) {
    if (collapse_cmp(id, cand) == 0) return true;
  }
  return false;
}

void Hists::replay(std::span<const uint32_t> plan, uint64_t period, uint64_t count) {
  // Plan words: the sample's own entry, the count of Children entries (its cpumode in the
  // top byte), those entries, then the call-tree nodes where its chains ended.
  nr_samples_ += count;
  total_period_ += period;
  lookups_ += count;
  HistEntry& self = entries_[plan[0]];
  if (!self.filtered) nr_non_filtered_samples_ += count;
  self.period += period;
  self.nr_events += count;
  add_cpumode_period(self, static_cast<uint8_t>(plan[1] >> 24), period);
  if (config_.children) {
    self.acc_period += period;
    self.acc_events += count;
  }
  if (config_.use_callchain) {
    callchain_period_ += period;
    if (!self.filtered) callchain_non_filtered_period_ += period;
  }
  size_t k = plan[1] & 0xffffff;
  for (size_t i = 0; i < k; ++i) {
    HistEntry& e = entries_[plan[2 + i]];
    e.acc_period += period;
    e.acc_events += count;
  }
  for (size_t i = 2 + k; i < plan.size(); ++i) tree_.bump(plan[i], period, count);
}

void Hists::add(const HistSample& s, std::vector<uint32_t>* plan) {
  ++stamp_;
  ++nr_samples_;
  total_period_ += s.period;
  uint32_t comm = s.placeholder_comm ? placeholder_comm(s.thread, s.comm) : intern_comm(s.comm);
  // The sample's own entry (iter_add_single_normal_entry / _cumulative_entry).
  bool created;
  Key key = make_key(comm, s.thread, s.self, s.self.addr, dso_name_id(s.self.chain.dso), s);
  uint32_t self_id = findnew(key, s, s.self, s.self.addr, comm, created);
  he_cache_.assign(1, self_id);
  HistEntry& self = entries_[self_id];
  if (!self.filtered) ++nr_non_filtered_samples_;  // hists__inc_nr_samples()
  self.period += s.period;
  self.nr_events += 1;
  add_cpumode_period(self, s.cpumode, s.period);
  if (config_.children) {
    self.acc_period += s.period;
    self.acc_events += 1;
  }
  self.stamp = stamp_;
  if (config_.use_callchain) {  // hist_entry__add_callchain_period()
    callchain_period_ += s.period;
    if (!self.filtered) callchain_non_filtered_period_ += s.period;
  }
  if (plan) {
    plan->clear();
    plan->push_back(self_id);
    plan->push_back(uint32_t{s.cpumode} << 24);
  }
  leaves_.clear();

  if (!config_.use_callchain && !config_.children) return;

  scratch_.clear();
  for (const HistFrame& f : s.chain) scratch_.push_back(f.chain);
  std::span<const ChainFrame> frames(scratch_);
  std::span<const ChainBranch> branches;
  // --hierarchy's call graphs are callchain_merge()d copies, which count no branch
  // (hists__hierarchy_insert_entry()): all "(calltrace)".
  const bool count_branches = config_.show_branchflag_count && !config_.hierarchy;
  if (count_branches) {
    branch_scratch_.clear();
    for (const HistFrame& f : s.chain) branch_scratch_.push_back(f.branch);
    branches = branch_scratch_;
  }
  // callchain.c callchain_append(): the chain below an entry's root, its branches counted.
  auto append = [&](uint32_t root, size_t from) {
    if (count_branches) {
      return tree_.append(root, frames.subspan(from), branches.subspan(from), s.period);
    }
    return tree_.append(root, frames.subspan(from), s.period);
  };
  if (config_.use_callchain && !frames.empty() && !s.stale_chain) {
    leaves_.push_back(append(self.chain_root, 0));
    self.max_depth = std::max<uint32_t>(self.max_depth, static_cast<uint32_t>(frames.size()));
  }
  if (!config_.children) {
    if (plan) plan->insert(plan->end(), leaves_.begin(), leaves_.end());
    return;
  }

  // iter_next_cumulative_entry / iter_add_next_cumulative_entry: every frame of the chain
  // gets the sample's period as Children, once per entry even through recursion, and the
  // chain from that frame on.
  char level = s.self.level;
  const bool no_dedup = he_tmp_differs(s);
  for (size_t i = 0; i < s.chain.size(); ++i) {
    const HistFrame& f = s.chain[i];
    // callchain.c fill_callchain_info(): a frame with neither symbol nor map keeps the
    // previous level.
    HistFrame at = f;
    if (f.level) level = f.level;
    at.level = level;
    if (config_.callchain_entries_user_level && f.chain.dso) at.level = '.';
    Key k = make_key(comm, s.thread, at, f.chain.ip, dso_name_id(f.chain.dso), s);
    uint32_t id;
    if (entries_in_ && !no_dedup) {
      // perf's order: the he_cache check by comparison, then the lookup, of one candidate.
      uint32_t cand = stage(s, at, f.chain.ip, comm);
      if (cached_duplicate(cand)) {
        entries_.pop_back();
        continue;
      }
      ++lookups_;
      id = place(cand, k, s, at, created);
    } else {
      id = findnew(k, s, at, f.chain.ip, comm, created);
    }
    HistEntry& e = entries_[id];
    if (!entries_in_ && !created && e.stamp == stamp_ && !no_dedup) continue;
    he_cache_.push_back(id);
    e.stamp = stamp_;
    e.acc_period += s.period;
    e.acc_events += 1;
    if (plan) {
      plan->push_back(id);
      ++(*plan)[1];
    }
    if (config_.use_callchain) {
      leaves_.push_back(append(e.chain_root, i));
      e.max_depth = std::max<uint32_t>(e.max_depth, static_cast<uint32_t>(frames.size() - i));
    }
  }
  if (plan) plan->insert(plan->end(), leaves_.begin(), leaves_.end());
}

}  // namespace readperf
