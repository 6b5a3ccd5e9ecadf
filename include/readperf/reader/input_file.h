// Where the bytes come from: a read-only mmap of a regular file (zero-copy for everything
// above), or a stream (standard input, a FIFO) read in order.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "readperf/format/byte_cursor.h"
#include "readperf/format/error.h"

namespace readperf {

// A whole file mapped read-only. Pages are faulted in as records are read, so a 50 GB file
// costs address space, not memory.
class MappedFile {
 public:
  static Result<std::unique_ptr<MappedFile>> open(const std::string& path);
  ~MappedFile();
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;

  Bytes bytes() const { return {static_cast<const std::byte*>(data_), size_}; }
  const std::string& path() const { return path_; }
  // Tells the kernel the pages before `offset` will not be read again, so resident memory
  // stays flat however large the file. Nothing may point there any more.
  void release_before(uint64_t offset);
  // The same for the pages of [offset, offset + size) (the header and feature sections, read
  // once when the file is opened).
  void release_range(uint64_t offset, uint64_t size);
  // Copies up to n bytes at `offset` into `out` with pread(); returns how many (fewer only at
  // the end of the file or on a read error). Streaming records through a small reused buffer
  // this way costs a fraction of touching the mapping: no page faults, no TLB misses.
  size_t read_at(uint64_t offset, std::byte* out, size_t n) const;

 private:
  MappedFile() = default;
  std::string path_;
  int fd_ = -1;
  void* data_ = nullptr;
  size_t size_ = 0;
  uint64_t released_ = 0;
};

// A sequential byte stream (a pipe). read_exact() fills the buffer or reports how much it got.
class StreamInput {
 public:
  // `owned`: the descriptor is closed with the StreamInput.
  StreamInput(int fd, std::string name, bool owned = false)
      : fd_(fd), owned_(owned), name_(std::move(name)) {}
  static Result<std::unique_ptr<StreamInput>> open(const std::string& path);
  ~StreamInput();
  // Reads exactly n bytes into out; returns the number read (< n only at end of stream).
  Result<size_t> read_exact(std::byte* out, size_t n);
  const std::string& name() const { return name_; }

 private:
  int fd_;
  bool owned_ = false;
  std::string name_;
  std::vector<std::byte> buf_;
  size_t buf_pos_ = 0;
  size_t buf_len_ = 0;
};

}  // namespace readperf
