// Hists itself: its configuration (setup_sorting()'s default layout), the key words each sort
// key takes and their hash, and the names entries share by id (comms, DSOs, parents).
#include "readperf/analysis/hist.h"

#include <cstring>

#include "hist_internal.h"
#include "hist_keys.h"
#include "rb_order.h"
#include "readperf/format/hash_mix.h"
#include "readperf/session/cgroups.h"
#include "readperf/session/dso.h"
#include "readperf/symbols/symbol_table.h"

namespace readperf {

namespace {

uint64_t hash_words(const uint64_t* w, size_t n) {
  uint64_t h = 0x9e3779b97f4a7c15ull;
  for (size_t i = 0; i < n; ++i) h = hash_mix(h, w[i]);
  return hash_finish(h);
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

}  // namespace readperf
