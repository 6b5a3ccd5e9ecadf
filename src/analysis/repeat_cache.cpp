#include "readperf/analysis/repeat_cache.h"

#include <cstring>

namespace readperf {

namespace {

// Bounds on what one cache may hold; past them it starts over.
constexpr size_t kMaxKeyWords = size_t{8} << 20;
constexpr size_t kMaxSlotsUsed = size_t{1} << 20;

inline uint64_t step(uint64_t h, uint64_t w) {
  h ^= w;
  h *= 0x9e3779b97f4a7c15ull;
  return h ^ (h >> 29);
}

}  // namespace

uint64_t RepeatCache::hash(std::span<const uint64_t> key) {
  uint64_t h = 0x243f6a8885a308d3ull;
  for (uint64_t w : key) h = step(h, w);
  return step(h, key.size());
}

bool RepeatCache::matches(const Slot& s, uint64_t hash, std::span<const uint64_t> key) const {
  return s.hash == hash && s.key_len == key.size() &&
         std::memcmp(keys_.data() + s.key, key.data(), key.size() * 8) == 0;
}

std::span<const uint32_t> RepeatCache::find(uint64_t hash, std::span<const uint64_t> key) const {
  size_t mask = slots_.size() - 1;
  for (size_t i = hash & mask;; i = (i + 1) & mask) {
    const Slot& s = slots_[i];
    if (!s.used) return {};
    if (matches(s, hash, key)) return {plans_.data() + s.plan, s.plan_len};
  }
}

void RepeatCache::insert(uint64_t hash, std::span<const uint64_t> key,
                         std::span<const uint32_t> plan) {
  if (keys_.size() > kMaxKeyWords || used_ > kMaxSlotsUsed) clear();
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
  for (Slot& s : slots_) s.used = false;
  keys_.clear();
  plans_.clear();
  used_ = 0;
}

}  // namespace readperf
