#include "readperf/format/byte_cursor.h"

#include <gtest/gtest.h>

namespace readperf {
namespace {

TEST(ByteCursor, ReadsNativeAndSwapped) {
  const unsigned char raw[] = {1, 2, 3, 4, 5, 6, 7, 8};
  Bytes b(reinterpret_cast<const std::byte*>(raw), sizeof raw);
  ByteCursor n(b, ByteOrder::kNative);
  EXPECT_EQ(n.u32(), 0x04030201u);
  EXPECT_EQ(n.u16(), 0x0605u);
  ByteCursor s(b, ByteOrder::kSwapped);
  EXPECT_EQ(s.u64(), 0x0102030405060708ull);
  EXPECT_TRUE(s.ok());
}

TEST(ByteCursor, ErrorIsSticky) {
  const unsigned char raw[] = {1, 2, 3};
  Bytes b(reinterpret_cast<const std::byte*>(raw), sizeof raw);
  ByteCursor c(b, ByteOrder::kNative, 0x100);
  EXPECT_EQ(c.u32(), 0u);
  EXPECT_FALSE(c.ok());
  EXPECT_EQ(c.u8(), 0u);  // even though one byte would fit
  EXPECT_EQ(c.error("thing").message(), "offset 0x100: truncated thing");
}

TEST(ByteCursor, SwappedBitfieldReversesBitsInEachByte) {
  // A big-endian writer puts bit-field 0 (disabled) in the top bit of the first byte.
  const unsigned char raw[] = {0x80, 0, 0, 0, 0, 0, 0, 0x01};
  Bytes b(reinterpret_cast<const std::byte*>(raw), sizeof raw);
  ByteCursor c(b, ByteOrder::kSwapped);
  EXPECT_EQ(c.bitfield64(), 0x8000000000000001ull);
}

}  // namespace
}  // namespace readperf
