// The zstd stream of one data file's compressed records, fed chunk by chunk, with the records
// taken out of it as the reader's drain_decompressed() takes them.
#include <algorithm>
#include <cstring>

#include "decompressor.h"  // src/reader, private to the reader
#include "fuzz_targets.h"
#include "readperf/reader/record.h"

namespace readperf::fuzz {

namespace {
// A zstd RLE block turns 4 bytes into 128 KiB: small chunks keep one feed's output (and
// the fuzzer's memory) near 100 MiB while still covering records split across chunks.
constexpr size_t kMaxChunk = 4096;
}  // namespace

// The input: chunks, each a native u16 length (cut to kMaxChunk) and that many bytes.
int fuzz_decompressor(const uint8_t* data, size_t size) {
  Decompressor d;
  size_t pos = 0;
  while (pos + 2 <= size) {
    uint16_t len;
    std::memcpy(&len, data + pos, 2);
    pos += 2;
    size_t n = std::min<size_t>({len, kMaxChunk, size - pos});
    if (!d.feed(Bytes(reinterpret_cast<const std::byte*>(data + pos), n))) return 0;
    pos += n;
    while (true) {
      Bytes pending = d.pending();
      if (pending.size() < kRecordHeaderSize) break;
      uint16_t rsize;
      std::memcpy(&rsize, pending.data() + 6, 2);
      if (rsize < kRecordHeaderSize) return 0;  // the reader stops at such a record
      if (rsize > pending.size()) break;        // the rest comes with the next chunk
      d.consume(rsize);
    }
  }
  return 0;
}

}  // namespace readperf::fuzz
