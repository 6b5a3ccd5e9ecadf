// A zero-copy view of an array of u64 inside a record (call chains, registers, read values),
// converted to native order on access.
#pragma once

#include <cstdint>
#include <cstring>

#include "readperf/format/byte_cursor.h"

namespace readperf {

class U64Array {
 public:
  U64Array() = default;
  U64Array(Bytes bytes, ByteOrder order) : bytes_(bytes), order_(order) {}

  size_t size() const { return bytes_.size() / 8; }
  bool empty() const { return bytes_.empty(); }
  uint64_t operator[](size_t i) const {
    uint64_t v;
    std::memcpy(&v, bytes_.data() + i * 8, 8);
    return order_ == ByteOrder::kSwapped ? bswap(v) : v;
  }
  Bytes bytes() const { return bytes_; }
  ByteOrder order() const { return order_; }

 private:
  Bytes bytes_;
  ByteOrder order_ = ByteOrder::kNative;
};

}  // namespace readperf
