// PerfData's private parts, shared by its files: the readers of the data files and
// PerfData::Impl (perf_data.cpp opens a recording, perf_data_records.cpp handles each
// record, perf_data_process.cpp reads them in order).
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "decompressor.h"
#include "readperf/reader/input_file.h"
#include "readperf/reader/ordered_queue.h"
#include "readperf/reader/perf_data.h"

namespace readperf {

// A record's error: its type, size and what is wrong, at `offset`.
Error record_error(const RecordView& r, uint64_t offset, std::string_view what);

// header.c process_event_desc() / evlist__set_event_name(): EVENT_DESC names the events by
// position, those that have no name yet.
void apply_event_desc_names(const Features& f, EventList& events);

// One data file, or the data section of the main file, read record by record.
struct DataReader {
  DataReader(Bytes d, uint64_t base, uint32_t src, MappedFile* f = nullptr)
      : data(d), base_offset(base), source(src), file(f) {}
  Bytes data;            // the bytes to read
  uint64_t base_offset;  // file offset of data[0]
  uint32_t source;
  size_t pos = 0;
  uint64_t slice = 0;  // bytes read since this reader's turn began (directory mode)
  Decompressor decompressor;
  bool done = false;
  // The mapping `data` lives in, whose pages behind the reader are dropped as it goes, so
  // resident memory stays flat however large the file (pages still referenced by queued
  // records fault back in from the file).
  MappedFile* file = nullptr;
  size_t released = 0;  // reader position at the last release

  // Records of a mapped file are read through blocks of the ordered queue (acquire_block()),
  // filled with pread() (MappedFile::read_at): data[win_pos, win_pos + win_len) is in `block`.
  // Queued records point into their block, which the queue keeps until they are delivered:
  // nothing is copied. The mapping serves only what is read once and large (AUX data).
  OrderedQueue* queue = nullptr;
  uint32_t block = OrderedQueue::kNoBlock;
  size_t win_pos = 0;
  size_t win_len = 0;
  static constexpr size_t kBlockBytes = 256 * 1024;  // stays in L2: fastest in measurements

  // data[pos, pos + n), n <= data.size() - pos: from the current block (a new one as needed)
  // when reading a file, else the bytes themselves. `in_block` is set to the block holding
  // them, kNoBlock when they are not in one.
  Bytes view(size_t at, size_t n, uint32_t* in_block = nullptr) {
    if (in_block) *in_block = OrderedQueue::kNoBlock;
    if (!file || !queue) return data.subspan(at, n);
    if (block == OrderedQueue::kNoBlock || at < win_pos || at + n > win_pos + win_len) {
      // Retired first: a block no queued record holds is the one filled again, which keeps
      // the reading in one cache-warm buffer when records are not queued.
      retire();
      block = queue->acquire_block(std::max(kBlockBytes, n));
      size_t len = std::min<uint64_t>(queue->block_capacity(block), data.size() - at);
      size_t got = file->read_at(base_offset + at, queue->block_data(block), len);
      if (got < n) {
        retire();
        return data.subspan(at, n);  // a read error: the mapping has the bytes
      }
      win_pos = at;
      win_len = got;
    }
    if (in_block) *in_block = block;
    return Bytes(queue->block_data(block) + (at - win_pos), n);
  }
  // Lets the current block go (queued records still hold it).
  void retire() {
    if (block != OrderedQueue::kNoBlock) queue->retire_block(block);
    block = OrderedQueue::kNoBlock;
    win_len = 0;
  }
};

struct PerfData::Impl {
  std::vector<std::unique_ptr<MappedFile>> files;
  std::unique_ptr<StreamInput> stream;
  std::vector<std::byte> owned;  // the bytes of open_bytes()
  Bytes pipe_bytes;              // a regular file holding a pipe-mode stream
  std::vector<DataReader> readers;
  OrderedQueue queue;
  EventSink* sink = nullptr;
  ProcessOptions options;
  Sample sample;                // reused for every delivery
  uint32_t current_source = 0;  // the data file being read, for error messages

  Status handle(PerfData& pd, const RecordView& r, bool transient, DataReader* reader,
                uint64_t* skip, uint32_t block = OrderedQueue::kNoBlock);
  Status handle_user(PerfData& pd, const RecordView& r, DataReader* reader, uint64_t* skip);
  Status drain_decompressed(PerfData& pd, DataReader& reader, uint64_t file_offset);
  void deliver(PerfData& pd, const RecordView& r);
  void note_skip(PerfData& pd, const RecordView& r, const Error& why) {
    ++pd.stats_.skipped;
    if (!pd.stats_.first_skip) pd.stats_.first_skip = why;
    sink->on_skipped(r, why);
  }
};

}  // namespace readperf
