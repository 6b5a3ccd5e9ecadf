// The bytes of a symbol archive as one stream with random access: a zstd file read frame by
// frame (RFC 8878: a zstd file is a sequence of independent frames, each of which may state
// its decompressed size), or a plain tar file read as is. readperf's archive writer puts each
// tar header and each member's data in frames of their own, so a member is found by
// decompressing only the small header frames and read by decompressing only its own frame;
// an archive of one large frame (`tar --zstd` writes one) is decompressed once, when first
// read, and kept while it is read.
//
//   Result<FrameStream> s = FrameStream::open(bytes, {.max_frame = 1 << 30});
//   uint8_t header[512];
//   Status st = s->read(0, header);
//   s->for_each_piece(offset, size, [&](std::span<const uint8_t> piece) { ...; return Status{}; });
//
// Private to the symbols layer. Not thread-safe: SymbolArchive locks around it.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "readperf/format/error.h"

namespace readperf {

struct FrameLimits {
  // The most one frame may decompress to: a hostile file must not make us allocate without
  // limit (a zstd frame of a few bytes can claim, or produce, gigabytes).
  uint64_t max_frame = uint64_t{1} << 30;
  // The most frames a file may have.
  size_t max_frames = size_t{1} << 22;
};

class FrameStream {
 public:
  // `bytes` (the mapped file) must outlive the stream. A file that does not start with the
  // zstd magic number is taken as uncompressed. Fails when its first frame header is damaged
  // (see damage() for a later one); a frame whose contents are damaged fails only when read.
  static Result<FrameStream> open(std::span<const uint8_t> bytes, FrameLimits limits = {});

  bool compressed() const { return compressed_; }
  uint64_t size() const { return size_; }
  // Why the frame list ends early (a damaged or cut frame header), or empty: the stream is
  // then the frames before the damage.
  const std::string& damage() const { return damage_; }

  // Copies [offset, offset + out.size()) of the decompressed stream into `out`.
  Status read(uint64_t offset, std::span<uint8_t> out);
  // Calls `piece` with the consecutive pieces of [offset, offset + length), each valid only
  // during the call.
  Status for_each_piece(uint64_t offset, uint64_t length,
                        const std::function<Status(std::span<const uint8_t>)>& piece);

 private:
  struct Frame {
    uint64_t in_offset = 0;   // where the frame starts in the file
    uint64_t in_size = 0;     // its compressed size
    uint64_t out_offset = 0;  // where its contents start in the stream
    uint64_t out_size = 0;    // their size
  };
  // Adds the frame at `pos` of the file; returns where the next one starts.
  Result<uint64_t> add_frame(uint64_t pos);
  // The decompressed contents of frame `i` (the one kept from the last call, if it is `i`).
  Result<std::span<const uint8_t>> contents(size_t i);
  Result<std::vector<uint8_t>> decompress(const Frame& f, bool size_known) const;

  std::span<const uint8_t> bytes_;
  FrameLimits limits_;
  bool compressed_ = false;
  uint64_t size_ = 0;
  std::string damage_;
  std::vector<Frame> frames_;
  size_t cached_ = ~size_t{0};
  std::vector<uint8_t> cache_;
};

}  // namespace readperf
