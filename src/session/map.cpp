#include "readperf/session/map.h"

#include <atomic>

namespace readperf {
namespace {

// Process-wide, so that maps of different Machines never share a number either.
uint32_t next_map_id() {
  static std::atomic<uint32_t> next{1};
  return next.fetch_add(1, std::memory_order_relaxed);
}

}  // namespace

void Maps::insert_fixup(const Map& m) {
  // maps.c maps__fixup_overlappings(): every map ending after the new one starts and starting
  // before it ends loses the overlapped part; what remains before and after is kept.
  auto it = by_start_.upper_bound(m.start);
  if (it != by_start_.begin()) {
    auto prev = std::prev(it);
    if (prev->second.end > m.start) it = prev;
  }
  while (it != by_start_.end()) {
    const Map pos = it->second;
    if (pos.start >= m.end) break;
    if (pos.end <= m.start) {
      ++it;
      continue;
    }
    it = by_start_.erase(it);
    if (m.start > pos.start) {
      Map before = pos;
      before.end = m.start;
      before.id = next_map_id();
      by_start_[before.start] = before;
    }
    if (m.end < pos.end) {
      Map after = pos;
      after.start = m.end;
      after.pgoff += m.end - pos.start;
      after.id = next_map_id();
      by_start_[after.start] = after;
      // `after` starts at or past m.end: nothing further overlaps.
      break;
    }
  }
  Map& added = by_start_[m.start] = m;
  added.id = next_map_id();
  inserted_dsos_.push_back(m.dso);
}

void Maps::insert(const Map& m) {
  Map& added = by_start_[m.start] = m;
  added.id = next_map_id();
  inserted_dsos_.push_back(m.dso);
}

void Maps::remove(uint64_t start) { by_start_.erase(start); }

const Map* Maps::find(uint64_t addr) const {
  auto it = by_start_.upper_bound(addr);
  if (it == by_start_.begin()) return nullptr;
  --it;
  return addr < it->second.end ? &it->second : nullptr;
}

}  // namespace readperf
