#include "readperf/reader/ordered_queue.h"

#include <algorithm>
#include <cstring>

namespace readperf {

namespace {
constexpr size_t kChunkSize = 4 << 20;
// Past this many ascending runs a general stable sort is cheaper than merging them pairwise.
constexpr size_t kMaxRunsToMerge = 64;
constexpr size_t kPrefetchAhead = 8;
}  // namespace

// The queue's order: by time, arrival order kept among equal times by the stable algorithms
// that use it.
bool OrderedQueue::earlier(const Entry& a, const Entry& b) { return a.timestamp < b.timestamp; }

// A round's records come as a few ascending runs (one per CPU buffer perf emptied): merging
// the runs pairwise is stable (std::merge takes the earlier run's record on equal times)
// and takes log2(runs) passes where std::stable_sort takes log2(records).
void OrderedQueue::sort_incoming() {
  run_starts_.clear();
  run_starts_.push_back(0);
  for (size_t i = 1; i < incoming_.size(); ++i) {
    if (incoming_[i].timestamp < incoming_[i - 1].timestamp) {
      run_starts_.push_back(i);
      if (run_starts_.size() > kMaxRunsToMerge) {
        std::stable_sort(incoming_.begin(), incoming_.end(), earlier);
        return;
      }
    }
  }
  run_starts_.push_back(incoming_.size());
  while (run_starts_.size() > 2) {
    merged_.clear();
    merged_.reserve(incoming_.size());
    size_t out = 0;
    for (size_t r = 0; r + 1 < run_starts_.size(); r += 2) {
      auto a = incoming_.begin() + static_cast<ptrdiff_t>(run_starts_[r]);
      auto b = incoming_.begin() + static_cast<ptrdiff_t>(run_starts_[r + 1]);
      run_starts_[out++] = run_starts_[r];
      if (r + 2 < run_starts_.size()) {
        auto c = incoming_.begin() + static_cast<ptrdiff_t>(run_starts_[r + 2]);
        std::merge(a, b, b, c, std::back_inserter(merged_), earlier);
      } else {
        merged_.insert(merged_.end(), a, b);  // an odd run out: carried over as it is
      }
    }
    run_starts_[out++] = incoming_.size();
    run_starts_.resize(out);
    incoming_.swap(merged_);
  }
}

Bytes OrderedQueue::store(Bytes bytes, uint32_t* chunk) {
  if (current_chunk_ == kNoChunk ||
      chunks_[current_chunk_].capacity - chunks_[current_chunk_].used < bytes.size()) {
    if (current_chunk_ != kNoChunk && chunks_[current_chunk_].live == 0) {
      chunks_[current_chunk_].used = 0;
    } else {
      uint32_t next;
      if (!free_chunks_.empty() && bytes.size() <= kChunkSize) {
        next = free_chunks_.back();
        free_chunks_.pop_back();
      } else {
        next = static_cast<uint32_t>(chunks_.size());
        chunks_.emplace_back();
        size_t cap = std::max(kChunkSize, bytes.size());
        chunks_[next].data.reset(new std::byte[cap]);
        chunks_[next].capacity = cap;
      }
      chunks_[next].used = 0;
      chunks_[next].live = 0;
      current_chunk_ = next;
    }
  }
  Chunk& c = chunks_[current_chunk_];
  std::byte* dst = c.data.get() + c.used;
  std::memcpy(dst, bytes.data(), bytes.size());
  c.used += (bytes.size() + 7) & ~size_t{7};
  if (c.used > c.capacity) c.used = c.capacity;
  ++c.live;
  *chunk = current_chunk_;
  return {dst, bytes.size()};
}

void OrderedQueue::free_chunk(uint32_t chunk) {
  Chunk& c = chunks_[chunk];
  c.used = 0;
  (c.is_block ? free_blocks_ : free_chunks_).push_back(chunk);
}

void OrderedQueue::release(uint32_t chunk) {
  if (chunk == kNoChunk) return;
  Chunk& c = chunks_[chunk];
  if (--c.live == 0 && chunk != current_chunk_ && !c.held) free_chunk(chunk);
}

uint32_t OrderedQueue::acquire_block(size_t size) {
  uint32_t id = kNoChunk;
  for (size_t i = free_blocks_.size(); i-- > 0;) {
    if (chunks_[free_blocks_[i]].capacity >= size) {
      id = free_blocks_[i];
      free_blocks_.erase(free_blocks_.begin() + static_cast<ptrdiff_t>(i));
      break;
    }
  }
  if (id == kNoChunk) {
    id = static_cast<uint32_t>(chunks_.size());
    Chunk& c = chunks_.emplace_back();
    c.data.reset(new std::byte[size]);
    c.capacity = size;
    c.is_block = true;
  }
  Chunk& c = chunks_[id];
  c.live = 0;
  c.held = true;
  return id;
}

void OrderedQueue::retire_block(uint32_t block) {
  Chunk& c = chunks_[block];
  c.held = false;
  if (c.live == 0) free_chunk(block);
}

bool OrderedQueue::push(uint64_t timestamp, const RecordView& r, bool copy, uint32_t block) {
  if (timestamp == 0 || timestamp == ~0ull) return false;
  if (timestamp < last_flush_) ++nr_unordered_;
  // ordered-events.c queue_event(): the largest time is updated only when the record goes
  // to the tail of the queue, or into an empty queue.
  if (size() == 0 || timestamp >= queue_max_) {
    max_timestamp_ = timestamp;
    queue_max_ = timestamp;
  }
  Entry e{timestamp, r, kNoChunk};
  if (copy) {
    e.record.bytes = store(r.bytes, &e.chunk);
  } else if (block != kNoBlock) {
    e.chunk = block;
    ++chunks_[block].live;
  }
  incoming_.push_back(e);
  return true;
}

void OrderedQueue::flush_to(uint64_t limit, const Deliver& deliver) {
  if (limit == 0) return;  // do_flush(): nothing before the first round's end
  if (!incoming_.empty()) {
    sort_incoming();
    if (head_ == sorted_.size()) {
      // Nothing left from before: the incoming run becomes the sorted one, without a copy.
      sorted_.clear();
      head_ = 0;
      sorted_.swap(incoming_);
    } else if (sorted_.back().timestamp <= incoming_.front().timestamp) {
      sorted_.insert(sorted_.end(), incoming_.begin(), incoming_.end());
    } else {
      // std::merge takes from the first run on ties: earlier arrivals stay first.
      merged_.clear();
      merged_.reserve(sorted_.size() - head_ + incoming_.size());
      std::merge(sorted_.begin() + static_cast<ptrdiff_t>(head_), sorted_.end(), incoming_.begin(),
                 incoming_.end(), std::back_inserter(merged_), earlier);
      sorted_.swap(merged_);
      head_ = 0;
    }
    incoming_.clear();
  }
  while (head_ < sorted_.size() && sorted_[head_].timestamp <= limit) {
    // Records wait a round, long enough to leave the cache: fetch a few ahead of delivery.
    if (head_ + kPrefetchAhead < sorted_.size()) {
      Bytes next = sorted_[head_ + kPrefetchAhead].record.bytes;
      __builtin_prefetch(next.data());
      if (next.size() > 64) __builtin_prefetch(next.data() + 64);
    }
    const Entry& e = sorted_[head_++];
    deliver(e.record, e.timestamp);
    last_flush_ = e.timestamp;
    release(e.chunk);
  }
  if (head_ == sorted_.size()) {
    sorted_.clear();
    head_ = 0;
    queue_max_ = 0;
  } else if (head_ > sorted_.size() / 2 && head_ > 4096) {
    sorted_.erase(sorted_.begin(), sorted_.begin() + static_cast<ptrdiff_t>(head_));
    head_ = 0;
  }
}

size_t OrderedQueue::lowest_reference(Bytes range) const {
  const std::byte* lo = range.data() + range.size();
  auto visit = [&](const Entry& e) {
    const std::byte* p = e.record.bytes.data();
    if (e.chunk == kNoChunk && p >= range.data() && p < lo) lo = p;
  };
  for (size_t i = head_; i < sorted_.size(); ++i) visit(sorted_[i]);
  for (const Entry& e : incoming_) visit(e);
  return static_cast<size_t>(lo - range.data());
}

void OrderedQueue::flush_round(const Deliver& deliver) {
  if (size() == 0) return;  // __ordered_events__flush() returns before updating next_flush
  flush_to(next_flush_, deliver);
  next_flush_ = max_timestamp_;
}

void OrderedQueue::flush_all(const Deliver& deliver) {
  if (size() == 0) return;
  next_flush_ = ~0ull;
  flush_to(next_flush_, deliver);
}

}  // namespace readperf
