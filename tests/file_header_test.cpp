#include "readperf/format/file_header.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "byte_writer.h"
#include "perf_data_builder.h"
#include "readperf/format/header_version.h"
#include "readperf/format/perf_abi.h"

namespace readperf::testing {
namespace {

class FileHeaderTest : public ::testing::TestWithParam<ByteOrder> {};

TEST_P(FileHeaderTest, ParsesBuilderFile) {
  PerfDataBuilder b;
  b.WithByteOrder(GetParam()).AddAttr(SampleAttr(kSampleIp), {1, 2});
  b.AddStringFeature(kFeatHostname, "host").AddStringFeature(kFeatOsRelease, "6.1");
  b.AddComm(1, 1, "x");
  std::vector<std::byte> file = b.Build();
  Result<FileHeader> h = parse_file_header(file);
  ASSERT_TRUE(h) << h.error().message();
  EXPECT_EQ(h->order, GetParam());
  EXPECT_FALSE(h->is_pipe);
  EXPECT_EQ(h->size, kFileHeaderSize);
  EXPECT_EQ(h->attr_size, 128u + 16u);
  EXPECT_EQ(h->attrs.offset, b.layout().attrs_offset);
  EXPECT_EQ(h->attrs.size, 144u);
  EXPECT_EQ(h->data.offset, b.layout().data_offset);
  EXPECT_EQ(h->data.size, b.layout().data_size);
  EXPECT_EQ(h->feature_table_offset(), b.layout().feature_table_offset);
  EXPECT_TRUE(h->features[kFeatHostname]);
  EXPECT_TRUE(h->features[kFeatOsRelease]);
  EXPECT_EQ(h->features.count(), 2u);
}

TEST_P(FileHeaderTest, ParsesPipeHeader) {
  std::vector<std::byte> pipe =
      PerfDataBuilder().WithByteOrder(GetParam()).WithMode(PerfDataBuilder::Mode::kPipe).Build();
  ASSERT_EQ(pipe.size(), kPipeHeaderSize);
  Result<FileHeader> h = parse_file_header(pipe);
  ASSERT_TRUE(h) << h.error().message();
  EXPECT_TRUE(h->is_pipe);
  EXPECT_EQ(h->order, GetParam());
  EXPECT_EQ(h->size, kPipeHeaderSize);
}

TEST_P(FileHeaderTest, FeatureBitsAbove64) {
  std::vector<std::byte> f = PerfDataBuilder()
                                 .WithByteOrder(GetParam())
                                 .AddStringFeature(kFeatHostname, "h")
                                 .AddFeature(70, std::vector<std::byte>(8))
                                 .AddFeature(255, std::vector<std::byte>(8))
                                 .Build();
  Result<FileHeader> h = parse_file_header(f);
  ASSERT_TRUE(h);
  EXPECT_TRUE(h->features[70]);
  EXPECT_TRUE(h->features[255]);
  EXPECT_EQ(h->features.count(), 3u);
}

TEST_P(FileHeaderTest, HeaderWithoutFeatureBitmap) {
  ByteWriter w(GetParam());
  w.u64(kMagicPerfile2).u64(kFileHeaderSizeNoFeatures).u64(80).u64(72).u64(0).u64(72).u64(0);
  w.u64(0).u64(0);
  Result<FileHeader> h = parse_file_header(w.buffer());
  ASSERT_TRUE(h) << h.error().message();
  EXPECT_EQ(h->size, kFileHeaderSizeNoFeatures);
  EXPECT_TRUE(h->features.none());
}

// perf 6.1 still reads the version 1 magic (header.c check_magic_endian, try_all_file_abis):
// header version 0, the byte order from attr_size.
TEST_P(FileHeaderTest, ReadsPerffileVersion1) {
  for (uint32_t attr_size : {64u, 72u, 80u, 96u, 104u}) {
    PerfDataBuilder b;
    b.WithByteOrder(GetParam()).WithPerffileMagic().WithAttrSize(attr_size);
    b.AddAttr(SampleAttr(kSampleIp), {1}).AddComm(1, 1, "x");
    std::vector<std::byte> file = b.Build();
    ASSERT_EQ(std::string(reinterpret_cast<const char*>(file.data()), 8), "PERFFILE");
    Result<FileHeader> h = parse_file_header(file);
    ASSERT_TRUE(h) << attr_size << ": " << h.error().message();
    EXPECT_EQ(h->order, GetParam());
    EXPECT_EQ(header_version(file), 0u);
    EXPECT_FALSE(h->is_pipe);
    EXPECT_EQ(h->attr_size, attr_size + 16u);
    EXPECT_EQ(h->data.offset, b.layout().data_offset);
  }
}

TEST_P(FileHeaderTest, PerfileVersion2IsHeaderVersion1) {
  std::vector<std::byte> file = PerfDataBuilder().WithByteOrder(GetParam()).Build();
  ASSERT_TRUE(parse_file_header(file));
  EXPECT_EQ(header_version(file), 1u);
  EXPECT_EQ(header_version(Bytes(file.data(), 4)), 1u);
}

TEST_P(FileHeaderTest, ReadsPerffilePipeInNativeOrder) {
  std::vector<std::byte> pipe =
      PerfDataBuilder().WithPerffileMagic().WithMode(PerfDataBuilder::Mode::kPipe).Build();
  Result<FileHeader> h = parse_file_header(pipe);
  ASSERT_TRUE(h) << h.error().message();
  EXPECT_TRUE(h->is_pipe);
  EXPECT_EQ(header_version(pipe), 0u);
  EXPECT_EQ(h->order, ByteOrder::kNative);
}

// attr sizes perf added after PERFFILE (112 and up) say nothing of the byte order.
TEST_P(FileHeaderTest, RefusesPerffileWithALaterAttrSize) {
  std::vector<std::byte> file =
      PerfDataBuilder().WithByteOrder(GetParam()).WithPerffileMagic().WithAttrSize(112).Build();
  Result<FileHeader> h = parse_file_header(file);
  ASSERT_FALSE(h);
  uint64_t raw = GetParam() == ByteOrder::kNative ? 128 : bswap(uint64_t{128});
  EXPECT_EQ(h.error().message(),
            fmt::format("offset 0x10: PERFFILE (version 1) header: attr_size {} is none of the "
                        "sizes of that format (80, 88, 96, 112, 120) in either byte order",
                        raw));
}

TEST_P(FileHeaderTest, RefusesBadHeaderSizes) {
  for (uint64_t size : {0ull, 8ull, 17ull, 103ull, 105ull, 4096ull, ~0ull}) {
    ByteWriter w(GetParam());
    w.u64(kMagicPerfile2).u64(size).zeros(88);
    Result<FileHeader> h = parse_file_header(w.buffer());
    ASSERT_FALSE(h) << size;
    EXPECT_EQ(h.error().message(),
              fmt::format("offset 0x8: header size {} is neither a file header's (104) nor a "
                          "pipe header's (16)",
                          size));
  }
}

TEST_P(FileHeaderTest, RefusesFileSmallerThanItsHeader) {
  std::vector<std::byte> f = PerfDataBuilder().WithByteOrder(GetParam()).Build();
  for (size_t n : {16, 50, 103}) {
    Result<FileHeader> h = parse_file_header(Bytes(f).first(n));
    ASSERT_FALSE(h);
    EXPECT_EQ(h.error().message(),
              fmt::format("offset 0x0: file of {} bytes is smaller than its 104-byte header", n));
  }
  for (size_t n : {0, 7, 15}) {
    Result<FileHeader> h = parse_file_header(Bytes(f).first(n));
    ASSERT_FALSE(h);
    EXPECT_EQ(h.error().message(),
              fmt::format("offset 0x0: file of {} bytes is too small for a perf.data header", n));
  }
}

INSTANTIATE_TEST_SUITE_P(BothOrders, FileHeaderTest,
                         ::testing::Values(ByteOrder::kNative, ByteOrder::kSwapped),
                         [](const auto& info) {
                           return info.param == ByteOrder::kNative ? "Native" : "Swapped";
                         });

TEST(FileHeader, RefusesUnknownMagic) {
  ByteWriter w;
  w.fixed("NOTPERF!", 8).u64(104).zeros(88);
  Result<FileHeader> h = parse_file_header(w.buffer());
  ASSERT_FALSE(h);
  EXPECT_EQ(h.error().message(), "offset 0x0: not a perf.data file (magic 0x2146524550544f4e)");
}

TEST(FileHeader, Swapped32BitBitmapFallsBackToU32Words) {
  // A big-endian 32-bit writer's bitmap is an array of u32: HOSTNAME (bit 3) lands in the
  // first u32, which read as a u64 word moves it to bit 35.
  ByteWriter w(ByteOrder::kSwapped);
  w.u64(kMagicPerfile2).u64(kFileHeaderSize).u64(0).zeros(6 * 8);
  w.u32((1u << kFeatHostname) | (1u << kFeatBuildId)).zeros(28);
  Result<FileHeader> h = parse_file_header(w.buffer());
  ASSERT_TRUE(h) << h.error().message();
  EXPECT_TRUE(h->features[kFeatHostname]);
  EXPECT_TRUE(h->features[kFeatBuildId]);
  EXPECT_EQ(h->features.count(), 2u);
}

TEST(FileHeader, SwappedWithoutHostnameAssumesBuildIdOnly) {
  ByteWriter w(ByteOrder::kSwapped);
  w.u64(kMagicPerfile2).u64(kFileHeaderSize).zeros(7 * 8).u64(1u << kFeatOsRelease).zeros(24);
  Result<FileHeader> h = parse_file_header(w.buffer());
  ASSERT_TRUE(h);
  EXPECT_TRUE(h->features[kFeatBuildId]);
  EXPECT_EQ(h->features.count(), 1u);
}

}  // namespace
}  // namespace readperf::testing
