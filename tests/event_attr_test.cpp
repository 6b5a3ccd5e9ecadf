#include "readperf/format/event_attr.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "byte_writer.h"
#include "perf_data_builder.h"

namespace readperf::testing {
namespace {

// An attr with a distinct value in every field, so a field read from the wrong place shows.
EventAttr FullAttr() {
  EventAttr a;
  a.type = 4;
  a.config = 0x1111111111111111;
  a.sample_period = 0x2222;
  a.sample_type = 0x3333;
  a.read_format = 0x1f;
  a.flags = (1ull << 0) | (1ull << 5) | (2ull << 15) | (1ull << 18) | (1ull << 23) | (1ull << 34) |
            (1ull << 37);
  a.wakeup_events = 0x44;
  a.bp_type = 0x55;
  a.config1 = 0x6666666666666666;
  a.config2 = 0x7777777777777777;
  a.branch_sample_type = 0x8888;
  a.sample_regs_user = 0x9999;
  a.sample_stack_user = 0xaaaa;
  a.clockid = -2;
  a.sample_regs_intr = 0xbbbb;
  a.aux_watermark = 0xcccc;
  a.sample_max_stack = 0xdd;
  a.reserved_2 = 0;
  a.aux_sample_size = 0xeeee;
  a.reserved_3 = 0;
  a.sig_data = 0xffff;
  a.config3 = 0x1234;
  a.config4 = 0x5678;
  return a;
}

// What an attr of `size` bytes holds: the fields that fit, zeros for the rest.
EventAttr Truncated(EventAttr a, uint32_t size) {
  a.size = size;
  if (size < 72) a.config2 = 0;
  if (size < 80) a.branch_sample_type = 0;
  if (size < 88) a.sample_regs_user = 0;
  if (size < 96) a.sample_stack_user = 0, a.clockid = 0;
  if (size < 104) a.sample_regs_intr = 0;
  if (size < 112) a.aux_watermark = 0, a.sample_max_stack = 0;
  if (size < 120) a.aux_sample_size = 0;
  if (size < 128) a.sig_data = 0;
  if (size < 136) a.config3 = 0;
  if (size < 144) a.config4 = 0;
  return a;
}

void ExpectSame(const EventAttr& got, const EventAttr& want) {
  EXPECT_EQ(got.type, want.type);
  EXPECT_EQ(got.size, want.size);
  EXPECT_EQ(got.config, want.config);
  EXPECT_EQ(got.sample_period, want.sample_period);
  EXPECT_EQ(got.sample_type, want.sample_type);
  EXPECT_EQ(got.read_format, want.read_format);
  EXPECT_EQ(got.flags, want.flags);
  EXPECT_EQ(got.wakeup_events, want.wakeup_events);
  EXPECT_EQ(got.bp_type, want.bp_type);
  EXPECT_EQ(got.config1, want.config1);
  EXPECT_EQ(got.config2, want.config2);
  EXPECT_EQ(got.branch_sample_type, want.branch_sample_type);
  EXPECT_EQ(got.sample_regs_user, want.sample_regs_user);
  EXPECT_EQ(got.sample_stack_user, want.sample_stack_user);
  EXPECT_EQ(got.clockid, want.clockid);
  EXPECT_EQ(got.sample_regs_intr, want.sample_regs_intr);
  EXPECT_EQ(got.aux_watermark, want.aux_watermark);
  EXPECT_EQ(got.sample_max_stack, want.sample_max_stack);
  EXPECT_EQ(got.aux_sample_size, want.aux_sample_size);
  EXPECT_EQ(got.sig_data, want.sig_data);
  EXPECT_EQ(got.config3, want.config3);
  EXPECT_EQ(got.config4, want.config4);
}

class EventAttrTest : public ::testing::TestWithParam<std::tuple<uint32_t, ByteOrder>> {};

TEST_P(EventAttrTest, ParsesEverySize) {
  auto [size, order] = GetParam();
  ByteWriter w(order);
  w.u64(0xdeadbeef);  // something before, so offsets are not trivially 0
  WriteAttr(w, FullAttr(), size);
  w.u64(0xfeedface);  // and something after that must not be read
  ByteCursor c(w.buffer(), order, 0x1000);
  c.u64();
  Result<EventAttr> a = parse_event_attr(c, size);
  ASSERT_TRUE(a) << a.error().message();
  ExpectSame(*a, Truncated(FullAttr(), size));
  EXPECT_EQ(c.position(), 8u + size);
  EXPECT_EQ(c.u64(), 0xfeedfaceu);
  // The accessors see the bit-fields where the kernel put them, in either order.
  EXPECT_TRUE(a->disabled());
  EXPECT_FALSE(a->inherit());
  EXPECT_EQ(a->precise_ip(), 2u);
  EXPECT_TRUE(a->sample_id_all());
  EXPECT_TRUE(a->mmap2());
  EXPECT_TRUE(a->build_id());
  EXPECT_FALSE(a->freq());
}

INSTANTIATE_TEST_SUITE_P(
    AllSizes, EventAttrTest,
    ::testing::Combine(::testing::Values(64, 72, 80, 88, 96, 104, 112, 120, 128, 136, 144),
                       ::testing::Values(ByteOrder::kNative, ByteOrder::kSwapped)),
    [](const auto& info) {
      return fmt::format("Size{}{}", std::get<0>(info.param),
                         std::get<1>(info.param) == ByteOrder::kNative ? "Native" : "Swapped");
    });

TEST(EventAttr, LargerThanKnownReadsKnownFieldsAndSkipsTheRest) {
  ByteWriter w;
  WriteAttr(w, FullAttr(), 144);
  w.u64(0x77).u64(0x88);  // a future 160-byte attr
  w.u64(0x99);
  ByteCursor c(w.buffer(), ByteOrder::kNative);
  Result<EventAttr> a = parse_event_attr(c, 160);
  ASSERT_TRUE(a);
  ExpectSame(*a, Truncated(FullAttr(), 144));
  EXPECT_EQ(c.u64(), 0x99u);
}

TEST(EventAttr, RefusesSmallerThanVer0) {
  ByteWriter w;
  WriteAttr(w, FullAttr(), 64);
  ByteCursor c(w.buffer(), ByteOrder::kNative, 0x40);
  Result<EventAttr> a = parse_event_attr(c, 56);
  ASSERT_FALSE(a);
  EXPECT_EQ(a.error().message(),
            "offset 0x40: perf_event_attr of 56 bytes is smaller than the first version's 64");
}

TEST(EventAttr, RefusesTruncated) {
  ByteWriter w;
  WriteAttr(w, FullAttr(), 128);
  ByteCursor c(Bytes(w.buffer()).first(100), ByteOrder::kNative, 0x68);
  Result<EventAttr> a = parse_event_attr(c, 128);
  ASSERT_FALSE(a);
  EXPECT_EQ(a.error().message(), "offset 0x68: truncated perf_event_attr");
}

TEST(EventAttr, SizeZeroIsKeptAsRecorded) {
  EventAttr in = FullAttr();
  ByteWriter w;
  WriteAttr(w, in, 64);
  w.buffer()[4] = std::byte{0};  // old perf wrote size 0 for VER0
  ByteCursor c(w.buffer(), ByteOrder::kNative);
  Result<EventAttr> a = parse_event_attr(c, 64);
  ASSERT_TRUE(a);
  EXPECT_EQ(a->size, 0u);
  EXPECT_EQ(a->config1, in.config1);
}

}  // namespace
}  // namespace readperf::testing
