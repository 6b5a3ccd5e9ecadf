#include "decompressor.h"

#include <zstd.h>

#include <cstring>

#include <fmt/format.h>

namespace readperf {

namespace {
// perf decompresses each record into a buffer of the COMPRESSED feature's mmap_len (the
// recording's ring-buffer size); anything near a GiB is a damaged or hostile stream.
constexpr size_t kMaxPending = size_t{1} << 30;
}  // namespace

struct Decompressor::Stream {
  ZSTD_DStream* ds = ZSTD_createDStream();
  ~Stream() { ZSTD_freeDStream(ds); }
};

Decompressor::Decompressor() : stream_(std::make_unique<Stream>()) {
  ZSTD_initDStream(stream_->ds);
}
Decompressor::~Decompressor() = default;
Decompressor::Decompressor(Decompressor&&) noexcept = default;
Decompressor& Decompressor::operator=(Decompressor&&) noexcept = default;

Status Decompressor::feed(Bytes compressed) {
  // Drop what was consumed, keeping a partial record's head.
  if (head_ > 0) {
    size_t rest = out_.size() - head_;
    std::memmove(out_.data(), out_.data() + head_, rest);
    out_.resize(rest);
    head_ = 0;
  }
  ZSTD_inBuffer in{compressed.data(), compressed.size(), 0};
  size_t want = std::max<size_t>(compressed.size() * 4, 1 << 16);
  while (true) {
    size_t old = out_.size();
    if (old + want > kMaxPending) {
      return make_error(fmt::format("zstd: a compressed record expands past {} MiB",
                                    kMaxPending >> 20));
    }
    out_.resize(old + want);
    ZSTD_outBuffer out{out_.data() + old, want, 0};
    size_t in_before = in.pos;
    size_t ret = ZSTD_decompressStream(stream_->ds, &out, &in);
    out_.resize(old + out.pos);
    if (ZSTD_isError(ret)) {
      return make_error(fmt::format("zstd: {}", ZSTD_getErrorName(ret)));
    }
    // Done when the input is used up and the last call did not fill its buffer.
    if (in.pos == in.size && out.pos < want) break;
    if (out.pos == 0 && in.pos == in_before) return make_error("zstd: no progress");
    want *= 2;
  }
  return {};
}

}  // namespace readperf
