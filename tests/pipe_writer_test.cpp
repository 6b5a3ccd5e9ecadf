// Pipe-mode output (ConvertOptions::to_pipe, PipeWriter) against the reader: golden
// recordings and builder files written as pipe-mode streams, in both byte orders, read back
// (as a file and as a stream) give the same kernel records and feature sections; the header
// records are where and as large as perf 6.1 writes them. What perf prints for the streams is
// checked by scripts/check-convert.py (to-pipe).
#include "readperf/writer/pipe_writer.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstring>
#include <fstream>
#include <iterator>

#include "perf_data_builder.h"
#include "readperf/format/file_header.h"
#include "readperf/reader/feature_swap.h"
#include "readperf/writer/converter.h"
#include "test_util.h"

namespace readperf::testing {
namespace {

const std::string kGolden = READPERF_GOLDEN_DIR;

std::vector<std::byte> Slurp(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::vector<char> c{std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
  std::vector<std::byte> b(c.size());
  std::memcpy(b.data(), c.data(), c.size());
  return b;
}

Result<ConvertStats> Convert(const std::string& in, const std::string& out, ConvertOptions o) {
  auto data = PerfData::open(in);
  if (!data) return tl::unexpected(data.error());
  return convert(**data, out, o);
}

ConvertOptions ToPipe(ConvertOptions::Endian e = ConvertOptions::Endian::kKeep) {
  ConvertOptions o;
  o.to_pipe = true;
  o.byte_order = e;
  return o;
}

std::string InputOf(const std::string& name) {
  std::string dir = kGolden + "/" + name;
  std::ifstream pipe(dir + "/perf.data.pipe");
  return pipe ? dir + "/perf.data.pipe" : dir + "/perf.data";
}

// One record of a pipe-mode stream as it lies in the bytes.
struct StreamRecord {
  uint32_t type = 0;
  uint16_t size = 0;
  size_t at = 0;
};

// Walks a stream written in `order`: its 16-byte header, then the records, past the data
// that follows HEADER_TRACING_DATA and AUXTRACE.
std::vector<StreamRecord> Walk(const std::vector<std::byte>& s, ByteOrder order) {
  auto u16 = [&](size_t at) {
    uint16_t v;
    std::memcpy(&v, s.data() + at, 2);
    return order == ByteOrder::kSwapped ? bswap(v) : v;
  };
  auto u32 = [&](size_t at) {
    uint32_t v;
    std::memcpy(&v, s.data() + at, 4);
    return order == ByteOrder::kSwapped ? bswap(v) : v;
  };
  std::vector<StreamRecord> out;
  size_t at = kPipeHeaderSize;
  while (at + 8 <= s.size()) {
    StreamRecord r{u32(at), u16(at + 6), at};
    if (r.size < 8 || at + r.size > s.size()) break;
    out.push_back(r);
    at += r.size;
    if (r.type == kRecordHeaderTracingData) at += u32(r.at + 8);
  }
  return out;
}

class PipeWriterGoldenTest : public ::testing::TestWithParam<std::string> {};

TEST_P(PipeWriterGoldenTest, KeepsRecordsAndFeaturesInBothByteOrders) {
  const std::string in = InputOf(GetParam());
  TempDir tmp;
  ASSERT_TRUE(Convert(in, tmp.file("same"), ToPipe()));
  ASSERT_TRUE(Convert(in, tmp.file("big"), ToPipe(ConvertOptions::Endian::kBig)));
  ASSERT_TRUE(Convert(in, tmp.file("little"), ToPipe(ConvertOptions::Endian::kLittle)));

  ReadResult want = ReadPath(in);
  ASSERT_TRUE(want.ok) << want.error;
  for (const char* name : {"same", "big", "little"}) {
    // Each PerfData is processed once (a second process() of a file does not return).
    auto orig = PerfData::open(in);
    ASSERT_TRUE(orig);
    auto out = PerfData::open(tmp.file(name));
    ASSERT_TRUE(out) << name << ": " << out.error().message();
    EXPECT_EQ((*out)->kind(), ContainerKind::kPipe) << name;
    ReadResult got = ReadPath(tmp.file(name));
    ASSERT_TRUE(got.ok) << name << ": " << got.error;
    EXPECT_EQ(want.sink.kernel, got.sink.kernel) << name;
    EXPECT_EQ(want.sink.skipped, got.sink.skipped) << name;

    // The sections perf sends in a pipe come back as they were, in this machine's order.
    CollectingSink sink;
    ASSERT_TRUE((*out)->process(sink));
    ASSERT_TRUE((*orig)->process(sink));
    const Features& wf = (*orig)->features();
    const Features& gf = (*out)->features();
    for (const auto& [feat, raw] : wf.raw) {
      if (!pipe_carries_feature(feat) || raw.empty()) continue;
      auto it = gf.raw.find(feat);
      ASSERT_NE(it, gf.raw.end()) << name << ": feature " << feat;
      std::vector<std::byte> w = raw, g = it->second;
      if ((*orig)->order() == ByteOrder::kSwapped) {
        w.clear();
        swap_feature(feat, raw, ByteOrder::kSwapped, wf.nr_cpus_avail, w);
      }
      if ((*out)->order() == ByteOrder::kSwapped) {
        g.clear();
        swap_feature(feat, it->second, ByteOrder::kSwapped, gf.nr_cpus_avail, g);
      }
      EXPECT_EQ(w, g) << name << ": feature " << feat;
    }
    EXPECT_EQ(wf.hostname, gf.hostname) << name;
    // The build-ids: a file's section entries, or a stream's records, as HEADER_BUILD_ID.
    auto build_id_records = [](const ReadResult& r) {
      return std::count(r.sink.read_types.begin(), r.sink.read_types.end(),
                        uint32_t{kRecordHeaderBuildId});
    };
    size_t want_build_ids =
        (*orig)->kind() == ContainerKind::kPipe ? build_id_records(want) : wf.build_ids.size();
    EXPECT_EQ(static_cast<size_t>(build_id_records(got)), want_build_ids) << name;
    ASSERT_EQ((*orig)->events().size(), (*out)->events().size()) << name;
    for (size_t i = 0; i < (*orig)->events().size(); ++i) {
      EXPECT_EQ((*orig)->events()[i].ids, (*out)->events()[i].ids) << name;
      EXPECT_EQ((*orig)->events()[i].attr.sample_type, (*out)->events()[i].attr.sample_type);
    }
  }
}

TEST_P(PipeWriterGoldenTest, ReadsBackFromAStream) {
  const std::string in = InputOf(GetParam());
  TempDir tmp;
  ASSERT_TRUE(Convert(in, tmp.file("p"), ToPipe()));
  int fd = ::open(tmp.file("p").c_str(), O_RDONLY);
  ASSERT_GE(fd, 0);
  auto pd = PerfData::open_stream(fd);
  ASSERT_TRUE(pd) << pd.error().message();
  CollectingSink got;
  ASSERT_TRUE((*pd)->process(got));
  ::close(fd);
  EXPECT_EQ(ReadPath(in).sink.kernel, got.kernel);
}

INSTANTIATE_TEST_SUITE_P(Golden, PipeWriterGoldenTest,
                         ::testing::Values("default", "zstd", "tracepoint", "stat", "branch-4.14",
                                           "group_desc-4.14", "raw-3.4", "lost_samples-4.4",
                                           "spin-fp", "threads-dir", "pipe"));

TEST(PipeWriterTest, PipeToPipeKeepsTheBytes) {
  const std::string in = InputOf("pipe");
  TempDir tmp;
  ASSERT_TRUE(Convert(in, tmp.file("same"), ToPipe()));
  EXPECT_EQ(Slurp(in), Slurp(tmp.file("same")));
  ASSERT_TRUE(Convert(in, tmp.file("big"), ToPipe(ConvertOptions::Endian::kBig)));
  ASSERT_TRUE(Convert(tmp.file("big"), tmp.file("back"), ToPipe(ConvertOptions::Endian::kLittle)));
  EXPECT_NE(Slurp(in), Slurp(tmp.file("big")));
  EXPECT_EQ(Slurp(in), Slurp(tmp.file("back")));
  // A file written from the stream, then a stream again, keeps the records.
  ConvertOptions file;
  ASSERT_TRUE(Convert(in, tmp.file("file"), file));
  ASSERT_TRUE(Convert(tmp.file("file"), tmp.file("again"), ToPipe()));
  EXPECT_EQ(ReadPath(in).sink.kernel, ReadPath(tmp.file("again")).sink.kernel);
}

// The header records of a file's stream, as perf_event__synthesize_for_pipe() sends them:
// HEADER_ATTR per event (8 + 128 + 8 per id bytes), the features in id order and only those
// perf synthesizes, the 16-byte HEADER_LAST_FEATURE mark, HEADER_TRACING_DATA (16 bytes, the
// data after it rounded up to 8) for tracepoints, the build-ids, then the data.
void CheckHeaderRecords(const std::string& name, ByteOrder order) {
  SCOPED_TRACE(name);
  const std::string in = InputOf(name);
  TempDir tmp;
  bool host_little = std::endian::native == std::endian::little;
  bool swapped = order == ByteOrder::kSwapped;
  auto e = host_little != swapped ? ConvertOptions::Endian::kLittle : ConvertOptions::Endian::kBig;
  ASSERT_TRUE(Convert(in, tmp.file("p"), ToPipe(e)));
  std::vector<std::byte> s = Slurp(tmp.file("p"));
  auto orig = PerfData::open(in);
  ASSERT_TRUE(orig);
  const Features& f = (*orig)->features();

  ASSERT_GE(s.size(), kPipeHeaderSize);
  uint64_t magic, size;
  std::memcpy(&magic, s.data(), 8);
  std::memcpy(&size, s.data() + 8, 8);
  EXPECT_EQ(swapped ? bswap(magic) : magic, kMagicPerfile2);
  EXPECT_EQ(swapped ? bswap(size) : size, kPipeHeaderSize);

  std::vector<StreamRecord> recs = Walk(s, order);
  size_t i = 0;
  for (size_t ev = 0; ev < (*orig)->events().size(); ++ev, ++i) {
    ASSERT_LT(i, recs.size());
    EXPECT_EQ(recs[i].type, kRecordHeaderAttr);
    EXPECT_EQ(recs[i].size, 8 + 128 + 8 * (*orig)->events()[ev].ids.size());
    uint32_t attr_size;
    std::memcpy(&attr_size, s.data() + recs[i].at + 12, 4);
    EXPECT_EQ(swapped ? bswap(attr_size) : attr_size, 128u);
  }
  std::vector<uint64_t> feats;
  for (; i < recs.size() && recs[i].type == kRecordHeaderFeature; ++i) {
    uint64_t id;
    std::memcpy(&id, s.data() + recs[i].at + 8, 8);  // in this machine's order, as perf reads it
    feats.push_back(id);
    if (id == kFeatLastFeature6_1) {
      EXPECT_EQ(recs[i].size, 16);
      ++i;
      break;
    }
    ASSERT_TRUE(f.raw.count(static_cast<uint32_t>(id))) << id;
    EXPECT_TRUE(pipe_carries_feature(static_cast<uint32_t>(id))) << id;
    EXPECT_EQ(recs[i].size, 16 + f.raw.at(static_cast<uint32_t>(id)).size()) << id;
  }
  ASSERT_FALSE(feats.empty());
  EXPECT_EQ(feats.back(), kFeatLastFeature6_1);
  EXPECT_TRUE(std::is_sorted(feats.begin(), feats.end()));
  size_t expected_feats = 1;
  for (const auto& [id, raw] : f.raw) expected_feats += pipe_carries_feature(id) && !raw.empty();
  EXPECT_EQ(feats.size(), expected_feats);

  if (auto td = f.raw.find(kFeatTracingData); td != f.raw.end()) {
    ASSERT_LT(i, recs.size());
    EXPECT_EQ(recs[i].type, kRecordHeaderTracingData);
    EXPECT_EQ(recs[i].size, 16);
    uint32_t data_size;
    std::memcpy(&data_size, s.data() + recs[i].at + 8, 4);
    if (swapped) data_size = bswap(data_size);
    EXPECT_EQ(data_size, (td->second.size() + 7) / 8 * 8);
    EXPECT_EQ(0, std::memcmp(s.data() + recs[i].at + 16, td->second.data(), td->second.size()));
    ++i;
  }
  size_t build_ids = 0;
  for (; i < recs.size() && recs[i].type == kRecordHeaderBuildId; ++i) ++build_ids;
  EXPECT_EQ(build_ids, f.build_ids.size());
  // EVENT_UPDATE NAME per named event, as perf record -o - sends them.
  size_t names = 0, want_names = 0;
  for (; i < recs.size() && recs[i].type == kRecordEventUpdate; ++i) ++names;
  if (f.event_desc) {
    for (const EventDesc& d : *f.event_desc) want_names += !d.name.empty();
  }
  EXPECT_EQ(names, want_names);
  // The data follows, without any more header records.
  for (; i < recs.size(); ++i) {
    EXPECT_NE(recs[i].type, kRecordHeaderAttr);
    EXPECT_NE(recs[i].type, kRecordHeaderFeature);
  }
}

TEST(PipeWriterTest, HeaderRecordsAreWhereAndAsLargeAsPerfWritesThem) {
  for (const char* name : {"default", "tracepoint", "zstd", "raw-3.4", "branch-4.14"}) {
    CheckHeaderRecords(name, ByteOrder::kNative);
    CheckHeaderRecords(name, ByteOrder::kSwapped);
  }
}

TEST(PipeWriterTest, FiltersAndCompressionCombine) {
  const std::string in = InputOf("default");
  TempDir tmp;
  ConvertOptions pid = ToPipe(ConvertOptions::Endian::kBig), pid_file;
  pid.tids = pid_file.tids = {12173};
  auto st = Convert(in, tmp.file("pid"), pid);
  ASSERT_TRUE(st);
  EXPECT_GT(st->samples_dropped, 0u);
  ASSERT_TRUE(Convert(in, tmp.file("pid_file"), pid_file));
  EXPECT_EQ(ReadPath(tmp.file("pid_file")).sink.kernel, ReadPath(tmp.file("pid")).sink.kernel);
  // SAMPLE_TIME says where the kept samples are, in the stream as in the file.
  auto file_pd = PerfData::open(tmp.file("pid_file"));
  auto pipe_pd = PerfData::open(tmp.file("pid"));
  ASSERT_TRUE(file_pd && pipe_pd);
  CollectingSink ignored;
  ASSERT_TRUE((*pipe_pd)->process(ignored));
  ASSERT_TRUE((*file_pd)->features().sample_time);
  EXPECT_EQ((*file_pd)->features().sample_time->first, 380301789007ull);
  EXPECT_EQ((*file_pd)->features().sample_time, (*pipe_pd)->features().sample_time);

  // Compressed: the COMPRESSED feature (which gives perf its decompression buffer) comes
  // before the first COMPRESSED record.
  ConvertOptions packed = ToPipe();
  packed.compress_level = 3;
  ASSERT_TRUE(Convert(in, tmp.file("packed"), packed));
  std::vector<std::byte> s = Slurp(tmp.file("packed"));
  bool feature = false, compressed = false;
  for (const StreamRecord& r : Walk(s, ByteOrder::kNative)) {
    uint64_t id = 0;
    if (r.type == kRecordHeaderFeature) std::memcpy(&id, s.data() + r.at + 8, 8);
    if (id == kFeatCompressed) feature = !compressed;
    if (r.type == kRecordCompressed) compressed = true;
  }
  EXPECT_TRUE(feature);
  EXPECT_TRUE(compressed);
  EXPECT_EQ(ReadPath(in).sink.kernel, ReadPath(tmp.file("packed")).sink.kernel);

  // Decompressed, from a compressed file and from the compressed stream: no COMPRESSED left.
  for (std::string from : {InputOf("zstd"), tmp.file("packed")}) {
    ConvertOptions plain = ToPipe();
    plain.decompress = true;
    ASSERT_TRUE(Convert(from, tmp.file("plain"), plain));
    std::vector<std::byte> p = Slurp(tmp.file("plain"));
    for (const StreamRecord& r : Walk(p, ByteOrder::kNative)) {
      EXPECT_NE(r.type, kRecordCompressed);
      uint64_t id = 0;
      if (r.type == kRecordHeaderFeature) std::memcpy(&id, p.data() + r.at + 8, 8);
      EXPECT_NE(id, kFeatCompressed);
    }
    EXPECT_EQ(ReadPath(from).sink.kernel, ReadPath(tmp.file("plain")).sink.kernel);
  }
}

TEST(PipeWriterTest, StripRawRewritesTheAttrRecords) {
  TempDir tmp;
  ConvertOptions o = ToPipe();
  o.strip_raw = true;
  ASSERT_TRUE(Convert(InputOf("tracepoint"), tmp.file("p"), o));
  ASSERT_TRUE(Convert(tmp.file("p"), tmp.file("p2"), o));  // a stream's HEADER_ATTR patched
  for (const char* name : {"p", "p2"}) {
    auto pd = PerfData::open(tmp.file(name));
    ASSERT_TRUE(pd);
    CollectingSink sink;
    ASSERT_TRUE((*pd)->process(sink));
    ASSERT_GT((*pd)->events().size(), 0u);
    for (size_t i = 0; i < (*pd)->events().size(); ++i) {
      EXPECT_EQ((*pd)->events()[i].attr.sample_type & kSampleRaw, 0u) << name;
    }
    ASSERT_TRUE((*pd)->features().event_desc) << name;
    for (const EventDesc& d : *(*pd)->features().event_desc) {
      EXPECT_EQ(d.attr.sample_type & kSampleRaw, 0u) << name;
    }
  }
}

TEST(PipeWriterTest, BuilderFilesOfEitherOrder) {
  for (ByteOrder order : {ByteOrder::kNative, ByteOrder::kSwapped}) {
    EventAttr a = SampleAttr(kSampleIp | kSampleTid | kSampleTime | kSampleId);
    PerfDataBuilder b;
    b.WithByteOrder(order).AddAttr(a, {7, 8});
    b.AddStringFeature(kFeatHostname, "box").AddStringFeature(kFeatArch, "x86_64");
    b.AddComm(1, 1, "true", {.pid = 1, .tid = 1, .time = 10, .id = 7});
    b.AddSample({.ip = 0x1000, .pid = 1, .tid = 1, .time = 20, .id = 7});
    b.AddSample({.ip = 0x2000, .pid = 1, .tid = 2, .time = 30, .id = 8});
    b.AddFinishedRound();
    TempDir tmp;
    std::string in = tmp.Write("in", b.Build());
    for (auto e : {ConvertOptions::Endian::kLittle, ConvertOptions::Endian::kBig}) {
      ASSERT_TRUE(Convert(in, tmp.file("p"), ToPipe(e)));
      auto pd = PerfData::open(tmp.file("p"));
      ASSERT_TRUE(pd);
      ReadResult want = ReadPath(in), got = ReadPath(tmp.file("p"));
      ASSERT_TRUE(got.ok) << got.error;
      EXPECT_EQ(want.sink.kernel, got.sink.kernel);
      EXPECT_EQ(got.sink.kernel.size(), 3u);  // COMM and the two samples
      CollectingSink sink;
      ASSERT_TRUE((*pd)->process(sink));
      EXPECT_EQ((*pd)->features().hostname, "box");
      EXPECT_EQ((*pd)->features().arch, "x86_64");
      ASSERT_EQ((*pd)->events().size(), 1u);
      EXPECT_EQ((*pd)->events()[0].ids, (std::vector<uint64_t>{7, 8}));
    }
  }
}

// A HEADER_FEATURE record's size is a u16: a larger section cannot go into a pipe. It is left
// out with a warning, and the rest of the stream reads as before.
TEST(PipeWriterTest, FeatureTooLargeForARecordIsLeftOutWithAWarning) {
  EventAttr a = SampleAttr(kSampleIp | kSampleTid | kSampleTime | kSampleId);
  PerfDataBuilder b;
  b.AddAttr(a, {7});
  b.AddStringFeature(kFeatHostname, "box").AddStringFeature(kFeatOsRelease, std::string(70000, 'x'));
  b.AddComm(1, 1, "true", {.pid = 1, .tid = 1, .time = 10, .id = 7});
  b.AddSample({.ip = 0x1000, .pid = 1, .tid = 1, .time = 20, .id = 7});
  TempDir tmp;
  std::string in = tmp.Write("in", b.Build());
  auto st = Convert(in, tmp.file("p"), ToPipe());
  ASSERT_TRUE(st) << st.error().message();
  ASSERT_EQ(st->warnings.size(), 1u);
  EXPECT_NE(st->warnings[0].find("does not fit in a pipe"), std::string::npos) << st->warnings[0];
  ReadResult got = ReadPath(tmp.file("p"));
  ASSERT_TRUE(got.ok) << got.error;
  EXPECT_EQ(got.sink.kernel, ReadPath(in).sink.kernel);
  auto pd = PerfData::open(tmp.file("p"));
  ASSERT_TRUE(pd);
  CollectingSink sink;
  ASSERT_TRUE((*pd)->process(sink));
  EXPECT_EQ((*pd)->features().hostname, "box");
  EXPECT_FALSE((*pd)->features().os_release.has_value());
}

TEST(PipeWriterTest, StandardOutputIsAPipeOutput) {
  // "-" implies a stream even without to_pipe (the CLI's -o -): create() takes stdout.
  auto w = PipeWriter::create("-", ByteOrder::kNative);
  ASSERT_TRUE(w);
  EXPECT_EQ((*w)->bytes_written(), kPipeHeaderSize);
  EXPECT_FALSE(pipe_carries_feature(kFeatBuildId));
  EXPECT_FALSE(pipe_carries_feature(kFeatTracingData));
  EXPECT_FALSE(pipe_carries_feature(kFeatStat));
  EXPECT_FALSE(pipe_carries_feature(kFeatDirFormat));
  EXPECT_TRUE(pipe_carries_feature(kFeatHostname));
  EXPECT_TRUE(pipe_carries_feature(kFeatCompressed));
}

}  // namespace
}  // namespace readperf::testing
