// The zstd stream inside PERF_RECORD_COMPRESSED (81) and COMPRESSED2 (83) records. All the
// compressed records of one data file form a single zstd stream (perf's util/zstd.c keeps one
// ZSTD_DStream per reader), and a record may be split across two compressed records: what
// is left over after the last whole record waits for the next chunk.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "readperf/format/byte_cursor.h"
#include "readperf/format/error.h"

namespace readperf {

class Decompressor {
 public:
  Decompressor();
  ~Decompressor();
  Decompressor(Decompressor&&) noexcept;
  Decompressor& operator=(Decompressor&&) noexcept;

  // Decompresses one chunk and appends its output after what was left over before.
  Status feed(Bytes compressed);
  // The bytes not yet consumed: whole records first, maybe a partial one at the end.
  Bytes pending() const { return {out_.data() + head_, out_.size() - head_}; }
  void consume(size_t n) { head_ += n; }

 private:
  struct Stream;
  std::unique_ptr<Stream> stream_;
  std::vector<std::byte> out_;
  size_t head_ = 0;
};

}  // namespace readperf
