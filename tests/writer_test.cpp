// The writer against the reader: golden recordings read, written (natively, swapped, swapped
// back, decompressed, compressed) and read again give the same kernel records, decoded field
// by field. What perf prints for the swapped copies is checked by golden/run-swapped.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <zstd.h>

#include <cstring>
#include <fstream>
#include <iterator>

#include "byte_writer.h"
#include "perf_data_builder.h"
#include "readperf/format/perf_abi.h"
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

// The COMPRESSED records of a file, in file order (perf reads them as one zstd stream).
std::vector<std::vector<std::byte>> CompressedPayloads(const std::string& path) {
  std::vector<char> f = Slurp(path);
  auto u64 = [&](size_t at) {
    uint64_t v = 0;
    std::memcpy(&v, f.data() + at, 8);
    return v;
  };
  std::vector<std::vector<std::byte>> out;
  const uint64_t begin = u64(40), end = begin + u64(48);  // the data section
  for (uint64_t at = begin; at + 8 <= end && at + 8 <= f.size();) {
    uint32_t type;
    uint16_t size;
    std::memcpy(&type, f.data() + at, 4);
    std::memcpy(&size, f.data() + at + 6, 2);
    if (size < 8 || at + size > f.size()) break;
    if (type == kRecordCompressed) {
      const auto* p = reinterpret_cast<const std::byte*>(f.data() + at + 8);
      out.emplace_back(p, p + size - 8);
    }
    at += size;
  }
  return out;
}

