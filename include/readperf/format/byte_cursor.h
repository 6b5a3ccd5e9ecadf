// The one place raw perf.data bytes become values. Every multi-byte read goes through a
// ByteCursor, which checks bounds (overflow first, then size) and applies the byte order that
// the file's magic decided. Errors are sticky: after the first out-of-bounds read every later
// read returns zero, so a run of reads is checked once at the end (LLVM's DataExtractor::Cursor).
//
//   ByteCursor c(bytes, ByteOrder::kSwapped, /*base_offset=*/file_offset);
//   uint32_t type = c.u32();
//   uint64_t addr = c.u64();
//   if (!c.ok()) return c.error("mmap record");
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <string_view>

#include "readperf/format/error.h"

namespace readperf {

using Bytes = std::span<const std::byte>;

// Whether the file was written by a machine of the other byte order. Decided once from the
// magic (perf's util/header.c check_magic_endian) and carried by every cursor over its bytes.
enum class ByteOrder : uint8_t { kNative, kSwapped };

inline uint16_t bswap(uint16_t v) { return __builtin_bswap16(v); }
inline uint32_t bswap(uint32_t v) { return __builtin_bswap32(v); }
inline uint64_t bswap(uint64_t v) { return __builtin_bswap64(v); }

class ByteCursor {
 public:
  ByteCursor() = default;
  ByteCursor(Bytes data, ByteOrder order, uint64_t base_offset = 0)
      : data_(data), order_(order), base_offset_(base_offset) {}

  bool ok() const { return ok_; }
  bool swapped() const { return order_ == ByteOrder::kSwapped; }
  ByteOrder order() const { return order_; }
  size_t position() const { return pos_; }
  size_t size() const { return data_.size(); }
  size_t remaining() const { return data_.size() - pos_; }
  bool at_end() const { return pos_ >= data_.size(); }
  // Absolute offset (in the file) of the next byte to read.
  uint64_t file_offset() const { return base_offset_ + pos_; }
  uint64_t base_offset() const { return base_offset_; }
  Bytes data() const { return data_; }

  uint8_t u8() { return read<uint8_t>(); }
  uint16_t u16() { return read<uint16_t>(); }
  uint32_t u32() { return read<uint32_t>(); }
  uint64_t u64() { return read<uint64_t>(); }
  int32_t s32() { return static_cast<int32_t>(read<uint32_t>()); }
  int64_t s64() { return static_cast<int64_t>(read<uint64_t>()); }

  // A u64 of perf_event_attr bit-fields. Swapped files also need the bits of each byte
  // reversed, as perf's swap_bitfield() does (util/session.c perf_event__attr_swap).
  uint64_t bitfield64();

  // The next `n` bytes, unswapped; empty (and a sticky error) if there are fewer.
  Bytes bytes(size_t n);
  // A NUL-padded string in a fixed field of `n` bytes: the text up to the first NUL.
  std::string_view fixed_string(size_t n);
  // A NUL-terminated string in the rest of the data (or up to the end if unterminated).
  std::string_view cstring();

  void skip(size_t n) { (void)bytes(n); }
  void seek(size_t pos) {
    if (pos > data_.size()) {
      fail();
      return;
    }
    pos_ = pos;
  }
  // A cursor over the next `n` bytes (same order), advancing this one past them.
  ByteCursor sub(size_t n) {
    uint64_t off = file_offset();
    Bytes b = bytes(n);
    ByteCursor c(b, order_, off);
    if (!ok_) c.fail();
    return c;
  }
  void fail() { ok_ = false; }

  // "offset 0x...: truncated <what>" at the position where reading failed.
  Error error(std::string_view what) const;

  template <class T>
  T read() {
    static_assert(std::is_integral_v<T> && std::is_unsigned_v<T>);
    if (!ok_ || remaining() < sizeof(T)) {
      fail();
      return 0;
    }
    T v;
    std::memcpy(&v, data_.data() + pos_, sizeof(T));
    pos_ += sizeof(T);
    if constexpr (sizeof(T) > 1) {
      if (order_ == ByteOrder::kSwapped) v = bswap(v);
    }
    return v;
  }

 private:
  Bytes data_;
  size_t pos_ = 0;
  ByteOrder order_ = ByteOrder::kNative;
  bool ok_ = true;
  uint64_t base_offset_ = 0;
};

// Overflow-safe "does [offset, offset+size) fit in total".
inline bool fits(uint64_t offset, uint64_t size, uint64_t total) {
  return offset <= total && size <= total - offset;
}

inline Bytes as_bytes(std::string_view s) {
  return {reinterpret_cast<const std::byte*>(s.data()), s.size()};
}
inline std::string_view as_string_view(Bytes b) {
  return {reinterpret_cast<const char*>(b.data()), b.size()};
}

}  // namespace readperf
