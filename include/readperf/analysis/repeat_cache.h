// Remembers what a sample did to a histogram, keyed by the words that decide it, so the next
// sample with the same words does the same without resolving anything. Two keys are used: the
// raw sample (thread, ip and call-chain words: a hot loop sampled again, replayed without
// resolving an address) and the resolved one (thread, then DSO and symbol of every frame:
// other ips in the same functions, replayed without walking the call trees). The owner puts
// in the key what would make it stale (its Machine's epochs).
//
// A key is known by its 128-bit XXH3 hash alone, never stored: two of the n keys of a run
// share one with a probability of about n^2 / 2^129 (1e-29 for the bench recording's 75k
// keys), and storing the keys (10 words each) was a fifth of the memory a report touched,
// comparing them 3% of its time.
//
// Replays only add periods and counts, so a hit need not be replayed at once: defer() sums it
// in its slot, and drain() replays each slot's sums in one go, before clear() and at the end.
//
//   RepeatCache cache;
//   RepeatCache::Hash h = RepeatCache::hash(key_words);
//   if (size_t slot = cache.find_slot(h); slot != RepeatCache::kNone) {
//     cache.defer(slot, period);
//   } else { ...; cache.insert(h, plan_words, replay); }
//   cache.drain(replay);  // at the end: replay(plan, period_sum, count) per slot
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <vector>

namespace readperf {

class RepeatCache {
 public:
  struct Hash {
    uint64_t low = 0, high = 0;
    bool operator==(const Hash&) const = default;
  };

  RepeatCache();
  static Hash hash(std::span<const uint64_t> key);
  // Appends the whole 8-byte words of `words` (a sample's call chain, its branch entries) to
  // `key`.
  static void append_words(std::vector<uint64_t>& key, std::span<const std::byte> words) {
    size_t at = key.size();
    key.resize(at + words.size() / 8);
    // An empty view may have no data pointer, which memcpy may not be given.
    if (!words.empty()) std::memcpy(key.data() + at, words.data(), words.size() / 8 * 8);
  }

  static constexpr size_t kNone = ~size_t{0};

  // The plan stored for this key, or an empty span.
  std::span<const uint32_t> find(const Hash& hash) const;
  // The slot holding this key, or kNone.
  size_t find_slot(const Hash& hash) const;
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
  void insert(const Hash& hash, std::span<const uint32_t> plan, Replay&& replay) {
    if (full()) {
      drain(replay);
      clear();
    }
    add(hash, plan);
  }
  // Forgets every key, and what was deferred for them: drain() first to keep that.
  void clear();
  bool empty() const { return entries_.empty(); }

 private:
  bool full() const;
  void add(const Hash& hash, std::span<const uint32_t> plan);
  void grow_table();
  // One key, in the order added: a slot is its index in entries_.
  struct Entry {
    Hash hash;
    uint32_t plan = 0;  // offset in plans_
    uint32_t plan_len = 0;
    uint32_t pending_count = 0;
    uint64_t pending_period = 0;
  };
  // The open-addressing table holds 8 bytes a slot (the entry's index + 1, 0 for none, and 32
  // more bits of its hash to pass most other keys without reading their entry), at most half
  // full: a table of whole entries, 40 bytes a slot, was the report's largest block of memory
  // (10 MB on the bench recording, more again while it doubled), and touching new memory is
  // most of what a report costs.
  struct Slot {
    uint32_t entry_plus_one = 0;
    uint32_t tag = 0;
  };

  std::vector<Slot> table_ = std::vector<Slot>(4096);
  std::vector<Entry> entries_;
  std::vector<uint32_t> plans_;
  bool pending_ = false;  // some entry may have deferred samples
};

}  // namespace readperf
