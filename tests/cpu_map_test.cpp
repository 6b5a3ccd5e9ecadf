// decode_cpu_map(): every encoding of perf_record_cpu_map_data, in both byte orders, as
// util/cpumap.c cpu_map__new_data() reads them; the one decoder behind -D, stat report and
// script's stat output.
#include "readperf/reader/cpu_map.h"

#include <gtest/gtest.h>

#include "byte_writer.h"

namespace readperf::testing {
namespace {

class CpuMapTest : public ::testing::TestWithParam<ByteOrder> {
 protected:
  Result<std::vector<int>> decode(const ByteWriter& w) {
    return decode_cpu_map(ByteCursor(w.buffer(), GetParam()));
  }
};

TEST_P(CpuMapTest, CpuList) {
  ByteWriter w(GetParam());
  w.u16(0).u16(4).u16(0).u16(3).u16(40).u16(0xffff);
  EXPECT_EQ(decode(w).value(), (std::vector<int>{0, 3, 40, -1}));
}

TEST_P(CpuMapTest, Mask32) {
  ByteWriter w(GetParam());
  w.u16(1).u16(2).u16(4).u32(0x80000005).u32(0x2);  // cpus 0, 2, 31, then 33
  EXPECT_EQ(decode(w).value(), (std::vector<int>{0, 2, 31, 33}));
}

// perf_record_mask_cpu_map64: u16 nr, u16 long_size, 4 bytes of padding, then the u64 words
// (perf writes it for a set of CPUs above 31 with holes). Reading the words 2 bytes early
// found CPUs 16 and 17 here.
TEST_P(CpuMapTest, Mask64) {
  ByteWriter w(GetParam());
  w.u16(1).u16(2).u16(8).u32(0).u64(0x8000000200000001ull).u64(0x41);
  EXPECT_EQ(decode(w).value(), (std::vector<int>{0, 33, 63, 64, 70}));
}

TEST_P(CpuMapTest, Range) {
  ByteWriter w(GetParam());
  w.u16(2).u8(0).u8(0).u16(4).u16(7);
  EXPECT_EQ(decode(w).value(), (std::vector<int>{4, 5, 6, 7}));
  ByteWriter any(GetParam());
  any.u16(2).u8(1).u8(0).u16(0).u16(1);
  EXPECT_EQ(decode(any).value(), (std::vector<int>{-1, 0, 1}));
}

TEST_P(CpuMapTest, ErrorsAreValues) {
  ByteWriter unknown(GetParam());
  unknown.u16(3).u16(0);
  ASSERT_FALSE(decode(unknown));
  EXPECT_EQ(decode(unknown).error().message(), "offset 0x0: cpu map of unknown type 3");
  ByteWriter short_mask(GetParam());
  short_mask.u16(1).u16(2).u16(8).u32(0).u64(1);  // two words declared, one present
  ASSERT_FALSE(decode(short_mask));
  ByteWriter short_list(GetParam());
  short_list.u16(0).u16(3).u16(1);
  ASSERT_FALSE(decode(short_list));
}

INSTANTIATE_TEST_SUITE_P(BothOrders, CpuMapTest,
                         ::testing::Values(ByteOrder::kNative, ByteOrder::kSwapped));

}  // namespace
}  // namespace readperf::testing
