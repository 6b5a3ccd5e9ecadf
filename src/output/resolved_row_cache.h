// What the record stream made of a resolved sample, kept by its repeat key
// (SamplePipeline::repeat_key()): the row's resolved fields (comm, dso, symbol and their
// ranges) and its call chain's frames, so that a later sample of the same key is handed out
// without being resolved again. On the bench recording 292k samples have 24k keys, 12k
// distinct frames.
//
// Small, since every page it touches costs: a plan (RepeatCache: uint32_t words, 8-byte index
// slots, its own bounds) is the comm, the flags, the id of the sample's own resolved fields and
// one id per frame, ids into tables of the distinct ones, which the samples share.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "readperf/analysis/repeat_cache.h"
#include "readperf/output/record_stream.h"

namespace readperf {

// Distinct values of T numbered 0, 1, ... in first-seen order: the values in a vector, an
// open-addressing index of 4-byte slots over them (a node-based map took 80 bytes a value).
template <class T, class Hash>
class DenseInterner {
 public:
  uint32_t intern(const T& v) {
    if ((items_.size() + 1) * 2 > slots_.size()) grow();
    const size_t mask = slots_.size() - 1;
    for (size_t i = Hash{}(v)&mask;; i = (i + 1) & mask) {
      uint32_t s = slots_[i];
      if (s == 0) {
        items_.push_back(v);
        slots_[i] = static_cast<uint32_t>(items_.size());
        return slots_[i] - 1;
      }
      if (items_[s - 1] == v) return s - 1;
    }
  }
  const T& operator[](uint32_t id) const { return items_[id]; }
  size_t size() const { return items_.size(); }
  void clear() {
    items_.clear();
    slots_.assign(kFirstSlots, 0);
  }

 private:
  static constexpr size_t kFirstSlots = 1024;
  void grow() {
    slots_.assign(slots_.size() * 2, 0);
    const size_t mask = slots_.size() - 1;
    for (uint32_t id = 0; id < items_.size(); ++id) {
      size_t i = Hash{}(items_[id]) & mask;
      while (slots_[i]) i = (i + 1) & mask;
      slots_[i] = id + 1;
    }
  }
  std::vector<T> items_;
  std::vector<uint32_t> slots_ = std::vector<uint32_t>(kFirstSlots);
};

class ResolvedRowCache {
 public:
  // Fills `row`'s resolved fields and appends its frames to `frames` as the sample of `key`
  // had them; false when the key is not known.
  bool replay(const RepeatCache::Hash& key, RecordRow& row, std::vector<RecordFrame>& frames) const;
  // Keeps what `row` (whose frames are the last row.frames_count of `frames`) was made of.
  void keep(const RepeatCache::Hash& key, const RecordRow& row,
            std::span<const RecordFrame> frames);

 private:
  // A row's fields from its own address (perf's machine__resolve()).
  struct Own {
    uint64_t symoff = 0, sym_start = 0, sym_end = 0, map_start = 0, map_end = 0;
    uint32_t dso = 0, symbol = 0;
    bool has_map = false, has_symbol = false;
    bool operator==(const Own&) const = default;
  };
  struct OwnHash {
    size_t operator()(const Own& o) const;
  };
  struct FrameHash {
    size_t operator()(const RecordFrame& f) const;
  };

  RepeatCache plans_;
  DenseInterner<Own, OwnHash> owns_;
  DenseInterner<RecordFrame, FrameHash> frames_;
  std::vector<uint32_t> plan_;  // the one being written
};

}  // namespace readperf
