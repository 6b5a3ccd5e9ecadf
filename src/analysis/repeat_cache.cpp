#include "readperf/analysis/repeat_cache.h"

#include <algorithm>

// Header-only: the hash inlines into the lookup (Debian's libxxhash-dev).
#define XXH_INLINE_ALL
#include <xxhash.h>

namespace readperf {

namespace {

// Bounds on what one cache may hold; past them it starts over.
constexpr size_t kMaxPlanWords = size_t{8} << 20;
constexpr size_t kMaxEntries = size_t{1} << 20;
constexpr size_t kReservedPlanWords = size_t{1} << 20;
constexpr size_t kReservedEntries = size_t{1} << 18;

}  // namespace

RepeatCache::RepeatCache() {
  // Address space only: untouched capacity costs no memory, and a buffer that never moves
  // is never copied or held twice while it grows (touching new memory is what costs most in
  // a virtual machine: the kernel zeroes it, the host backs it).
  plans_.reserve(kReservedPlanWords);
  entries_.reserve(kReservedEntries);
}

RepeatCache::Hash RepeatCache::hash(std::span<const uint64_t> key) {
  // XXH3 takes a sample's key (10 words on average) in a few independent multiplies, where
  // a word-at-a-time hash is a chain of dependent ones (9% of `report` before).
  XXH128_hash_t h = XXH3_128bits(key.data(), key.size() * sizeof(uint64_t));
  return Hash{h.low64, h.high64};
}

size_t RepeatCache::find_slot(const Hash& hash) const {
  const size_t mask = table_.size() - 1;
  const auto tag = static_cast<uint32_t>(hash.low >> 32);
  for (size_t i = hash.low & mask;; i = (i + 1) & mask) {
    const Slot s = table_[i];
    if (!s.entry_plus_one) return kNone;
    if (s.tag == tag && entries_[s.entry_plus_one - 1].hash == hash) {
      return s.entry_plus_one - 1;
    }
  }
}

std::span<const uint32_t> RepeatCache::find(const Hash& hash) const {
  size_t i = find_slot(hash);
  if (i == kNone) return {};
  return {plans_.data() + entries_[i].plan, entries_[i].plan_len};
}

bool RepeatCache::full() const {
  return plans_.size() > kMaxPlanWords || entries_.size() >= kMaxEntries;
}

void RepeatCache::grow_table() {
  std::vector<Slot> bigger(table_.size() * 2);
  const size_t mask = bigger.size() - 1;
  for (size_t e = 0; e < entries_.size(); ++e) {
    const Hash& h = entries_[e].hash;
    size_t i = h.low & mask;
    while (bigger[i].entry_plus_one) i = (i + 1) & mask;
    bigger[i] = Slot{static_cast<uint32_t>(e + 1), static_cast<uint32_t>(h.low >> 32)};
  }
  table_ = std::move(bigger);
}

void RepeatCache::add(const Hash& hash, std::span<const uint32_t> plan) {
  if ((entries_.size() + 1) * 2 > table_.size()) grow_table();
  const size_t mask = table_.size() - 1;
  size_t i = hash.low & mask;
  while (table_[i].entry_plus_one) i = (i + 1) & mask;
  Entry e;
  e.hash = hash;
  e.plan = static_cast<uint32_t>(plans_.size());
  e.plan_len = static_cast<uint32_t>(plan.size());
  plans_.insert(plans_.end(), plan.begin(), plan.end());
  entries_.push_back(e);
  table_[i] = Slot{static_cast<uint32_t>(entries_.size()), static_cast<uint32_t>(hash.low >> 32)};
}

void RepeatCache::clear() {
  if (entries_.empty()) return;
  std::fill(table_.begin(), table_.end(), Slot{});
  pending_ = false;
  entries_.clear();
  plans_.clear();
}

}  // namespace readperf
