#include "compressor.h"

#include <fmt/format.h>
#include <zstd.h>

#include <cstring>

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

Compressor::Compressor(int level) : ctx_(std::make_unique<Ctx>()), level_(level) {
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
    put_record(Bytes(frame_.data() + at, std::min(kMaxPayload, n - at)), order, out);
  }
  return {};
}

void Compressor::put_record(Bytes payload, ByteOrder order, std::vector<std::byte>& out) {
  uint32_t type = kRecordCompressed;
  uint16_t misc = 0;
  uint16_t size = static_cast<uint16_t>(8 + payload.size());
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
  put(payload.data(), payload.size());
}

Status Compressor::compress_to_size(Bytes chunk, size_t payload, ByteOrder order,
                                    std::vector<std::byte>& out) {
  constexpr size_t kSkippableHeader = 8;  // magic 0x184D2A5?, then a u32 LE size
  if (payload > kMaxPayload || chunk.empty()) return compress(chunk, order, out);
  frame_.resize(ZSTD_compressBound(chunk.size()) + payload);
  for (int level : {level_, 1, 3, 6, 9, 12, 15, 19, 22, -1, -5}) {
    ZSTD_CCtx_setParameter(ctx_->cctx, ZSTD_c_compressionLevel, level);
    size_t n = ZSTD_compress2(ctx_->cctx, frame_.data(), frame_.size(), chunk.data(), chunk.size());
    if (ZSTD_isError(n)) break;
    if (n != payload && n + kSkippableHeader > payload) continue;
    if (n < payload) {
      uint32_t magic = 0x184D2A50, len = static_cast<uint32_t>(payload - n - kSkippableHeader);
      std::memcpy(frame_.data() + n, &magic, 4);  // zstd frames are little-endian
      std::memcpy(frame_.data() + n + 4, &len, 4);
      std::memset(frame_.data() + n + 8, 0, len);
    }
    ZSTD_CCtx_setParameter(ctx_->cctx, ZSTD_c_compressionLevel, level_);
    bytes_in_ += chunk.size();
    bytes_out_ += payload;
    put_record(Bytes(frame_.data(), payload), order, out);
    return {};
  }
  ZSTD_CCtx_setParameter(ctx_->cctx, ZSTD_c_compressionLevel, level_);
  return compress(chunk, order, out);
}

}  // namespace readperf::writer_detail
