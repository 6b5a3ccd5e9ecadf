// An entry found or inserted (hist.c hists__findnew_entry()): the key words of the sort keys
// (make_key(), what hist_entry__cmp() compares), the flat lookup table, and perf's own
// entries_in tree once inline symbols make its comparison no order.
#include <algorithm>

#include "hist_internal.h"
#include "hist_keys.h"
#include "rb_order.h"
#include "readperf/analysis/hist.h"
#include "readperf/session/thread.h"
#include "readperf/symbols/symbol_table.h"

namespace readperf {

namespace {

// What a branch end adds to an entry's key: the symbol's extent, or the address.
void put_branch_sym(uint64_t* w, const BranchAddr& a) {
  w[0] = a.sym ? a.sym->start : a.addr;
  w[1] = a.sym ? a.sym->end : ~0ull;
}

}  // namespace

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

}  // namespace readperf
