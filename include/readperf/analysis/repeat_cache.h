// Remembers what a sample did to a histogram, keyed by the words that decide it, so the next
// sample with the same words replays it. Two keys are used: the raw sample (thread, ip and
// call-chain words: a hot loop sampled again, replayed without resolving an address) and the
// resolved one (thread, then DSO and symbol of every frame: other ips in the same functions,
// replayed without walking the call trees). Valid while the Machine does not change: the
// owner clears it on every record that could (MMAP, COMM, FORK, EXIT, KSYMBOL).
//
//   RepeatCache cache;
//   uint64_t h = RepeatCache::hash(key_words);
//   if (auto plan = cache.find(h, key_words); !plan.empty()) replay(plan);
//   else { ...; cache.insert(h, key_words, plan_words); }
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace readperf {

class RepeatCache {
 public:
  static uint64_t hash(std::span<const uint64_t> key);

  // The plan stored for this key, or an empty span.
  std::span<const uint32_t> find(uint64_t hash, std::span<const uint64_t> key) const;
  void insert(uint64_t hash, std::span<const uint64_t> key, std::span<const uint32_t> plan);
  void clear();
  bool empty() const { return used_ == 0; }

 private:
  struct Slot {
    uint64_t hash = 0;
    uint32_t key = 0;  // offset in keys_ (words)
    uint32_t key_len = 0;
    uint32_t plan = 0;  // offset in plans_
    uint32_t plan_len = 0;
    bool used = false;
  };
  bool matches(const Slot& s, uint64_t hash, std::span<const uint64_t> key) const;

  std::vector<Slot> slots_ = std::vector<Slot>(4096);
  std::vector<uint64_t> keys_;
  std::vector<uint32_t> plans_;
  size_t used_ = 0;
};

}  // namespace readperf
