// perf's ordered-events queue (tools/perf/util/ordered-events.c), reproduced exactly: records
// wait, sorted by time (records of equal time keep their arrival order), until a
// FINISHED_ROUND releases those up to the largest time seen by the round before, or the end of
// input releases all. Memory is bounded by two rounds of records, not by the file.
//
//   OrderedQueue q;
//   if (!q.push(ts, rec)) deliver(rec);         // untimed records are delivered at once
//   q.flush_round([&](const RecordView& r) { deliver(r); });
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "readperf/reader/record.h"

namespace readperf {

class OrderedQueue {
 public:
  using Deliver = std::function<void(const RecordView&, uint64_t timestamp)>;

  static constexpr uint32_t kNoBlock = ~0u;

  // Queues a record; returns false (and keeps nothing) when its time is 0 or ~0, which perf
  // delivers immediately (ordered_events__queue returns -ETIME). `copy` makes the queue own a
  // copy of the bytes (pipe and decompressed input, whose buffers are reused); `block` names
  // the reader block (acquire_block()) the bytes are in, which then stays until the record
  // is delivered.
  bool push(uint64_t timestamp, const RecordView& r, bool copy, uint32_t block = kNoBlock);

  // Reader blocks: buffers of at least `size` bytes a file reader fills with pread() and
  // reads records from, so that queued records point into them instead of being copied. A
  // block is reused once the reader has retired it and no queued record points into it.
  uint32_t acquire_block(size_t size);
  std::byte* block_data(uint32_t block) { return chunks_[block].data.get(); }
  size_t block_capacity(uint32_t block) const { return chunks_[block].capacity; }
  void retire_block(uint32_t block);

  // OE_FLUSH__ROUND: delivers records up to the previous round's largest time.
  void flush_round(const Deliver& deliver);
  // OE_FLUSH__FINAL: delivers everything.
  void flush_all(const Deliver& deliver);

  size_t size() const { return sorted_.size() - head_ + incoming_.size(); }
  // Offset in `range` of the first byte a queued record (not a copy) still points at in it,
  // or range.size() when none does: the bytes before it may be released. O(queued records).
  size_t lowest_reference(Bytes range) const;

  // Records queued with a time before the last one delivered (perf's nr_unordered_events).
  uint64_t unordered() const { return nr_unordered_; }

 private:
  struct Entry {
    uint64_t timestamp;
    RecordView record;
    uint32_t chunk;  // arena chunk holding the copy, or kNoChunk
  };
  static constexpr uint32_t kNoChunk = ~0u;

  static bool earlier(const Entry& a, const Entry& b);
  void flush_to(uint64_t limit, const Deliver& deliver);
  void sort_incoming();
  uint64_t max_in_queue() const { return queue_max_; }
  Bytes store(Bytes bytes, uint32_t* chunk);
  void release(uint32_t chunk);

  // Records wait in two runs: `sorted_` (from `head_` on) holds what earlier flushes left,
  // in order; `incoming_` what arrived since, in arrival order. A flush stable-sorts the
  // incoming run by merging its ascending runs (one CPU's buffer after another), and merges
  // it in: this costs a few copies, not a sort.
  std::vector<Entry> sorted_;
  size_t head_ = 0;
  std::vector<Entry> incoming_;
  std::vector<Entry> merged_;       // scratch
  std::vector<size_t> run_starts_;  // scratch
  uint64_t next_flush_ = 0;
  uint64_t max_timestamp_ = 0;
  uint64_t last_flush_ = 0;
  uint64_t nr_unordered_ = 0;
  uint64_t queue_max_ = 0;  // largest time now queued

  struct Chunk {
    std::unique_ptr<std::byte[]> data;
    size_t capacity = 0;
    size_t used = 0;
    size_t live = 0;
    bool is_block = false;  // a reader block, not part of the copy arena
    bool held = false;      // a reader block the reader has not retired
  };
  void free_chunk(uint32_t chunk);

  std::vector<Chunk> chunks_;
  std::vector<uint32_t> free_chunks_;
  std::vector<uint32_t> free_blocks_;
  uint32_t current_chunk_ = kNoChunk;
};

}  // namespace readperf
