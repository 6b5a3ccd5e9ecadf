#include "readperf/analysis/repeat_cache.h"

#include <cstring>

// Header-only: the hash inlines into the lookup (Debian's libxxhash-dev).
#define XXH_INLINE_ALL
#include <xxhash.h>

namespace readperf {

namespace {

// Bounds on what one cache may hold; past them it starts over.
constexpr size_t kMaxKeyWords = size_t{8} << 20;
constexpr size_t kMaxSlotsUsed = size_t{1} << 20;
constexpr size_t kReservedKeyWords = size_t{1} << 20;

}  // namespace

RepeatCache::RepeatCache() {
  // Address space only: untouched capacity costs no memory, and a buffer that never moves
  // is never copied or held twice while it grows (touching new memory is what costs most in
  // a virtual machine: the kernel zeroes it, the host backs it).
  keys_.reserve(kReservedKeyWords);
  plans_.reserve(kReservedKeyWords);
}

uint64_t RepeatCache::hash(std::span<const uint64_t> key) {
  // XXH3 takes a sample's key (10 words on average) in a few independent multiplies, where
  // a word-at-a-time hash is a chain of dependent ones (9% of `report` before).
  return XXH3_64bits(key.data(), key.size() * sizeof(uint64_t));
}

bool RepeatCache::matches(const Slot& s, uint64_t hash, std::span<const uint64_t> key) const {
  return s.hash == hash && s.key_len == key.size() &&
         std::memcmp(keys_.data() + s.key, key.data(), key.size() * 8) == 0;
}

size_t RepeatCache::find_slot(uint64_t hash, std::span<const uint64_t> key) const {
  size_t mask = slots_.size() - 1;
  for (size_t i = hash & mask;; i = (i + 1) & mask) {
    const Slot& s = slots_[i];
    if (!s.used) return kNone;
    if (matches(s, hash, key)) return i;
  }
}

std::span<const uint32_t> RepeatCache::find(uint64_t hash, std::span<const uint64_t> key) const {
  size_t i = find_slot(hash, key);
  if (i == kNone) return {};
  return {plans_.data() + slots_[i].plan, slots_[i].plan_len};
}

bool RepeatCache::full() const { return keys_.size() > kMaxKeyWords || used_ > kMaxSlotsUsed; }

void RepeatCache::add(uint64_t hash, std::span<const uint64_t> key,
                      std::span<const uint32_t> plan) {
  if ((used_ + 1) * 2 > slots_.size()) {
    std::vector<Slot> old = std::move(slots_);
    slots_.assign(old.size() * 2, Slot{});
    size_t mask = slots_.size() - 1;
    for (const Slot& s : old) {
      if (!s.used) continue;
      size_t i = s.hash & mask;
      while (slots_[i].used) i = (i + 1) & mask;
      slots_[i] = s;
    }
  }
  size_t mask = slots_.size() - 1;
  size_t i = hash & mask;
  while (slots_[i].used) i = (i + 1) & mask;
  Slot& s = slots_[i];
  s.used = true;
  s.hash = hash;
  s.key = static_cast<uint32_t>(keys_.size());
  s.key_len = static_cast<uint32_t>(key.size());
  keys_.insert(keys_.end(), key.begin(), key.end());
  s.plan = static_cast<uint32_t>(plans_.size());
  s.plan_len = static_cast<uint32_t>(plan.size());
  plans_.insert(plans_.end(), plan.begin(), plan.end());
  ++used_;
}

void RepeatCache::clear() {
  if (!used_) return;
  for (Slot& s : slots_) s = Slot{};
  pending_ = false;
  keys_.clear();
  plans_.clear();
  used_ = 0;
}

}  // namespace readperf
