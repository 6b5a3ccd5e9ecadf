// Event groups (--group): a leader's entries paired with its members' (hist.c hists__match(),
// hists__link(), hists__add_dummy_entry()) and ordered by the group's values
// (ui/hist.c __hpp__sort(), __hpp__group_sort_idx()).
#include <set>

#include "hist_keys.h"
#include "readperf/analysis/hist.h"

namespace readperf {

int Hists::group_cmp(uint32_t a_id, uint32_t b_id, uint64_t HistEntry::*field) const {
  // A member's value of an entry (0 without a pair; a hierarchy's flat entries have none, its
  // nodes do).
  auto member_cmp = [&](size_t m) {
    const std::vector<uint32_t>& p = pairs_[m];
    uint32_t pa = a_id < p.size() ? p[a_id] : kNoPair;
    uint32_t pb = b_id < p.size() ? p[b_id] : kNoPair;
    uint64_t va = pa == kNoPair ? 0 : members_[m]->entries_[pa].*field;
    uint64_t vb = pb == kNoPair ? 0 : members_[m]->entries_[pb].*field;
    return field_cmp(va, vb);
  };
  int c = field_cmp(entries_[a_id].*field, entries_[b_id].*field);
  const int idx = config_.group_sort_idx;
  if (idx != 0) {
    // ui/hist.c __hpp__group_sort_idx(): the Nth event's value, then the other members'; the
    // leader's only when N names no member (and then alone).
    if (members_.empty() || idx < 1 || static_cast<size_t>(idx) >= group_size()) return c;
    c = member_cmp(static_cast<size_t>(idx) - 1);
    for (size_t m = 0; !c && m < members_.size(); ++m) {
      if (m != static_cast<size_t>(idx) - 1) c = member_cmp(m);
    }
    return c;
  }
  // ui/hist.c __hpp__sort(): the leader's value, then each member's.
  for (size_t m = 0; !c && m < members_.size(); ++m) c = member_cmp(m);
  return c;
}

HistEntry Hists::dummy_of(const Hists& other, uint32_t oid) {
  const HistEntry& pair = other.entries_[oid];
  HistEntry e;
  e.thread = pair.thread;
  e.comm = intern_comm(other.comms_[pair.comm]);
  e.dso = pair.dso;
  e.sym = pair.sym;
  e.ip = pair.ip;
  e.sym_base = pair.sym_base;
  e.level = pair.level;
  e.cpumode = pair.cpumode;
  e.srcline = pair.srcline;
  e.trace = pair.trace;
  e.cpu = pair.cpu;
  e.time = pair.time;
  e.socket = pair.socket;
  e.map_size = pair.map_size;
  e.parent = pair.parent;
  e.srcfile = pair.srcfile;
  e.values = pair.values;
  e.transaction = pair.transaction;
  e.cgroup = pair.cgroup;
  e.cgroup_ns_dev = pair.cgroup_ns_dev;
  e.cgroup_ns_ino = pair.cgroup_ns_ino;
  e.unmapped_ip = pair.unmapped_ip;
  e.filtered = pair.filtered;
  if (!pair.raw.empty()) e.raw = intern_raw(pair.raw);
  return e;
}

uint32_t Hists::append_entry(const HistEntry& e, const Hists& from, uint32_t from_id) {
  const uint32_t id = static_cast<uint32_t>(entries_.size());
  entries_.push_back(e);
  // Copied before the push: `from` may be this histogram.
  if (config_.branch_mode) {
    BranchInfo branch = from.branches_[from_id];
    branches_.push_back(branch);
  }
  if (config_.mem_mode) {
    MemSample mem = from.mems_[from_id];
    mems_.push_back(mem);
  }
  return id;
}

void Hists::link_group(std::vector<const Hists*> members) {
  // perf renames placeholder comms in place, long before: compare the final names.
  rename_placeholder_comms();
  members_ = std::move(members);
  linked_from_ = static_cast<uint32_t>(entries_.size());
  // hists__match() and hists__link() of a hierarchy pair its levels' nodes instead, when the
  // leader's are made (link_hierarchy()).
  if (config_.hierarchy) {
    pairs_.assign(members_.size(), {});
    return;
  }
  auto live = [](const Hists& h, uint32_t id) { return h.merged_.empty() || !h.merged_[id]; };
  // The collapsed tree's lookup (hists__find_entry()): an entry of the leader, or of a member
  // while it is looked up.
  struct Ref {
    const Hists* hists;
    uint32_t id;
  };
  auto before = [](const Ref& a, const Ref& b) {
    return collapse_cmp(*a.hists, a.id, *b.hists, b.id) > 0;
  };
  std::set<Ref, decltype(before)> leader(before);
  for (uint32_t id = 0; id < entries_.size(); ++id) {
    if (live(*this, id)) leader.insert({this, id});
  }
  pairs_.assign(members_.size(), {});
  for (size_t m = 0; m < members_.size(); ++m) {
    const Hists* other = members_[m];
    pairs_[m].assign(entries_.size(), kNoPair);
    if (!other) continue;
    for (uint32_t oid = 0; oid < other->entries_.size(); ++oid) {
      if (!live(*other, oid)) continue;
      auto it = leader.find({other, oid});
      uint32_t id;
      if (it != leader.end()) {
        id = it->id;
      } else {
        // hists__add_dummy_entry(): the member's entry with no period, no call chain.
        id = append_entry(dummy_of(*other, oid), *other, oid);
        key_store_.resize(key_store_.size() + key_words_);  // never looked up: no more samples
        if (!merged_.empty()) merged_.push_back(false);
        leader.insert({this, id});
        for (std::vector<uint32_t>& p : pairs_) p.resize(entries_.size(), kNoPair);
      }
      pairs_[m][id] = oid;
    }
  }
}

}  // namespace readperf
