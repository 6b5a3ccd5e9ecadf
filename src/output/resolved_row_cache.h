// What the record stream made of a resolved sample, kept by its repeat key
// (SamplePipeline::repeat_key()): the row's resolved fields (comm, dso, symbol and their
// ranges) and its call chain's frames, so that a later sample of the same key is handed out
// without being resolved again. On the bench recording 292k samples have 24k keys.
//
// The plans live in a RepeatCache (uint32_t words, 8-byte index slots, its own bounds); a
// frame is a word too, its index in a table of the distinct frames, which the stacks share.
#pragma once

#include <cstdint>
#include <span>
#include <unordered_map>
#include <vector>

#include "readperf/analysis/repeat_cache.h"
#include "readperf/output/record_stream.h"

namespace readperf {

class ResolvedRowCache {
 public:
  // Fills `row`'s resolved fields and appends its frames to `frames` as the sample of `key`
  // had them; false when the key is not known.
  bool replay(const RepeatCache::Hash& key, RecordRow& row, std::vector<RecordFrame>& frames) const;
  // Keeps what `row` (whose frames are the last row.frames_count of `frames`) was made of.
  void keep(const RepeatCache::Hash& key, const RecordRow& row,
            std::span<const RecordFrame> frames);

 private:
  uint32_t frame_id(const RecordFrame& f);

  struct FrameHash {
    size_t operator()(const RecordFrame& f) const;
  };
  struct FrameEqual {
    bool operator()(const RecordFrame& a, const RecordFrame& b) const;
  };

  RepeatCache plans_;
  std::vector<RecordFrame> frames_;
  std::unordered_map<RecordFrame, uint32_t, FrameHash, FrameEqual> frame_ids_;
  std::vector<uint32_t> plan_;  // the one being written
};

}  // namespace readperf
