#include "resolved_row_cache.h"

#include "readperf/format/hash_mix.h"

namespace readperf {

namespace {

// A plan's words: comm, has_callchain (0 or 1), the id of the row's own fields, then one id
// per frame.
constexpr size_t kFixedWords = 3;
// Past this many distinct frames or own fields the tables start over with the plans: at most
// 12 MB of frames (48 bytes each) and their index, whatever the recording's size (the bench
// recording has 12k).
constexpr size_t kMaxDistinct = size_t{1} << 18;

}  // namespace

size_t ResolvedRowCache::FrameHash::operator()(const RecordFrame& f) const {
  uint64_t h = hash_mix(f.ip, uint64_t{f.symbol} << 32 | f.dso);
  h = hash_mix(h, f.sym_start);
  return static_cast<size_t>(hash_finish(hash_mix(h, f.symoff)));
}

size_t ResolvedRowCache::OwnHash::operator()(const Own& o) const {
  uint64_t h = hash_mix(o.symoff, uint64_t{o.symbol} << 32 | o.dso);
  h = hash_mix(h, o.sym_start);
  return static_cast<size_t>(hash_finish(hash_mix(h, o.map_start)));
}

bool ResolvedRowCache::replay(const RepeatCache::Hash& key, RecordRow& row,
                              std::vector<RecordFrame>& frames) const {
  std::span<const uint32_t> plan = plans_.find(key);
  if (plan.empty()) return false;
  row.comm = plan[0];
  row.has_callchain = plan[1] != 0;
  const Own& own = owns_[plan[2]];
  row.has_map = own.has_map;
  row.has_symbol = own.has_symbol;
  row.dso = own.dso;
  row.symbol = own.symbol;
  row.symoff = own.symoff;
  row.sym_start = own.sym_start;
  row.sym_end = own.sym_end;
  row.map_start = own.map_start;
  row.map_end = own.map_end;
  if (row.has_callchain) {
    row.frames_begin = static_cast<uint32_t>(frames.size());
    row.frames_count = static_cast<uint32_t>(plan.size() - kFixedWords);
    for (uint32_t id : plan.subspan(kFixedWords)) frames.push_back(frames_[id]);
  }
  return true;
}

void ResolvedRowCache::keep(const RepeatCache::Hash& key, const RecordRow& row,
                            std::span<const RecordFrame> frames) {
  if (frames_.size() + frames.size() > kMaxDistinct || owns_.size() >= kMaxDistinct) {
    plans_.clear();
    frames_.clear();
    owns_.clear();
  }
  Own own{.symoff = row.symoff,
          .sym_start = row.sym_start,
          .sym_end = row.sym_end,
          .map_start = row.map_start,
          .map_end = row.map_end,
          .dso = row.dso,
          .symbol = row.symbol,
          .has_map = row.has_map,
          .has_symbol = row.has_symbol};
  plan_.clear();
  plan_.push_back(row.comm);
  plan_.push_back(row.has_callchain ? 1 : 0);
  plan_.push_back(owns_.intern(own));
  if (row.has_callchain) {
    for (const RecordFrame& f : frames) plan_.push_back(frames_.intern(f));
  }
  // Nothing is deferred in this cache: a reset has nothing to replay.
  plans_.insert(key, plan_, [](std::span<const uint32_t>, uint64_t, uint32_t) {});
}

}  // namespace readperf
