#include "frame_stream.h"

#include <fmt/format.h>
#include <zstd.h>

#include <algorithm>
#include <cstring>
#include <memory>

namespace readperf {

namespace {

uint32_t load_le32(const uint8_t* p) {
  return uint32_t{p[0]} | uint32_t{p[1]} << 8 | uint32_t{p[2]} << 16 | uint32_t{p[3]} << 24;
}

struct DctxFree {
  void operator()(ZSTD_DCtx* d) const { ZSTD_freeDCtx(d); }
};

}  // namespace

Result<FrameStream> FrameStream::open(std::span<const uint8_t> bytes, FrameLimits limits) {
  FrameStream s;
  s.bytes_ = bytes;
  s.limits_ = limits;
  s.compressed_ = bytes.size() >= 4 && load_le32(bytes.data()) == ZSTD_MAGICNUMBER;
  if (!s.compressed_) {
    s.frames_.push_back(Frame{0, bytes.size(), 0, bytes.size()});
    s.size_ = bytes.size();
    return s;
  }
  uint64_t pos = 0;
  while (pos < bytes.size()) {
    Result<uint64_t> next = s.add_frame(pos);
    if (!next) {
      // The frames before the damage stay readable; with none, the file is not zstd.
      if (s.frames_.empty()) return tl::unexpected(next.error());
      s.damage_ = next.error().message();
      break;
    }
    pos = *next;
  }
  return s;
}

Result<uint64_t> FrameStream::add_frame(uint64_t pos) {
  if (frames_.size() >= limits_.max_frames) {
    return make_error(fmt::format("more than {} zstd frames", limits_.max_frames), pos);
  }
  const uint8_t* p = bytes_.data() + pos;
  size_t left = bytes_.size() - pos;
  if (left < 8) return make_error("zstd: a frame cut short", pos);
  uint32_t magic = load_le32(p);
  if ((magic & ZSTD_MAGIC_SKIPPABLE_MASK) == ZSTD_MAGIC_SKIPPABLE_START) {
    // A skippable frame: four bytes of magic, four of size, then as many bytes of data.
    uint64_t size = uint64_t{8} + load_le32(p + 4);
    if (size > left) return make_error("zstd: a skippable frame past the end of the file", pos);
    return pos + size;
  }
  if (magic != ZSTD_MAGICNUMBER)
    return make_error(fmt::format("zstd: bad frame magic {:#x}", magic), pos);
  size_t in_size = ZSTD_findFrameCompressedSize(p, left);
  if (ZSTD_isError(in_size))
    return make_error(fmt::format("zstd: {}", ZSTD_getErrorName(in_size)), pos);
  Frame f{pos, in_size, size_, 0};
  unsigned long long out = ZSTD_getFrameContentSize(p, left);
  if (out == ZSTD_CONTENTSIZE_ERROR) return make_error("zstd: bad frame header", pos);
  if (out == ZSTD_CONTENTSIZE_UNKNOWN) {
    // The size is known only once decompressed: do it now, and keep the contents for the
    // reads that follow (the common case: a whole tar in one frame, as `tar --zstd` writes).
    ASSIGN_OR_RETURN(std::vector<uint8_t> contents, decompress(f, false));
    f.out_size = contents.size();
    cache_ = std::move(contents);
    cached_ = frames_.size();
  } else {
    if (out > limits_.max_frame) {
      return make_error(fmt::format("zstd: a frame of {} bytes, more than the {} allowed", out,
                                    limits_.max_frame),
                        pos);
    }
    f.out_size = out;
  }
  if (f.out_size > ~uint64_t{0} - size_) return make_error("zstd: frames too large", pos);
  size_ += f.out_size;
  if (f.out_size) {
    frames_.push_back(f);
  } else if (cached_ == frames_.size()) {
    cached_ = ~size_t{0};
  }
  return pos + in_size;
}

Result<std::vector<uint8_t>> FrameStream::decompress(const Frame& f, bool size_known) const {
  std::unique_ptr<ZSTD_DCtx, DctxFree> dctx(ZSTD_createDCtx());
  if (!dctx) return make_error("zstd: out of memory");
  std::vector<uint8_t> out;
  const uint64_t cap = size_known ? f.out_size : limits_.max_frame;
  // Grown as output comes, so that memory follows what the frame really produces.
  out.resize(
      static_cast<size_t>(std::min<uint64_t>(cap, std::max<uint64_t>(4 * f.in_size, 1 << 16))));
  ZSTD_inBuffer in{bytes_.data() + f.in_offset, static_cast<size_t>(f.in_size), 0};
  size_t produced = 0;
  while (true) {
    if (produced == out.size()) {
      if (out.size() >= cap) {
        // Full: the frame must be done (a known size), or it is larger than allowed.
        uint8_t probe;
        ZSTD_outBuffer o{&probe, 1, 0};
        size_t r = ZSTD_decompressStream(dctx.get(), &o, &in);
        if (!ZSTD_isError(r) && r == 0 && o.pos == 0) break;
        if (ZSTD_isError(r)) {
          return make_error(fmt::format("zstd: {}", ZSTD_getErrorName(r)), f.in_offset);
        }
        return make_error(size_known ? "zstd: a frame larger than its stated size"
                                     : fmt::format("zstd: a frame of more than {} bytes", cap),
                          f.in_offset);
      }
      out.resize(static_cast<size_t>(std::min<uint64_t>(cap, out.size() * 2)));
    }
    ZSTD_outBuffer o{out.data() + produced, out.size() - produced, 0};
    size_t r = ZSTD_decompressStream(dctx.get(), &o, &in);
    produced += o.pos;
    if (ZSTD_isError(r)) {
      return make_error(fmt::format("zstd: {}", ZSTD_getErrorName(r)), f.in_offset);
    }
    if (r == 0) break;  // the frame is complete (its checksum, if any, verified)
    if (in.pos == in.size && o.pos < o.size) {
      return make_error("zstd: a frame cut short", f.in_offset);
    }
  }
  if (size_known && produced != f.out_size) {
    return make_error(
        fmt::format("zstd: a frame of {} bytes where its header says {}", produced, f.out_size),
        f.in_offset);
  }
  out.resize(produced);
  return out;
}

Result<std::span<const uint8_t>> FrameStream::contents(size_t i) {
  const Frame& f = frames_[i];
  if (!compressed_) return bytes_.subspan(f.in_offset, f.in_size);
  if (cached_ != i) {
    cached_ = ~size_t{0};
    cache_.clear();
    cache_.shrink_to_fit();
    ASSIGN_OR_RETURN(cache_, decompress(f, true));
    cached_ = i;
  }
  return std::span<const uint8_t>(cache_);
}

Status FrameStream::for_each_piece(uint64_t offset, uint64_t length,
                                   const std::function<Status(std::span<const uint8_t>)>& piece) {
  if (offset > size_ || length > size_ - offset) {
    return make_error(fmt::format("{} bytes at {} are past the end of the stream ({} bytes)",
                                  length, offset, size_));
  }
  // The first frame ending after `offset`.
  auto it = std::upper_bound(
      frames_.begin(), frames_.end(), offset,
      [](uint64_t off, const Frame& f) { return off < f.out_offset + f.out_size; });
  while (length > 0 && it != frames_.end()) {
    size_t i = static_cast<size_t>(it - frames_.begin());
    ASSIGN_OR_RETURN(std::span<const uint8_t> c, contents(i));
    uint64_t from = offset - it->out_offset;
    uint64_t n = std::min<uint64_t>(length, c.size() - from);
    RETURN_IF_ERROR(piece(c.subspan(static_cast<size_t>(from), static_cast<size_t>(n))));
    offset += n;
    length -= n;
    ++it;
  }
  if (length > 0) return make_error("the stream ended early");
  return {};
}

Status FrameStream::read(uint64_t offset, std::span<uint8_t> out) {
  size_t done = 0;
  return for_each_piece(offset, out.size(), [&](std::span<const uint8_t> p) -> Status {
    std::memcpy(out.data() + done, p.data(), p.size());
    done += p.size();
    return {};
  });
}

}  // namespace readperf
