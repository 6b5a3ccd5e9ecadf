#include "readperf/analysis/hist.h"

#include <algorithm>
#include <cstring>
#include <set>

#include "hist_keys.h"
#include "rb_order.h"
#include "readperf/session/cgroups.h"
#include "readperf/session/dso.h"
#include "readperf/session/thread.h"
#include "readperf/symbols/symbol_table.h"

namespace readperf {

namespace {

constexpr uint32_t kEmpty = ~0u;

uint64_t hash_words(const uint64_t* w, size_t n) {
  uint64_t h = 0x9e3779b97f4a7c15ull;
  for (size_t i = 0; i < n; ++i) {
    h ^= w[i] + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
  }
  h ^= h >> 31;
  h *= 0x94d049bb133111ebull;
  h ^= h >> 29;
  return h;
}

// How many words of Hists::Key a sort key takes (make_key()'s layout).
constexpr size_t key_words(SortKey k) {
  switch (k) {
    case SortKey::kSymbol:
    case SortKey::kIpcNull:
    case SortKey::kIpcLbr:
      return 3;
    case SortKey::kSymFrom:
    case SortKey::kSymTo:
    case SortKey::kAddrFrom:
    case SortKey::kAddrTo:
      return 2;
    case SortKey::kDcacheline:
      return kDcachelineWords;
    case SortKey::kCgroupId:
      return 2;  // dev, inode
    default:
      return 1;
  }
}

// Every key perf knows, given together (the symbol's words counted once per symbol key: more
// than make_key() writes).
constexpr size_t kAllKeyWords = [] {
  size_t n = 0;
  for (int k = 0; k <= static_cast<int>(SortKey::kAddrTo); ++k) {
    n += key_words(static_cast<SortKey>(k));
  }
  return n;
}();

bool is_symbol_key(SortKey k) {
  return k == SortKey::kSymbol || k == SortKey::kIpcNull || k == SortKey::kIpcLbr;
}

// sort.c _sort__sym_cmp() of two branch ends: null first, then by start and end (right's
// minus left's).
int sym_cmp(const Symbol* l, const Symbol* r) {
  if (!l || !r) return cmp_null(l, r);
  if (l == r) return 0;
  if (l->start != r->start) return sign64(static_cast<int64_t>(r->start - l->start));
  return sign64(static_cast<int64_t>(r->end - l->end));
}

// What a branch end adds to an entry's key: the symbol's extent, or the address.
void put_branch_sym(uint64_t* w, const BranchAddr& a) {
  w[0] = a.sym ? a.sym->start : a.addr;
  w[1] = a.sym ? a.sym->end : ~0ull;
}

}  // namespace

Hists::~Hists() = default;

Hists::Hists(const HistConfig& config) : config_(config) {
  table_.assign(256, kEmpty);
  dso_names_.push_back("");  // id 0: no dso
  has_dso_key_ = config_.sort.dso_sorted;
  has_sym_key_ = config_.sort.has(SortKey::kSymbol);
  tree_.set_key(config_.chain_key, config_.chain_srclines);
  SortSpec& spec = config_.sort;
  if (spec.sort_list.empty()) {
    // A spec from parse_sort_keys(): setup_sorting()'s default layout for its keys.
    spec.overhead_is_self = config_.children;
    if (config_.children) spec.sort_list.push_back({HppField::kOverheadChildren});
    spec.sort_list.push_back({HppField::kOverhead});
    spec.columns = spec.sort_list;
    if (config_.show_nr_samples) spec.columns.push_back({HppField::kSamples});
    for (SortKey k : spec.keys) {
      spec.sort_list.push_back({HppField::kSortKey, k});
      spec.columns.push_back({HppField::kSortKey, k});
    }
    if (config_.show_nr_samples) spec.sort_list.push_back({HppField::kSamples});
  }
  static_assert(kAllKeyWords <= kMaxKeyWords);
  by_time_ = config_.sort.has(SortKey::kTime);
  // make_key()'s layout: key_words() per key, the symbol's once (with ipc_null, ipc_lbr).
  bool sym_done = false;
  for (SortKey key : config_.sort.keys) {
    if (key == SortKey::kComm) comm_word_ = static_cast<int>(key_words_);
    if (is_symbol_key(key)) {
      if (sym_done) continue;
      sym_done = true;
    }
    key_words_ += key_words(key);
  }
}

bool Hists::same_key(const uint64_t* a, const uint64_t* b) const {
  // No sort key at all (`-s trace_fields` without tracepoints): every entry is the one; the
  // empty key store has no data pointer for memcmp.
  if (key_words_ == 0) return true;
  return std::memcmp(a, b, key_words_ * sizeof(uint64_t)) == 0;
}

uint64_t Hists::key_hash(const uint64_t* k) const { return hash_words(k, key_words_); }

namespace {
// he_stat__add_cpumode_period(): PERF_RECORD_MISC_KERNEL, _USER, _GUEST_KERNEL, _GUEST_USER.
void add_cpumode_period(HistEntry& e, uint8_t cpumode, uint64_t period) {
  if (cpumode == 1) e.period_sys += period;
  if (cpumode == 2) e.period_us += period;
  if (cpumode == 4) e.period_guest_sys += period;
  if (cpumode == 5) e.period_guest_us += period;
}
}  // namespace

const CgroupTable& Hists::cgroups() const {
  static const CgroupTable kNone;
  return config_.cgroups ? *config_.cgroups : kNone;
}

std::string_view Hists::dso_name(const Dso* dso) const {
  if (!dso) return "";
  if (!config_.verbose) return dso->short_name;
  // sort.c _sort__dso_snprintf(): dso->long_name, a vmlinux's path once it was read.
  return dso->perf_long_name();
}

uint32_t Hists::intern_comm(std::string_view comm) {
  if (!comms_.empty() && comms_.back() == comm) return static_cast<uint32_t>(comms_.size() - 1);
  auto it = comm_ids_.find(std::string(comm));
  if (it != comm_ids_.end()) return it->second;
  uint32_t id = static_cast<uint32_t>(comms_.size());
  comms_.emplace_back(comm);
  comm_ids_.emplace(comms_.back(), id);
  return id;
}

uint32_t Hists::placeholder_comm(const Thread* t, std::string_view comm) {
  auto it = placeholder_ids_.find(t);
  if (it != placeholder_ids_.end()) return it->second;
  uint32_t id = static_cast<uint32_t>(comms_.size());
  comms_.emplace_back(comm);
  placeholder_ids_.emplace(t, id);
  return id;
}

void Hists::rename_placeholder_comms() {
  // thread.c ____thread__set_comm(): the thread's first comm is the placeholder, overridden in
  // place; one never renamed keeps its ":tid".
  std::unordered_map<uint32_t, uint32_t> remap;
  for (const auto& [thread, id] : placeholder_ids_) {
    std::string name = thread->comms.front().str;
    comms_[id] = name;
    auto [it, added] = comm_ids_.emplace(name, id);
    if (!added) remap.emplace(id, it->second);
  }
  placeholder_ids_.clear();
  if (remap.empty() || comm_word_ < 0) return;
  // hists__collapse_insert_entry(): entries equal under the final names become one, the stats
  // summed and the call chains merged into the first (with perf's own entries_in tree, when
  // finish() replays the collapse).
  std::unordered_map<uint64_t, std::vector<uint32_t>> by_hash;
  for (uint32_t id = 0; id < entries_.size(); ++id) {
    auto r = remap.find(entries_[id].comm);
    if (r != remap.end()) {
      entries_[id].comm = r->second;
      key_store_[id * key_words_ + comm_word_] = r->second;
    }
  }
  if (entries_in_) return;
  merged_.assign(entries_.size(), false);
  for (uint32_t id = 0; id < entries_.size(); ++id) {
    std::vector<uint32_t>& bucket = by_hash[key_hash(stored_key(id))];
    uint32_t into = kEmpty;
    for (uint32_t other : bucket) {
      if (same_key(stored_key(other), stored_key(id))) into = other;
    }
    if (into == kEmpty) {
      bucket.push_back(id);
      continue;
    }
    merge_entry(into, id);
  }
  // The lookup table is not used after finish(): rebuild it for what callers may still ask.
  table_.assign(table_.size(), kEmpty);
  size_t mask = table_.size() - 1;
  for (uint32_t id = 0; id < entries_.size(); ++id) {
    if (merged_[id]) continue;
    size_t i = key_hash(stored_key(id)) & mask;
    while (table_[i] != kEmpty) i = (i + 1) & mask;
    table_[i] = id;
  }
}

void Hists::merge_entry(uint32_t dst_id, uint32_t src_id) {
  HistEntry& dst = entries_[dst_id];
  HistEntry& src = entries_[src_id];
  dst.period += src.period;
  dst.nr_events += src.nr_events;
  dst.period_sys += src.period_sys;
  dst.period_us += src.period_us;
  dst.period_guest_sys += src.period_guest_sys;
  dst.period_guest_us += src.period_guest_us;
  dst.acc_period += src.acc_period;
  dst.acc_events += src.acc_events;
  // callchain.c callchain_merge() merges the branches only: dst's max_depth stays its own.
  if (config_.use_callchain) tree_.merge(dst.chain_root, src.chain_root);
  // Left in entries() with nothing: readers of every entry count it once.
  src.period = src.nr_events = src.acc_period = src.acc_events = 0;
  src.period_sys = src.period_us = src.period_guest_sys = src.period_guest_us = 0;
  if (merged_.empty()) merged_.assign(entries_.size(), false);
  merged_[src_id] = true;
}

uint32_t Hists::dso_name_id(const Dso* dso) {
  if (!dso) return 0;
  if (dso == last_dso_) return last_dso_id_;
  auto it = dso_ids_.find(dso);
  uint32_t id;
  if (it != dso_ids_.end()) {
    id = it->second;
  } else {
    // sort.c _sort__dso_cmp() compares names, so DSOs of one name share an id.
    std::string_view name = dso_name(dso);
    auto nit = dso_name_ids_.find(name);
    if (nit != dso_name_ids_.end()) {
      id = nit->second;
    } else {
      id = static_cast<uint32_t>(dso_names_.size());
      dso_names_.push_back(name);
      dso_name_ids_.emplace(name, id);
    }
    dso_ids_.emplace(dso, id);
  }
  last_dso_ = dso;
  last_dso_id_ = id;
  return id;
}

uint32_t Hists::parent_name_id(const Symbol* parent) {
  if (!parent) return 0;
  auto [it, added] =
      parent_name_ids_.emplace(parent->name, static_cast<uint32_t>(parent_name_ids_.size() + 1));
  return it->second;
}

Hists::Key Hists::make_key(uint32_t comm, const Thread* t, const HistFrame& f, uint64_t ip,
                           uint32_t dso_id, const HistSample& s) {
  // The words hist_entry__cmp() compares, one group per sort key: entries with equal words
  // are the entries perf merges. Key holds every key once (duplicate keys are dropped;
  // ipc_null and ipc_lbr compare as symbol does).
  Key k;
  size_t n = 0;
  bool sym_done = false;
  static const BranchInfo kNoBranch;
  const BranchInfo& b = s.branch ? *s.branch : kNoBranch;
  for (SortKey key : config_.sort.keys) {
    switch (key) {
      case SortKey::kPid:
        k.w[n++] = static_cast<uint32_t>(t ? t->tid : -1);
        break;
      case SortKey::kComm:
        k.w[n++] = comm;
        break;
      case SortKey::kDso:
        k.w[n++] = dso_id;
        break;
      case SortKey::kSrcline:
        k.w[n++] = reinterpret_cast<uintptr_t>(f.srcline.data());
        break;
      case SortKey::kTrace:
        k.w[n++] = reinterpret_cast<uintptr_t>(s.trace.data());
        break;
      case SortKey::kCpu:
        k.w[n++] = s.cpu;
        break;
      case SortKey::kTime:
        k.w[n++] = s.time;
        break;
      case SortKey::kSymbolSize:
        k.w[n++] = f.chain.sym ? f.chain.sym->end - f.chain.sym->start : 0;
        break;
      case SortKey::kSocket:
        k.w[n++] = static_cast<uint32_t>(s.socket);
        break;
      case SortKey::kDsoSize:
        k.w[n++] = f.map_size;
        break;
      case SortKey::kParent:
        k.w[n++] = parent_name_id(s.parent);
        break;
      case SortKey::kSrcfile:
        k.w[n++] = reinterpret_cast<uintptr_t>(f.srcfile.data());
        break;
      case SortKey::kLocalWeight:
      case SortKey::kWeight:
      case SortKey::kLocalInsLat:
      case SortKey::kInsLat:
      case SortKey::kLocalPStageCyc:
      case SortKey::kPStageCyc:
      case SortKey::kCodePageSize:
        k.w[n++] = sample_value(key, s.values);
        break;
      case SortKey::kTransaction:
        k.w[n++] = s.transaction;
        break;
      case SortKey::kCgroup:
        k.w[n++] = s.cgroup;
        break;
      case SortKey::kCgroupId:
        k.w[n++] = s.cgroup_ns_dev;
        k.w[n++] = s.cgroup_ns_ino;
        break;
      case SortKey::kAddr:
        k.w[n++] = f.unmapped_ip;
        break;
      case SortKey::kDsoDaddr:
        k.w[n++] = s.mem ? dso_name_id(s.mem->daddr.dso) : 0;
        break;
      case SortKey::kDcacheline:
        if (s.mem) {
          put_dcacheline_key(k.w + n, *s.mem, s.cpumode, t);
        } else {
          std::fill_n(k.w + n, kDcachelineWords, 0);
        }
        n += kDcachelineWords;
        break;
      case SortKey::kSymbolDaddr:
      case SortKey::kSymbolIaddr:
      case SortKey::kLocked:
      case SortKey::kTlb:
      case SortKey::kMem:
      case SortKey::kSnoop:
      case SortKey::kPhysDaddr:
      case SortKey::kDataPageSize:
      case SortKey::kBlocked:
        k.w[n++] = s.mem ? mem_key_value(key, *s.mem) : 0;
        break;
      case SortKey::kDsoFrom:
        k.w[n++] = dso_name_id(b.from.dso);
        break;
      case SortKey::kDsoTo:
        k.w[n++] = dso_name_id(b.to.dso);
        break;
      case SortKey::kSymFrom:
        put_branch_sym(k.w + n, b.from);
        n += 2;
        break;
      case SortKey::kSymTo:
        put_branch_sym(k.w + n, b.to);
        n += 2;
        break;
      case SortKey::kAddrFrom:
        k.w[n++] = dso_name_id(b.from.dso);
        k.w[n++] = b.from.addr;
        break;
      case SortKey::kAddrTo:
        k.w[n++] = dso_name_id(b.to.dso);
        k.w[n++] = b.to.addr;
        break;
      case SortKey::kMispredict:
        // sort.c sort__mispredict_cmp(): equal when both bits are.
        k.w[n++] = b.flags & 3;
        break;
      case SortKey::kInTx:
        k.w[n++] = b.in_tx();
        break;
      case SortKey::kAbort:
        k.w[n++] = b.abort();
        break;
      case SortKey::kCycles:
        k.w[n++] = b.cycles();
        break;
      case SortKey::kSrclineFrom:
        k.w[n++] = reinterpret_cast<uintptr_t>(b.from.srcline.data());
        break;
      case SortKey::kSrclineTo:
        k.w[n++] = reinterpret_cast<uintptr_t>(b.to.srcline.data());
        break;
      default:
        if (is_dynamic_key(key)) k.w[n++] = dynamic_word(key, s.raw);
        break;
      case SortKey::kSymbol:
      case SortKey::kIpcNull:
      case SortKey::kIpcLbr:
        if (sym_done) break;
        sym_done = true;
        if (const Symbol* s = f.chain.sym) {
          // sort.c sort__sym_cmp(): without a dso key the dso comes first.
          // sort.c _sort__sym_cmp(): an inline frame's symbol compares by name first.
          k.w[n++] = (s->inlined ? 3 : 1) | (has_dso_key_ ? 0 : uint64_t{dso_id} << 2);
          k.w[n++] = s->inlined ? s->start ^ name_hash(s->name) : s->start;
          k.w[n++] = s->end;
        } else {
          k.w[n++] = 0;
          k.w[n++] = ip;
          k.w[n++] = 0;
        }
        break;
    }
  }
  return k;
}

void Hists::grow_table() {
  std::vector<uint32_t> old = std::move(table_);
  table_.assign(old.size() * 2, kEmpty);
  size_t mask = table_.size() - 1;
  for (uint32_t id : old) {
    if (id == kEmpty) continue;
    size_t i = key_hash(stored_key(id)) & mask;
    while (table_[i] != kEmpty) i = (i + 1) & mask;
    table_[i] = id;
  }
}

uint32_t Hists::findnew(const Key& key, const HistSample& s, const HistFrame& f, uint64_t ip,
                        uint32_t comm, bool& created) {
  ++lookups_;
  if (!entries_in_ && f.chain.sym && f.chain.sym->inlined && config_.children && has_sym_key_ &&
      !config_.branch_mode) {
    start_entries_in();
  }
  if (entries_in_) {
    uint32_t cand = stage(s, f, ip, comm);
    return place(cand, key, s, f, created);
  }
  size_t mask = table_.size() - 1;
  size_t i = key_hash(key.w) & mask;
  for (;; i = (i + 1) & mask) {
    uint32_t id = table_[i];
    if (id == kEmpty) break;
    if (same_key(stored_key(id), key.w)) {
      created = false;
      return id;
    }
  }
  created = true;
  return commit(stage(s, f, ip, comm), key, s);
}

uint32_t Hists::stage(const HistSample& s, const HistFrame& f, uint64_t ip, uint32_t comm) {
  uint32_t id = static_cast<uint32_t>(entries_.size());
  HistEntry& e = entries_.emplace_back();
  e.thread = s.thread;
  e.comm = comm;
  e.dso = f.chain.dso;
  e.sym = f.chain.sym;
  e.ip = ip;
  if (f.chain.sym) e.sym_base = f.chain.ip - (f.sym_addr - f.chain.sym->start);
  e.level = f.level;
  e.cpumode = s.cpumode;
  e.srcline = f.srcline;
  e.trace = s.trace;
  if (!config_.sort.dynamic.empty()) e.raw = intern_raw(s.raw);
  e.cpu = s.cpu;
  e.socket = s.socket;
  e.map_size = f.map_size;
  e.parent = s.parent;
  e.srcfile = f.srcfile;
  e.time = s.time;
  e.filtered = s.filtered;
  e.map_id = f.map_id;
  e.values = s.values;
  e.transaction = s.transaction;
  e.cgroup = s.cgroup;
  e.cgroup_ns_dev = s.cgroup_ns_dev;
  e.cgroup_ns_ino = s.cgroup_ns_ino;
  e.unmapped_ip = f.unmapped_ip;
  return id;
}

uint32_t Hists::commit(uint32_t id, const Key& key, const HistSample& s) {
  HistEntry& e = entries_[id];
  if (config_.use_callchain) e.chain_root = tree_.new_root();
  if (config_.branch_mode) branches_.push_back(s.branch ? *s.branch : BranchInfo{});
  if (config_.mem_mode) mems_.push_back(s.mem ? *s.mem : MemSample{});
  key_store_.insert(key_store_.end(), key.w, key.w + key_words_);
  size_t mask = table_.size() - 1;
  size_t i = key_hash(key.w) & mask;
  while (table_[i] != kEmpty) i = (i + 1) & mask;
  table_[i] = id;
  if (entries_.size() * 2 > table_.size()) grow_table();
  return id;
}

void Hists::start_entries_in() {
  // The entries so far went into perf's tree one by one, each compared on its way down with
  // a consistent order (only inline symbols and what they turn into break it), and found
  // again by lookups that never missed: replaying their insertions rebuilds that tree.
  entries_in_ = std::make_unique<RbOrder>();
  for (uint32_t id = 0; id < entries_.size(); ++id) {
    entries_in_->insert(id, [&](uint32_t other) { return collapse_cmp(other, id) < 0; });
  }
}

uint32_t Hists::place(uint32_t cand, const Key& key, const HistSample& s, const HistFrame& f,
                      bool& created) {
  // hist.c hists__findnew_entry() on hists->entries_in itself: the walk down by
  // hist_entry__cmp(iter, new), which inline symbols make no order (sort.c _sort__sym_cmp()
  // compares them by name, other symbols by address), so a walk may miss an equal entry and
  // add another; the candidate is dropped when one is met.
  uint32_t hit = entries_in_->find([&](uint32_t other) { return collapse_cmp(other, cand); });
  if (hit == RbOrder::kNil) {
    created = true;
    entries_in_->insert(cand, [&](uint32_t other) { return collapse_cmp(other, cand) < 0; });
    return commit(cand, key, s);
  }
  entries_.pop_back();
  created = false;
  HistEntry& e = entries_[hit];
  if (has_sym_key_ && e.map_id != f.map_id) {
    // An entry met through another map than its own takes the new map, and its symbol
    // becomes map__find_symbol(new map, sym->start). For an inline frame's symbol
    // (srcline.c new_inline_sym(): the range of the function it is inlined into) that is
    // the function itself: the entry, and the period this frame brings, go to the
    // function's name from now on, and the inline frame's next visit makes a new entry.
    // Each process has maps of its own: whenever two processes of one command meet an
    // inline frame in turn, perf 6.1's --children moves its period to the function.
    e.map_id = f.map_id;
    if (e.sym && e.sym->inlined && f.enclosing_sym) e.sym = f.enclosing_sym;
  }
  return hit;
}

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

int Hists::collapse_cmp(const Hists& hx, uint32_t x_id, const Hists& hy, uint32_t y_id) {
  // hist_entry__cmp(x, y) (and hist_entry__collapse(), the same for these keys): positive
  // when x sorts before y.
  for (SortKey key : hx.config_.sort.keys) {
    if (int c = key_collapse_cmp(key, hx, x_id, hy, y_id)) return c;
  }
  return 0;
}

int Hists::key_collapse_cmp(SortKey key, const Hists& hx, uint32_t x_id, const Hists& hy,
                            uint32_t y_id) {
  const HistEntry& x = hx.entries_[x_id];
  const HistEntry& y = hy.entries_[y_id];
  auto dso_cmp = [&] {
    if (!x.dso || !y.dso) return cmp_null(x.dso, y.dso);
    return name_cmp(hy.dso_name(y.dso), hx.dso_name(x.dso));
  };
  int c = 0;
  {
    switch (key) {
      case SortKey::kPid:
        // sort.c sort__thread_cmp(): right's tid minus left's.
        c = x.thread->tid < y.thread->tid ? 1 : x.thread->tid > y.thread->tid ? -1 : 0;
        break;
      case SortKey::kComm:
        c = name_cmp(hy.comms_[y.comm], hx.comms_[x.comm]);
        break;
      case SortKey::kSrcline:
        // sort.c sort__srcline_cmp(): strcmp(right->srcline, left->srcline).
        c = name_cmp(y.srcline, x.srcline);
        break;
      case SortKey::kTrace:
        // sort.c sort__trace_cmp(): strcmp(right, left); 0 for other events.
        if (x.trace.data() && y.trace.data()) c = name_cmp(y.trace, x.trace);
        break;
      case SortKey::kCpu:
      case SortKey::kTime:
      case SortKey::kSymbolSize:
      case SortKey::kSocket:
      case SortKey::kDsoSize:
      case SortKey::kParent:
      case SortKey::kSrcfile:
      case SortKey::kTransaction:
      case SortKey::kCgroupId:
      case SortKey::kCgroup:
      case SortKey::kAddr:
        c = value_key_cmp(key, x, y);
        break;
      case SortKey::kDso:
        c = dso_cmp();
        break;
      case SortKey::kSymbol:
      case SortKey::kIpcNull:
      case SortKey::kIpcLbr:
        if (!x.sym && !y.sym) {
          c = sign64(static_cast<int64_t>(y.ip - x.ip));
          break;
        }
        if (!hx.has_dso_key_) {  // sort.c sort__sym_cmp(): without --sort dso, the DSO first
          c = dso_cmp();
          if (c) break;
        }
        if (!x.sym || !y.sym) {
          c = cmp_null(x.sym, y.sym);
        } else if (x.sym != y.sym) {
          if (x.sym->inlined || y.sym->inlined) {
            // _sort__sym_cmp(): "strcmp(sym_l->name, sym_r->name)", then overlap is equal.
            c = name_cmp(x.sym->name, y.sym->name);
            if (c) break;
            if (x.sym->start <= y.sym->end && x.sym->end >= y.sym->start) break;
          }
          c = sign64(static_cast<int64_t>(y.sym->start - x.sym->start));
          if (!c) c = sign64(static_cast<int64_t>(y.sym->end - x.sym->end));
        }
        break;
      default:
        c = is_dynamic_key(key)        ? hx.dynamic_cmp(key, x, y)
            : is_sample_value_key(key) ? value_key_cmp(key, x, y)
            : is_mem_key(key)          ? mem_cmp(key, hx, x_id, hy, y_id)
                                       : branch_cmp(key, hx, x_id, hy, y_id);
        break;
    }
  }
  return c;
}

int Hists::branch_cmp(SortKey key, const Hists& hx, uint32_t x_id, const Hists& hy, uint32_t y_id) {
  // The bstack se_cmp functions of sort.c, cmp(left = x, right = y).
  const BranchInfo& x = hx.branches_[x_id];
  const BranchInfo& y = hy.branches_[y_id];
  // _sort__dso_cmp(map_l, map_r): "cmp_null(dso_r, dso_l)" without both, then
  // strcmp(left, right) of the names.
  auto dso_cmp = [&](const BranchAddr& l, const BranchAddr& r) {
    if (!l.dso || !r.dso) return cmp_null(r.dso, l.dso);
    return name_cmp(hx.dso_name(l.dso), hy.dso_name(r.dso));
  };
  // sort__sym_from_cmp(): addresses (right's minus left's) when neither has a symbol.
  auto end_cmp = [](const BranchAddr& l, const BranchAddr& r) {
    if (!l.sym && !r.sym) return sign64(static_cast<int64_t>(r.addr - l.addr));
    return sym_cmp(l.sym, r.sym);
  };
  auto addr_cmp = [&](const BranchAddr& l, const BranchAddr& r) {
    int c = dso_cmp(l, r);
    return c ? c : sign64(static_cast<int64_t>(r.addr - l.addr));
  };
  switch (key) {
    case SortKey::kDsoFrom:
      return dso_cmp(x.from, y.from);
    case SortKey::kDsoTo:
      return dso_cmp(x.to, y.to);
    case SortKey::kSymFrom:
      return end_cmp(x.from, y.from);
    case SortKey::kSymTo:
      return end_cmp(x.to, y.to);
    case SortKey::kAddrFrom:
      return addr_cmp(x.from, y.from);
    case SortKey::kAddrTo:
      return addr_cmp(x.to, y.to);
    case SortKey::kMispredict:
      // "mp || p": 1 whenever they differ.
      return (x.flags & 3) != (y.flags & 3);
    case SortKey::kInTx:
      return x.in_tx() != y.in_tx();
    case SortKey::kAbort:
      return x.abort() != y.abort();
    case SortKey::kCycles:
      return sign64(int64_t{x.cycles()} - int64_t{y.cycles()});
    case SortKey::kSrclineFrom:
      return name_cmp(y.from.srcline, x.from.srcline);
    case SortKey::kSrclineTo:
      return name_cmp(y.to.srcline, x.to.srcline);
    default:
      return 0;
  }
}

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

int Hists::output_cmp(uint32_t a_id, uint32_t b_id) const {
  // hist_entry__sort(): each field of the sort list in turn, elided columns skipped; a
  // positive result puts `a` first.
  const HistEntry& a = entries_[a_id];
  const HistEntry& b = entries_[b_id];
  int c = 0;
  for (const HistField& f : config_.sort.sort_list) {
    switch (f.hpp) {
      case HppField::kOverheadChildren:
        // ui/hist.c __hpp__sort_acc(): no order without cumulated call chains.
        if (!config_.children) {
          c = 0;
          break;
        }
        c = field_cmp(a.acc_period, b.acc_period);
        if (c) return c;
        // ui/hist.c __hpp__sort_acc(): "put caller above callee when they have equal period".
        if (a.thread == b.thread && config_.use_callchain) {
          int64_t d = static_cast<int64_t>(b.max_depth) - static_cast<int64_t>(a.max_depth);
          if (config_.caller_order) d = -d;
          c = sign64(d);
        }
        break;
      case HppField::kOverhead:
      case HppField::kPeriod:
        c = group_cmp(a_id, b_id, &HistEntry::period);
        break;
      case HppField::kOverheadSys:
        c = group_cmp(a_id, b_id, &HistEntry::period_sys);
        break;
      case HppField::kOverheadUs:
        c = group_cmp(a_id, b_id, &HistEntry::period_us);
        break;
      case HppField::kOverheadGuestSys:
        c = group_cmp(a_id, b_id, &HistEntry::period_guest_sys);
        break;
      case HppField::kOverheadGuestUs:
        c = group_cmp(a_id, b_id, &HistEntry::period_guest_us);
        break;
      case HppField::kSamples:
        c = group_cmp(a_id, b_id, &HistEntry::nr_events);
        break;
      case HppField::kSortKey:
        if (config_.sort.is_elided(f.key)) continue;
        c = sort_key_cmp(f.key, a_id, b_id);
        break;
    }
    if (c) return c;
  }
  return 0;
}

int Hists::sort_key_cmp(SortKey key, uint32_t a_id, uint32_t b_id) const {
  // The keys' se_sort (se_cmp where there is none).
  const HistEntry& a = entries_[a_id];
  const HistEntry& b = entries_[b_id];
  switch (key) {
    case SortKey::kPid:
      return a.thread->tid < b.thread->tid ? 1 : a.thread->tid > b.thread->tid ? -1 : 0;
    case SortKey::kComm:
      return name_cmp(comms_[b.comm], comms_[a.comm]);
    case SortKey::kSrcline:
      return name_cmp(b.srcline, a.srcline);
    case SortKey::kTrace:
      // sort.c sort__trace_cmp(): strcmp(right, left); 0 for other events.
      if (!a.trace.data() || !b.trace.data()) return 0;
      return name_cmp(b.trace, a.trace);
    case SortKey::kDso:
      if (!a.dso || !b.dso) return cmp_null(a.dso, b.dso);
      return name_cmp(dso_name(b.dso), dso_name(a.dso));
    case SortKey::kSymbol:
      // sort.c sort__sym_sort(): by name; entries without a symbol tie.
      if (!a.sym || !b.sym) return cmp_null(a.sym, b.sym);
      return name_cmp(b.sym->name, a.sym->name);
    case SortKey::kIpcNull:
    case SortKey::kIpcLbr:
      // No se_sort: sort__sym_cmp(), the collapse order.
      return collapse_cmp(a_id, b_id);
    case SortKey::kCpu:
    case SortKey::kTime:
    case SortKey::kSymbolSize:
    case SortKey::kSocket:
    case SortKey::kDsoSize:
    case SortKey::kParent:
    case SortKey::kSrcfile:
    case SortKey::kTransaction:
    case SortKey::kCgroupId:
    case SortKey::kCgroup:
    case SortKey::kAddr:
      return value_key_cmp(key, a, b);
    default:
      if (is_dynamic_key(key)) return dynamic_cmp(key, a, b);
      if (is_sample_value_key(key)) return value_key_cmp(key, a, b);
      // The memory keys have no se_sort either.
      if (is_mem_key(key)) return mem_cmp(key, *this, a_id, *this, b_id);
      // The branch keys have no se_sort either.
      return branch_cmp(key, *this, a_id, *this, b_id);
  }
}

void Hists::finish() {
  rename_placeholder_comms();
  // With perf's entries_in tree kept (start_entries_in()), its order is the one the lookups
  // made, and the collapse merges what it finds equal (hists__collapse_insert_entry():
  // duplicates the inexact lookups added, inline entries now their function's).
  std::vector<uint32_t> kept_order;
  if (entries_in_) {
    kept_order = entries_in_->in_order();
    if (config_.sort.has(SortKey::kComm)) {
      RbOrder collapsed;
      for (uint32_t id : kept_order) {
        uint32_t hit = collapsed.find([&](uint32_t other) { return collapse_cmp(other, id); });
        if (hit != RbOrder::kNil) {
          merge_entry(hit, id);
          continue;
        }
        collapsed.insert(id, [&](uint32_t other) { return collapse_cmp(other, id) < 0; });
      }
      kept_order = collapsed.in_order();
    }
  }
  tree_.finish();
  // --hierarchy: hists__collapse_resort() inserts the entries of hists->entries_in, in that
  // tree's order and with the filter bits the samples gave them, level by level.
  std::vector<uint32_t> entries_in;
  std::vector<uint8_t> sample_filtered;
  if (config_.hierarchy) {
    RbOrder tree;
    for (uint32_t i = 0; i < entries_.size(); ++i) {
      if (!merged_.empty() && merged_[i]) continue;
      tree.insert(i, [&](uint32_t other) { return collapse_cmp(other, i) < 0; });
    }
    entries_in = tree.in_order();
    for (const HistEntry& e : entries_) sample_filtered.push_back(e.filtered);
  }
  // hists__collapse_resort() applies hists__filter_entry_by_symbol() only when the sort
  // list needs collapsing: sort_comm is the one key with se_collapse.
  bool need_collapse = false;
  for (const HistField& f : config_.sort.sort_list) {
    if (f.hpp == HppField::kSortKey && f.key == SortKey::kComm) need_collapse = true;
  }
  if (!config_.symbol_filter.empty() && need_collapse) {
    for (HistEntry& e : entries_) {
      if (!e.sym || e.sym->name.find(config_.symbol_filter) == std::string_view::npos) {
        e.filtered |= kHistFilterSymbol;
      }
    }
  }
  // hists__filter_entry_by_socket(), in the same hists__apply_filters().
  if (config_.socket_filter > -1 && need_collapse) {
    for (HistEntry& e : entries_) {
      if (e.socket != config_.socket_filter) e.filtered |= kHistFilterSocket;
    }
  }
  // The entries samples made; link_group()'s dummies come after them.
  order_.clear();
  std::vector<uint32_t> dummies;
  for (uint32_t i = 0; i < entries_.size(); ++i) {
    if (!merged_.empty() && merged_[i]) continue;
    (i < linked_from_ ? order_ : dummies).push_back(i);
  }
  // hist.c hists__findnew_entry(): each entry went into hists->entries_in when it first came,
  // down the tree by hist_entry__cmp(iter, new) ("if (cmp < 0) p = &(*p)->rb_left"); then
  // hists__collapse_resort() walked that tree in order into hists->entries_collapsed the same
  // way, when a sort key has se_collapse (only comm's, sort.c). The comparison is no order
  // (sort__sym_cmp() subtracts ips as (int64_t)(right - left), which wraps for addresses
  // 2^63 or more apart), so the trees are replayed, not sorted: the order of unresolved
  // garbage addresses is then perf's.
  auto replay_tree = [this](const std::vector<uint32_t>& in) {
    RbOrder tree;
    for (uint32_t id : in) {
      tree.insert(id, [&](uint32_t other) { return collapse_cmp(other, id) < 0; });
    }
    return tree.in_order();
  };
  // hists__add_dummy_entry() inserts the group's dummies into the last of those trees.
  if (entries_in_) {
    order_ = std::move(kept_order);
    if (!dummies.empty()) {
      order_.insert(order_.end(), dummies.begin(), dummies.end());
      order_ = replay_tree(order_);
    }
  } else {
    if (config_.sort.has(SortKey::kComm)) order_ = replay_tree(order_);
    order_.insert(order_.end(), dummies.begin(), dummies.end());
    order_ = replay_tree(order_);
  }
  // Then perf's output tree replayed: each entry of the collapsed tree goes left of the
  // entries it sorts before, right otherwise.
  RbOrder out;
  for (uint32_t id : order_) {
    out.insert(id, [&](uint32_t other) { return output_cmp(id, other) > 0; });
  }
  order_ = out.in_order();
  // output_resort()'s hists__inc_stats(): the period of the entries no filter hides.
  total_non_filtered_period_ = 0;
  for (const HistEntry& e : entries_) {
    if (!e.filtered) total_non_filtered_period_ += e.period;
  }
  if (config_.hierarchy) {
    build_hierarchy(entries_in, sample_filtered);
    // hist.c hierarchy_recalc_total_periods(): the top level's entries only, since a lower
    // level sees only what no filter hid but an upper one sums both; what --percentage
    // relative divides by.
    // The Event count too: 0 when no key applies to the event (no level, no entry).
    total_period_ = 0;
    total_non_filtered_period_ = 0;
    for (uint32_t root : hierarchy_roots_) {
      const HistEntry& e = entries_[hierarchy_[root].entry];
      total_period_ += e.period;
      if (!e.filtered) total_non_filtered_period_ += e.period;
    }
  }
}

std::string_view Hists::intern_raw(std::string_view raw) { return *raw_store_.emplace(raw).first; }

// sort.c __sort__hde_cmp()'s bytes: the field's, or a dynamic field's data (where its
// __data_loc word says, from `raw`'s own word).
std::string_view dynamic_field_bytes(const TracepointField& f, std::string_view raw) {
  uint64_t offset = f.offset;
  uint64_t size = f.size;
  if (f.is_dynamic) {
    uint32_t word = 0;
    if (f.offset + 4 <= raw.size()) std::memcpy(&word, raw.data() + f.offset, 4);
    offset = word & 0xffff;
    size = (word >> 16) & 0xffff;
    if (f.is_relative) offset += f.offset + f.size;
  }
  if (offset >= raw.size()) return {};
  return raw.substr(offset, std::min<uint64_t>(size, raw.size() - offset));
}

uint64_t Hists::dynamic_word(SortKey key, std::string_view raw) {
  const DynamicField& d = config_.sort.dynamic[dynamic_index(key)];
  // perf_hpp__defined_dynamic_entry(): another event's field is no key here.
  if (d.event != config_.event) return 0;
  return reinterpret_cast<uintptr_t>(
      field_store_.emplace(dynamic_field_bytes(d.field, raw)).first->data());
}

int Hists::dynamic_cmp(SortKey key, const HistEntry& a, const HistEntry& b, bool any_event) const {
  const DynamicField& d = config_.sort.dynamic[dynamic_index(key)];
  if (d.event != config_.event && !any_event) return 0;
  // __sort__hde_cmp(): memcmp(a's bytes, b's bytes at a's place and size); a dynamic field's
  // size widens its column (hde->dynamic_len) only where perf compares.
  std::string_view x = dynamic_field_bytes(d.field, a.raw);
  // Another event's field past the end of a's raw data: perf's memcmp reads beyond it
  // (whatever lies there); readperf counts that as a difference.
  if (d.event != config_.event && !d.field.is_dynamic && x.size() < d.field.size) return 1;
  if (d.field.is_dynamic) {
    if (dynamic_len_.size() <= dynamic_index(key)) dynamic_len_.resize(dynamic_index(key) + 1);
    size_t& len = dynamic_len_[dynamic_index(key)];
    len = std::max(len, x.size());
  }
  const char* base = a.raw.data();
  const size_t at = x.data() && base ? static_cast<size_t>(x.data() - base) : 0;
  std::string_view y = at < b.raw.size() ? b.raw.substr(at, x.size()) : std::string_view();
  const size_t n = std::min(x.size(), y.size());
  int c = n ? std::memcmp(x.data(), y.data(), n) : 0;
  if (!c && x.size() != y.size()) c = x.size() < y.size() ? -1 : 1;
  return c < 0 ? -1 : c > 0 ? 1 : 0;
}

}  // namespace readperf
