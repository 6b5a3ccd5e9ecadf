// Remembers what a sample did to a histogram, keyed by the words that decide it, so the next
// sample with the same words does the same without resolving anything. Two keys are used: the
// raw sample (thread, ip and call-chain words: a hot loop sampled again, replayed without
// resolving an address) and the resolved one (thread, then DSO and symbol of every frame:
// other ips in the same functions, replayed without walking the call trees). The owner puts
// in the key what would make it stale (its Machine's epochs).
//
// Replays only add periods and counts, so a hit need not be replayed at once: defer() sums it
// in its slot, and drain() replays each slot's sums in one go, before clear() and at the end.
//
//   RepeatCache cache;
//   uint64_t h = RepeatCache::hash(key_words);
//   if (size_t slot = cache.find_slot(h, key_words); slot != RepeatCache::kNone) {
//     cache.defer(slot, period);
//   } else { ...; cache.insert(h, key_words, plan_words, replay); }
//   cache.drain(replay);  // at the end: replay(plan, period_sum, count) per slot
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace readperf {

class RepeatCache {
 public:
  RepeatCache();
  static uint64_t hash(std::span<const uint64_t> key);

  static constexpr size_t kNone = ~size_t{0};

  // The plan stored for this key, or an empty span.
  std::span<const uint32_t> find(uint64_t hash, std::span<const uint64_t> key) const;
  // The slot holding this key, or kNone.
  size_t find_slot(uint64_t hash, std::span<const uint64_t> key) const;
  // One more sample of `period` for the slot's plan, replayed by the next drain().
  void defer(size_t slot, uint64_t period) {
    entries_[slot].pending_period += period;
    ++entries_[slot].pending_count;
    pending_ = true;
  }
  // replay(plan, period_sum, count) for every slot with deferred samples, which it then
  // forgets.
  template <typename Replay>
  void drain(Replay&& replay) {
    if (!pending_) return;
    for (Entry& e : entries_) {
      if (!e.pending_count) continue;
      replay(std::span<const uint32_t>(plans_.data() + e.plan, e.plan_len), e.pending_period,
             e.pending_count);
      e.pending_period = 0;
      e.pending_count = 0;
    }
    pending_ = false;
  }
  // Adds a key and its plan. Past the bounds on what it may hold, the cache first starts
  // over, replaying what it deferred (as drain() does), so no sample is lost.
  template <typename Replay>
  void insert(uint64_t hash, std::span<const uint64_t> key, std::span<const uint32_t> plan,
              Replay&& replay) {
    if (full()) {
      drain(replay);
      clear();
    }
    add(hash, key, plan);
  }
  // Forgets every key, and what was deferred for them: drain() first to keep that.
  void clear();
  bool empty() const { return entries_.empty(); }

 private:
  bool full() const;
  void add(uint64_t hash, std::span<const uint64_t> key, std::span<const uint32_t> plan);
  void grow_table();
  // One key, in the order added: a slot is its index in entries_.
  struct Entry {
    uint64_t hash = 0;
    uint32_t key = 0;  // offset in keys_ (words)
    uint32_t key_len = 0;
    uint32_t plan = 0;  // offset in plans_
    uint32_t plan_len = 0;
    uint32_t pending_count = 0;
    uint64_t pending_period = 0;
  };
  // The open-addressing table holds 8 bytes a slot (the entry's index + 1, 0 for none, and 32
  // bits of its hash to pass most other keys without reading their entry), at most half
  // full: a table of whole entries, 40 bytes a slot, was the report's largest block of memory
  // (10 MB on the bench recording, more again while it doubled), and touching new memory is
  // most of what a report costs.
  struct Slot {
    uint32_t entry_plus_one = 0;
    uint32_t hash_high = 0;
  };
  bool matches(const Entry& e, uint64_t hash, std::span<const uint64_t> key) const;

  std::vector<Slot> table_ = std::vector<Slot>(4096);
  std::vector<Entry> entries_;
  std::vector<uint64_t> keys_;
  std::vector<uint32_t> plans_;
  bool pending_ = false;  // some entry may have deferred samples
};

}  // namespace readperf
