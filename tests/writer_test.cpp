// The writer against the reader: golden recordings read, written (natively, swapped, swapped
// back, decompressed, compressed) and read again give the same kernel records, decoded field
// by field. What perf prints for the swapped copies is checked by golden/run-swapped.
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>

#include "readperf/reader/feature_swap.h"
#include "readperf/reader/record_swap.h"
#include "readperf/writer/converter.h"
#include "test_util.h"

namespace readperf::testing {
namespace {

const std::string kGolden = READPERF_GOLDEN_DIR;

std::vector<char> Slurp(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
}

Result<ConvertStats> Convert(const std::string& in, const std::string& out,
                             const ConvertOptions& o) {
  auto data = PerfData::open(in);
  if (!data) return tl::unexpected(data.error());
  return convert(**data, out, o);
}

class WriterGoldenTest : public ::testing::TestWithParam<std::string> {};

TEST_P(WriterGoldenTest, RoundTripsInBothByteOrders) {
  const std::string in = kGolden + "/" + GetParam() + "/perf.data";
  TempDir tmp;
  ConvertOptions same, big, little;
  big.byte_order = ConvertOptions::Endian::kBig;
  little.byte_order = ConvertOptions::Endian::kLittle;
  ASSERT_TRUE(Convert(in, tmp.file("same"), same));
  ASSERT_TRUE(Convert(in, tmp.file("big"), big));
  ASSERT_TRUE(Convert(tmp.file("big"), tmp.file("back"), little));
  if (GetParam() != "zstd") {
    // Swapping is its own inverse: back in this machine's order, the bytes are the same.
    EXPECT_EQ(Slurp(tmp.file("same")), Slurp(tmp.file("back")));
  } else {
    // Recompressed: other zstd frames (of the same sizes), the same records.
    EXPECT_EQ(ReadPath(tmp.file("same")).sink.all, ReadPath(tmp.file("back")).sink.all);
  }

  ReadResult want = ReadPath(in);
  ASSERT_TRUE(want.ok) << want.error;
  for (const char* name : {"same", "big"}) {
    ReadResult got = ReadPath(tmp.file(name));
    ASSERT_TRUE(got.ok) << name << ": " << got.error;
    EXPECT_EQ(want.sink.kernel, got.sink.kernel) << name;
    EXPECT_EQ(want.sink.skipped, got.sink.skipped) << name;
  }
}

TEST_P(WriterGoldenTest, DecompressedAndCompressedCopiesKeepTheRecords) {
  const std::string in = kGolden + "/" + GetParam() + "/perf.data";
  TempDir tmp;
  ConvertOptions plain, packed;
  plain.decompress = true;
  packed.compress_level = 3;
  packed.byte_order = ConvertOptions::Endian::kBig;
  ASSERT_TRUE(Convert(in, tmp.file("plain"), plain));
  ASSERT_TRUE(Convert(in, tmp.file("packed"), packed));
  ReadResult want = ReadPath(in);
  for (const char* name : {"plain", "packed"}) {
    ReadResult got = ReadPath(tmp.file(name));
    ASSERT_TRUE(got.ok) << name << ": " << got.error;
    EXPECT_EQ(want.sink.kernel, got.sink.kernel) << name;
  }
}

INSTANTIATE_TEST_SUITE_P(Golden, WriterGoldenTest,
                         ::testing::Values("default", "zstd", "tracepoint", "stat", "branch-4.14",
                                           "group_desc-4.14", "raw-3.4", "lost_samples-4.4",
                                           "spin-fp"));

TEST(WriterTest, PipesAndDirectoriesBecomeFiles) {
  TempDir tmp;
  ConvertOptions o;
  ASSERT_TRUE(Convert(kGolden + "/threads-dir/perf.data", tmp.file("dir"), o));
  ReadResult want = ReadPath(kGolden + "/threads-dir/perf.data");
  ReadResult got = ReadPath(tmp.file("dir"));
  ASSERT_TRUE(got.ok) << got.error;
  EXPECT_EQ(want.sink.kernel, got.sink.kernel);
}

TEST(WriterTest, TimeFilterKeepsTheSamplesInTheRange) {
  auto r = parse_time_ranges("380.300332,380.4");
  ASSERT_TRUE(r);
  EXPECT_EQ((*r)[0].start, 380300332000ull);
  EXPECT_EQ((*r)[0].end, 380400000000ull);
  EXPECT_FALSE(parse_time_ranges("1.2"));
  EXPECT_FALSE(parse_time_ranges("x,1"));
  auto open = parse_time_ranges(",5");
  ASSERT_TRUE(open);
  EXPECT_EQ((*open)[0].start, 0u);

  TempDir tmp;
  ConvertOptions o;
  o.time = *r;
  const std::string in = kGolden + "/default/perf.data";
  auto st = Convert(in, tmp.file("cut"), o);
  ASSERT_TRUE(st);
  EXPECT_GT(st->samples_dropped, 0u);
  ReadResult got = ReadPath(tmp.file("cut"));
  ASSERT_TRUE(got.ok);
  for (size_t i = 0; i < got.sink.kernel.size(); ++i) {
    if (got.sink.kernel[i].rfind("K 9 ", 0) != 0) continue;
    EXPECT_GE(got.sink.kernel_times[i], 380300332000ull);
    EXPECT_LE(got.sink.kernel_times[i], 380400000000ull);
  }
}

TEST(WriterTest, BranchFlagsSwapBackAndForth) {
  for (uint64_t v : {0x1ull, 0x2ull, 0xfff0ull, 0x123456789abcdefull}) {
    uint64_t stored = unswap_branch_flags(v);
    // The reader's swap_branch_flags() moves each field back to its little-endian place.
    uint64_t out = 0;
    int pos = 0;
    for (int width : {1, 1, 1, 1, 16, 4, 2, 4, 3, 31}) {
      uint64_t mask = (1ull << width) - 1;
      out |= ((stored >> (64 - pos - width)) & mask) << pos;
      pos += width;
    }
    EXPECT_EQ(out, v);
  }
}

}  // namespace
}  // namespace readperf::testing