// Issue #16: a `perf record -z --threads` directory holds one zstd stream per data file.
// Merged into one file they must make one stream, or perf fails on them ("failed to
// decompress ... Data corruption detected"): readperf compresses them again.
TEST(WriterTest, CompressedDirectoryBecomesOneStream) {
  PerfDataBuilder b;
  b.AddAttr(SampleAttr(kSampleIp | kSampleTid | kSampleTime | kSampleCpu), {11});
  ByteWriter comp(ByteOrder::kNative);
  comp.u32(1).u32(1).u32(1).u32(4).u32(256 * 1024);  // version, zstd, level 1, ratio, mmap_len
  b.AddFeature(kFeatCompressed, comp.take());
  b.AddComm(7, 7, "main", {.pid = 7, .tid = 7, .time = 0});
  b.AddFinishedRound();
  for (int file = 0; file < 2; ++file) {
    b.InDataFile(file).BeginCompressed();
    for (uint64_t i = 0; i < 300; ++i) {
      b.AddSample({.ip = 0x1000u + i % 50,
                   .pid = 7,
                   .tid = 7u + file,
                   .time = 1000 + i * 3 + file,
                   .cpu = uint32_t(file)});
    }
    b.EndCompressed(/*piece=*/1500);
  }
  TempDir tmp;
  b.WriteDirectory(tmp.file("in.data"));
  ASSERT_TRUE(Convert(tmp.file("in.data"), tmp.file("out.data"), ConvertOptions{}));
  std::vector<std::vector<std::byte>> payloads = CompressedPayloads(tmp.file("out.data"));
  ASSERT_GT(payloads.size(), 1u);
  ZSTD_DStream* ds = ZSTD_createDStream();
  ZSTD_initDStream(ds);
  std::vector<std::byte> buf(1 << 16);
  size_t records = 0;
  for (const std::vector<std::byte>& p : payloads) {
    ZSTD_inBuffer in{p.data(), p.size(), 0};
    while (in.pos < in.size) {
      ZSTD_outBuffer out{buf.data(), buf.size(), 0};
      size_t rc = ZSTD_decompressStream(ds, &out, &in);
      ASSERT_FALSE(ZSTD_isError(rc)) << ZSTD_getErrorName(rc);
      records += out.pos;
    }
  }
  ZSTD_freeDStream(ds);
  EXPECT_GT(records, 0u);
  ReadResult want = ReadPath(tmp.file("in.data"));
  ReadResult got = ReadPath(tmp.file("out.data"));
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

// Issue #16, `convert --compat 6.1`: a recording as perf 7.2 writes it (144-byte attrs,
// COMPRESSED2, a feature and a user record perf 6.1 does not know, a pipe's end mark past
// perf 6.1's HEADER_LAST_FEATURE) written again as perf 6.1 reads it, with the same records.
TEST(WriterTest, Perf61CompatCopyOfANewerPerfsRecording) {
  using Mode = PerfDataBuilder::Mode;
  for (Mode mode : {Mode::kFile, Mode::kPipe}) {
    for (bool to_pipe : {false, true}) {
      for (ByteOrder order : {ByteOrder::kNative, ByteOrder::kSwapped}) {
        SCOPED_TRACE(fmt::format("pipe in {} pipe out {} swapped {}", mode == Mode::kPipe, to_pipe,
                                 order == ByteOrder::kSwapped));
        PerfDataBuilder b;
        EventAttr attr = SampleAttr(kSampleIp | kSampleTid | kSampleTime | kSampleId);
        attr.size = 144;
        b.WithByteOrder(order).WithMode(mode).WithAttrSize(144).AddAttr(attr, {11});
        b.AddStringFeature(kFeatHostname, "elsewhere");
        b.AddFeature(33, std::vector<std::byte>(8));  // a feature of perf 6.14 and later
        // The pipe's end mark: perf 7.2's HEADER_LAST_FEATURE, a record without a section.
        if (mode == Mode::kPipe) b.AddFeature(35, {});
        b.AddComm(7, 7, "far", {.pid = 7, .tid = 7, .time = 1, .id = 11});
        b.BeginCompressed();
        for (uint64_t i = 0; i < 200; ++i) {
          b.AddSample({.ip = 0x1000 + i, .pid = 7, .tid = 7, .time = 10 + i, .id = 11});
        }
        b.EndCompressed(/*piece=*/700, kRecordCompressed2);
        b.AddRecord(90, 0, [](ByteWriter& w) { w.u64(1); });  // a user type perf 6.1 lacks
        b.AddFinishedRound();
        TempDir tmp;
        std::string in = tmp.Write("in.data", b.Build());
        ConvertOptions o;
        o.compat_perf61 = true;
        o.to_pipe = to_pipe;
        ASSERT_TRUE(Convert(in, tmp.file("out.data"), o));

        auto out = PerfData::open(tmp.file("out.data"));
        ASSERT_TRUE(out) << out.error().message();
        CollectingSink all;
        ASSERT_TRUE((*out)->process(all));  // a pipe's attrs and features come as records
        if (!to_pipe) EXPECT_EQ((*out)->header().attr_size, 128u + 16);
        ASSERT_EQ((*out)->events().size(), 1u);
        EXPECT_EQ((*out)->events()[0].attr.size, 128u);
        // A pipe ends its features with perf 6.1's mark, HEADER_LAST_FEATURE (32).
        for (const auto& [feat, raw] : (*out)->features().raw) {
          if (to_pipe && feat == kFeatLastFeature6_1 && raw.empty()) continue;
          EXPECT_LT(feat, kFeatLastFeature6_1);
        }
        EXPECT_EQ((*out)->features().raw.count(kFeatLastFeature6_1), to_pipe ? 1u : 0u);
        EXPECT_TRUE((*out)->features().raw.count(kFeatHostname));
        ReadResult want = ReadPath(in);
        ReadResult got = ReadPath(tmp.file("out.data"));
        ASSERT_TRUE(got.ok) << got.error;
        EXPECT_EQ(want.sink.kernel, got.sink.kernel);
        EXPECT_EQ(want.sink.kernel.size(), 201u);
        for (uint32_t type : got.sink.read_types) EXPECT_LE(type, kRecordFinishedInit);
      }
    }
  }
  // An attr perf 6.1 cannot hold is refused, not cut: a file's before anything is written, a
  // pipe's once its HEADER_ATTR has come.
  for (Mode mode : {Mode::kFile, Mode::kPipe}) {
    for (bool to_pipe : {false, true}) {
      PerfDataBuilder b;
      EventAttr attr = SampleAttr(kSampleIp);
      attr.size = 144;
      attr.config3 = 1;
      b.WithMode(mode).WithAttrSize(144).AddAttr(attr, {11});
      TempDir tmp;
      ConvertOptions o;
      o.compat_perf61 = true;
      o.to_pipe = to_pipe;
      auto st = Convert(tmp.Write("in.data", b.Build()), tmp.file("out.data"), o);
      ASSERT_FALSE(st);
      EXPECT_EQ(st.error().message(),
                fmt::format("--compat 6.1: {} uses config3/config4, which perf 6.1's attr cannot "
                            "hold",
                            mode == Mode::kPipe && to_pipe ? "a HEADER_ATTR" : "event 0"));
    }
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
