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
  // One COMPRESSED record holding `chunk` with exactly `payload` bytes of compressed data
  // when a compression level gets it small enough: the rest is a zstd skippable frame, which
  // decompressors pass over. Keeps a converted copy's data size (and so `report --header-only`)
  // that of the input. Falls back to compress() when no level fits.
  Status compress_to_size(Bytes chunk, size_t payload, ByteOrder order,
                          std::vector<std::byte>& out);
  uint64_t bytes_in() const { return bytes_in_; }
  uint64_t bytes_out() const { return bytes_out_; }

 private:
  struct Ctx;
  std::unique_ptr<Ctx> ctx_;
  int level_ = 1;
  void put_record(Bytes payload, ByteOrder order, std::vector<std::byte>& out);
  std::vector<std::byte> frame_;
  uint64_t bytes_in_ = 0, bytes_out_ = 0;
};

}  // namespace readperf::writer_detail
