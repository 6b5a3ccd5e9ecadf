#include "readperf/format/byte_cursor.h"

#include <fmt/format.h>

namespace readperf {

namespace {
uint8_t reverse_bits(uint8_t b) {
  b = static_cast<uint8_t>((b & 0xF0) >> 4 | (b & 0x0F) << 4);
  b = static_cast<uint8_t>((b & 0xCC) >> 2 | (b & 0x33) << 2);
  b = static_cast<uint8_t>((b & 0xAA) >> 1 | (b & 0x55) << 1);
  return b;
}
}  // namespace

uint64_t ByteCursor::bitfield64() {
  // Big-endian bit-fields start at the most significant bit of the first byte, so the
  // bytes keep their places and only the bits inside each byte are reversed.
  Bytes b = bytes(8);
  if (b.empty()) return 0;
  uint64_t v;
  std::memcpy(&v, b.data(), 8);
  if (order_ != ByteOrder::kSwapped) return v;
  uint64_t out = 0;
  for (int i = 0; i < 8; ++i) {
    uint8_t byte = static_cast<uint8_t>(v >> (8 * i));
    out |= static_cast<uint64_t>(reverse_bits(byte)) << (8 * i);
  }
  return out;
}

Bytes ByteCursor::bytes(size_t n) {
  if (!ok_ || remaining() < n) {
    fail();
    return {};
  }
  Bytes b = data_.subspan(pos_, n);
  pos_ += n;
  return b;
}

std::string_view ByteCursor::fixed_string(size_t n) {
  Bytes b = bytes(n);
  std::string_view s = as_string_view(b);
  size_t nul = s.find('\0');
  return nul == std::string_view::npos ? s : s.substr(0, nul);
}

std::string_view ByteCursor::cstring() {
  if (!ok_) return {};
  std::string_view rest = as_string_view(data_.subspan(pos_));
  size_t nul = rest.find('\0');
  if (nul == std::string_view::npos) {
    pos_ = data_.size();
    return rest;
  }
  pos_ += nul + 1;
  return rest.substr(0, nul);
}

Error ByteCursor::error(std::string_view what) const {
  return Error(fmt::format("truncated {}", what), file_offset());
}

}  // namespace readperf
