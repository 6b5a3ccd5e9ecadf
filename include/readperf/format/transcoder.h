// Copies perf.data bytes from one byte order to the other, field by field: the walker of a
// record or feature section says what each field is (a u32, a u64, bytes kept as they are)
// and gets the field's value in this machine's order to decide what comes next. Reading
// past the end leaves the rest copied verbatim and ok() false.
//
//   Transcoder t(section, ByteOrder::kNative, out);  // out receives the swapped bytes
//   uint32_t nr = t.u32();
//   for (uint32_t i = 0; i < nr && t.ok(); ++i) t.string();
//   t.rest_raw();
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

#include "readperf/format/byte_cursor.h"

namespace readperf {

class Transcoder {
 public:
  Transcoder(Bytes in, ByteOrder from, std::vector<std::byte>& out)
      : in_(in), from_(from), out_(out) {}

  bool ok() const { return ok_; }
  size_t position() const { return pos_; }
  size_t remaining() const { return in_.size() - pos_; }
  // Whether the source is the swapped side (so the output is this machine's order).
  bool from_swapped() const { return from_ == ByteOrder::kSwapped; }

  uint16_t u16() { return swap<uint16_t>(); }
  uint32_t u32() { return swap<uint32_t>(); }
  uint64_t u64() { return swap<uint64_t>(); }
  void u64s(uint64_t n) {
    if (n > remaining() / 8) {
      for (uint64_t i = 0; i < n && ok_; ++i) u64();
      return;
    }
    // In one go: call chains and stack copies are thousands of words.
    size_t at = out_.size();
    out_.resize(at + n * 8);
    const std::byte* src = in_.data() + pos_;
    std::byte* dst = out_.data() + at;
    for (uint64_t i = 0; i < n; ++i) {
      uint64_t v;
      std::memcpy(&v, src + i * 8, 8);
      v = bswap(v);
      std::memcpy(dst + i * 8, &v, 8);
    }
    pos_ += n * 8;
  }
  // `n` bytes kept as they are (strings, data with its own byte order).
  void raw(size_t n) {
    if (!have(n)) return;
    append(in_.data() + pos_, n);
    pos_ += n;
  }
  // The u64 in the source, copied without swapping; its value in this machine's order.
  uint64_t raw_u64_value() {
    if (!have(8)) return 0;
    uint64_t v;
    std::memcpy(&v, in_.data() + pos_, 8);
    raw(8);
    return from_swapped() ? bswap(v) : v;
  }
  // A value already converted by the caller, written in place of the next `sizeof(T)` bytes.
  template <class T>
  void put(T converted) {
    if (!have(sizeof(T))) return;
    append(&converted, sizeof(T));
    pos_ += sizeof(T);
  }
  uint32_t peek_u32() const {
    if (remaining() < 4) return 0;
    uint32_t v;
    std::memcpy(&v, in_.data() + pos_, 4);
    return from_swapped() ? bswap(v) : v;
  }
  // Peeks the next u32/u64 in this machine's order without consuming it.
  uint64_t peek_u64() const {
    if (remaining() < 8) return 0;
    uint64_t v;
    std::memcpy(&v, in_.data() + pos_, 8);
    return from_swapped() ? bswap(v) : v;
  }
  // `n` bytes of C bit-fields: each byte keeps its place and has its bits reversed, as a
  // compiler of the other byte order allocates them (session.c swap_bitfield).
  void bits_reversed(size_t n) {
    if (!have(n)) return;
    for (size_t i = 0; i < n; ++i) {
      auto v = std::to_integer<uint8_t>(in_[pos_ + i]);
      v = static_cast<uint8_t>((v & 0xF0) >> 4 | (v & 0x0F) << 4);
      v = static_cast<uint8_t>((v & 0xCC) >> 2 | (v & 0x33) << 2);
      v = static_cast<uint8_t>((v & 0xAA) >> 1 | (v & 0x55) << 1);
      out_.push_back(std::byte{v});
    }
    pos_ += n;
  }
  // perf's do_write_string(): a u32 length, then that many bytes (NUL and padding).
  void string() {
    uint32_t len = u32();
    if (ok_) raw(len);
  }
  // NUL-terminated text padded to 8 bytes, measured as perf does (strlen + 1, aligned).
  void cstring_aligned() {
    size_t n = 0;
    while (pos_ + n < in_.size() && in_[pos_ + n] != std::byte{0}) ++n;
    raw(std::min(remaining(), (n + 1 + 7) & ~size_t{7}));
  }
  // The rest as u64 words (a tail shorter than a word verbatim), or verbatim.
  void rest_u64() {
    u64s(remaining() / 8);
    rest_raw();
  }
  void rest_raw() { raw(remaining()); }
  // Copies the rest verbatim and marks the walk failed (the input ended early).
  void fail() {
    ok_ = false;
    rest_raw();
  }

 private:
  bool have(size_t n) {
    if (ok_ && remaining() >= n) return true;
    if (ok_) fail();
    return false;
  }
  void append(const void* p, size_t n) {
    const auto* b = static_cast<const std::byte*>(p);
    out_.insert(out_.end(), b, b + n);
  }
  template <class T>
  T swap() {
    if (!have(sizeof(T))) return 0;
    T v;
    std::memcpy(&v, in_.data() + pos_, sizeof(T));
    T s = bswap(v);
    append(&s, sizeof(T));
    pos_ += sizeof(T);
    return from_swapped() ? s : v;
  }

  Bytes in_;
  ByteOrder from_;
  std::vector<std::byte>& out_;
  size_t pos_ = 0;
  bool ok_ = true;
};

}  // namespace readperf
