// The inverse of ByteCursor for tests: appends values in a chosen byte order, so a test can
// write the bytes a machine of the other endianness would have written.
//
//   ByteWriter w(ByteOrder::kSwapped);
//   w.u32(kRecordMmap).u16(misc).u16(size);
//   w.str("/bin/true", 8);   // NUL-terminated, padded to a multiple of 8
#pragma once

#include <cstdint>
#include <cstring>
#include <string_view>
#include <vector>

#include "readperf/format/byte_cursor.h"

namespace readperf::testing {

class ByteWriter {
 public:
  explicit ByteWriter(ByteOrder order = ByteOrder::kNative) : order_(order) {}

  ByteOrder order() const { return order_; }
  bool swapped() const { return order_ == ByteOrder::kSwapped; }
  size_t size() const { return buf_.size(); }
  const std::vector<std::byte>& buffer() const { return buf_; }
  std::vector<std::byte>& buffer() { return buf_; }
  std::vector<std::byte> take() { return std::move(buf_); }

  ByteWriter& u8(uint8_t v) {
    buf_.push_back(static_cast<std::byte>(v));
    return *this;
  }
  ByteWriter& u16(uint16_t v) { return put(v); }
  ByteWriter& u32(uint32_t v) { return put(v); }
  ByteWriter& u64(uint64_t v) { return put(v); }
  ByteWriter& s32(int32_t v) { return put(static_cast<uint32_t>(v)); }
  // A value in this machine's order whatever the writer's: the fields perf reads unswapped
  // from a file of the other order (attr.clockid, the BUILD_ID pid, HEADER_FEATURE's id).
  template <class T>
  ByteWriter& unswapped(T v) {
    return bytes(&v, sizeof v);
  }

  // A word of C bit-fields given in little-endian bit numbering (bit 0 = first field). A
  // big-endian compiler allocates bit-fields from the most significant bit of the first byte,
  // so each byte keeps its place and its bits are mirrored (perf's swap_bitfield()).
  ByteWriter& bitfield64(uint64_t v) {
    for (int i = 0; i < 8; ++i) {
      uint8_t b = static_cast<uint8_t>(v >> (8 * i));
      u8(swapped() ? reverse_bits(b) : b);
    }
    return *this;
  }

  ByteWriter& bytes(const void* p, size_t n) {
    const auto* b = static_cast<const std::byte*>(p);
    buf_.insert(buf_.end(), b, b + n);
    return *this;
  }
  ByteWriter& bytes(Bytes b) { return bytes(b.data(), b.size()); }
  ByteWriter& bytes(const std::vector<std::byte>& b) { return bytes(b.data(), b.size()); }
  ByteWriter& bytes(const std::vector<uint8_t>& b) { return bytes(b.data(), b.size()); }
  ByteWriter& zeros(size_t n) {
    buf_.resize(buf_.size() + n);
    return *this;
  }
  // `s`, a NUL, then zeros up to a multiple of `align` bytes in total.
  ByteWriter& str(std::string_view s, size_t align = 8) {
    bytes(s.data(), s.size());
    size_t n = s.size() + 1;
    return zeros(n + (align - n % align) % align - s.size());
  }
  // `s` in a fixed field of `n` bytes, NUL-padded.
  ByteWriter& fixed(std::string_view s, size_t n) {
    bytes(s.data(), std::min(s.size(), n));
    return zeros(n - std::min(s.size(), n));
  }
  ByteWriter& align(size_t a) { return zeros((a - buf_.size() % a) % a); }

  // Overwrites a value written earlier at `pos`.
  void patch_u16(size_t pos, uint16_t v) { patch(pos, v); }
  void patch_u64(size_t pos, uint64_t v) { patch(pos, v); }

  static uint8_t reverse_bits(uint8_t b) {
    uint8_t r = 0;
    for (int i = 0; i < 8; ++i) r |= static_cast<uint8_t>(((b >> i) & 1) << (7 - i));
    return r;
  }

 private:
  template <class T>
  ByteWriter& put(T v) {
    if (swapped()) v = bswap(v);
    return bytes(&v, sizeof v);
  }
  template <class T>
  void patch(size_t pos, T v) {
    if (swapped()) v = bswap(v);
    std::memcpy(buf_.data() + pos, &v, sizeof v);
  }

  ByteOrder order_;
  std::vector<std::byte> buf_;
};

}  // namespace readperf::testing
