#include "resolved_row_cache.h"

namespace readperf {

namespace {

// A plan's words: comm, flags, dso, symbol, then symoff, sym_start, sym_end, map_start and
// map_end as two words each, then one word per frame.
enum : uint32_t { kHasMap = 1, kHasSymbol = 2, kHasCallchain = 4 };
constexpr size_t kFixedWords = 14;
// Past this many distinct frames the table starts over with the plans.
constexpr size_t kMaxFrames = size_t{1} << 20;

void put64(std::vector<uint32_t>& w, uint64_t v) {
  w.push_back(static_cast<uint32_t>(v));
  w.push_back(static_cast<uint32_t>(v >> 32));
}

uint64_t get64(std::span<const uint32_t> w, size_t at) {
  return uint64_t{w[at]} | (uint64_t{w[at + 1]} << 32);
}

}  // namespace

size_t ResolvedRowCache::FrameHash::operator()(const RecordFrame& f) const {
  uint64_t h = f.ip * 0x9E3779B97F4A7C15ull;
  h ^= (uint64_t{f.symbol} << 32 | f.dso) + 0x632BE59BD9B4E019ull + (h << 6) + (h >> 2);
  h ^= f.sym_start + (h << 6) + (h >> 2);
  return static_cast<size_t>(h);
}

bool ResolvedRowCache::FrameEqual::operator()(const RecordFrame& a, const RecordFrame& b) const {
  return a.ip == b.ip && a.sym_start == b.sym_start && a.sym_end == b.sym_end &&
         a.symoff == b.symoff && a.symbol == b.symbol && a.dso == b.dso && a.binding == b.binding &&
         a.has_symbol == b.has_symbol && a.has_map == b.has_map;
}

bool ResolvedRowCache::replay(const RepeatCache::Hash& key, RecordRow& row,
                              std::vector<RecordFrame>& frames) const {
  std::span<const uint32_t> plan = plans_.find(key);
  if (plan.empty()) return false;
  row.comm = plan[0];
  uint32_t flags = plan[1];
  row.has_map = flags & kHasMap;
  row.has_symbol = flags & kHasSymbol;
  row.has_callchain = flags & kHasCallchain;
  row.dso = plan[2];
  row.symbol = plan[3];
  row.symoff = get64(plan, 4);
  row.sym_start = get64(plan, 6);
  row.sym_end = get64(plan, 8);
  row.map_start = get64(plan, 10);
  row.map_end = get64(plan, 12);
  if (row.has_callchain) {
    row.frames_begin = static_cast<uint32_t>(frames.size());
    row.frames_count = static_cast<uint32_t>(plan.size() - kFixedWords);
    for (uint32_t id : plan.subspan(kFixedWords)) frames.push_back(frames_[id]);
  }
  return true;
}

void ResolvedRowCache::keep(const RepeatCache::Hash& key, const RecordRow& row,
                            std::span<const RecordFrame> frames) {
  if (frames_.size() + frames.size() > kMaxFrames) {
    plans_.clear();
    frames_.clear();
    frame_ids_.clear();
  }
  plan_.clear();
  plan_.push_back(row.comm);
  plan_.push_back((row.has_map ? kHasMap : 0) | (row.has_symbol ? kHasSymbol : 0) |
                  (row.has_callchain ? kHasCallchain : 0));
  plan_.push_back(row.dso);
  plan_.push_back(row.symbol);
  put64(plan_, row.symoff);
  put64(plan_, row.sym_start);
  put64(plan_, row.sym_end);
  put64(plan_, row.map_start);
  put64(plan_, row.map_end);
  if (row.has_callchain) {
    for (const RecordFrame& f : frames) plan_.push_back(frame_id(f));
  }
  // Nothing is deferred in this cache: a reset has nothing to replay.
  plans_.insert(key, plan_, [](std::span<const uint32_t>, uint64_t, uint32_t) {});
}

uint32_t ResolvedRowCache::frame_id(const RecordFrame& f) {
  auto [it, added] = frame_ids_.try_emplace(f, static_cast<uint32_t>(frames_.size()));
  if (added) frames_.push_back(f);
  return it->second;
}

}  // namespace readperf
