#include "compressor.h"

#include <fmt/format.h>
#include <zstd.h>

#include "readperf/format/perf_abi.h"

namespace readperf::writer_detail {

namespace {
// builtin-record.c zstd_compress(): PERF_SAMPLE_MAX_SIZE - sizeof(perf_record_compressed) - 1
// bytes of compressed data per record at most.
constexpr size_t kMaxPayload = (1 << 16) - 8 - 1;
}  // namespace

struct Compressor::Ctx {
  ZSTD_CCtx* cctx = nullptr;
  ~Ctx() { ZSTD_freeCCtx(cctx); }
};

Compressor::Compressor(int level) : ctx_(std::make_unique<Ctx>()) {
  ctx_->cctx = ZSTD_createCCtx();
  ZSTD_CCtx_setParameter(ctx_->cctx, ZSTD_c_compressionLevel, level);
}

Compressor::~Compressor() = default;

Status Compressor::compress(Bytes chunk, ByteOrder order, std::vector<std::byte>& out) {
  if (chunk.empty()) return {};
  frame_.resize(ZSTD_compressBound(chunk.size()));
  size_t n = ZSTD_compress2(ctx_->cctx, frame_.data(), frame_.size(), chunk.data(), chunk.size());
  if (ZSTD_isError(n)) return make_error(fmt::format("zstd: {}", ZSTD_getErrorName(n)));
  bytes_in_ += chunk.size();
  bytes_out_ += n;
  for (size_t at = 0; at < n; at += kMaxPayload) {
    size_t piece = std::min(kMaxPayload, n - at);
    uint32_t type = kRecordCompressed;
    uint16_t misc = 0;
    uint16_t size = static_cast<uint16_t>(8 + piece);
    if (order == ByteOrder::kSwapped) {
      type = bswap(type);
      size = bswap(size);
    }
    auto put = [&](const void* p, size_t len) {
      const auto* b = static_cast<const std::byte*>(p);
      out.insert(out.end(), b, b + len);
    };
    put(&type, 4);
    put(&misc, 2);
    put(&size, 2);
    put(frame_.data() + at, piece);
  }
  return {};
}

}  // namespace readperf::writer_detail
