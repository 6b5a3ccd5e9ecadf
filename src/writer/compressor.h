// zstd compression into PERF_RECORD_COMPRESSED records, as perf record -z writes them
// (util/zstd.c zstd_compress_stream_to_records): each chunk of records one zstd frame, its
// output cut into records of at most 64 KiB.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "readperf/format/byte_cursor.h"
#include "readperf/format/error.h"

namespace readperf::writer_detail {

class Compressor {
 public:
  explicit Compressor(int level);
  ~Compressor();

  // Appends to `out` the COMPRESSED records (headers in `order`) holding `chunk`.
  Status compress(Bytes chunk, ByteOrder order, std::vector<std::byte>& out);
  uint64_t bytes_in() const { return bytes_in_; }
  uint64_t bytes_out() const { return bytes_out_; }

 private:
  struct Ctx;
  std::unique_ptr<Ctx> ctx_;
  std::vector<std::byte> frame_;
  uint64_t bytes_in_ = 0, bytes_out_ = 0;
};

}  // namespace readperf::writer_detail
