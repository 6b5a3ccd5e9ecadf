// Damaged input: every cut and every nonsense value must give either the records before the
// damage or a clear error, never a crash or a hang.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "perf_data_builder.h"
#include "readperf/format/perf_abi.h"
#include "readperf/output/dump_printer.h"
#include "readperf/output/out_buffer.h"
#include "readperf/reader/perf_data.h"
#include "test_util.h"

namespace readperf::testing {
namespace {

using Mode = PerfDataBuilder::Mode;

constexpr uint64_t kType =
    kSampleIp | kSampleTid | kSampleTime | kSampleId | kSamplePeriod | kSampleCallchain;

// A small recording whose records are already in time order, so the records read from any
// prefix of it are a prefix of the full reading.
PerfDataBuilder Small(ByteOrder order, Mode mode = Mode::kFile) {
  PerfDataBuilder b;
  b.WithByteOrder(order).WithMode(mode);
  b.AddAttr(SampleAttr(kType), {11}).AddAttr(SampleAttr(kType), {12});
  b.AddStringFeature(kFeatHostname, "h").AddStringFeature(kFeatOsRelease, "6.1.0");
  b.AddComm(1, 1, "a", {.pid = 1, .tid = 1, .time = 1, .id = 11});
  b.AddMmap2(1, 1, 0x1000, 0x1000, 0, "/bin/a", {.pid = 1, .tid = 1, .time = 2, .id = 11});
  for (uint64_t i = 0; i < 8; ++i) {
    b.AddSample({.attr = i % 2,
                 .ip = i,
                 .pid = 1,
                 .tid = 1,
                 .time = 10 + i,
                 .id = 11 + i % 2,
                 .period = 1,
                 .callchain = {i, i + 1}});
    if (i % 3 == 2) b.AddFinishedRound();
  }
  b.AddExit(1, 1, 1, 1, 30, {.pid = 1, .tid = 1, .time = 30, .id = 11});
  return b;
}

bool IsPrefix(const std::vector<std::string>& part, const std::vector<std::string>& whole) {
  return part.size() <= whole.size() && std::equal(part.begin(), part.end(), whole.begin());
}

// Errors a cut file may give: the header, attrs or ids cut, or a record cut at the end.
bool IsTruncationError(const std::string& e) {
  for (const char* what :
       {"is smaller than its 104-byte header", "too small for a perf.data", "attrs section",
        "ids of attr", "starts past the end of the file", "runs past the end of the data",
        "truncated record header at the end of the stream"}) {
    if (e.find(what) != std::string::npos) return true;
  }
  return false;
}

TEST(DamagedFile, EveryCutGivesAPrefixOrAnError) {
  for (Mode mode : {Mode::kFile, Mode::kPipe}) {
    for (ByteOrder order : {ByteOrder::kNative, ByteOrder::kSwapped}) {
      SCOPED_TRACE(
          fmt::format("pipe {} swapped {}", mode == Mode::kPipe, order == ByteOrder::kSwapped));
      PerfDataBuilder b = Small(order, mode);
      std::vector<std::byte> full = b.Build();
      TempDir dir;
      ReadResult whole = ReadPath(dir.Write("full", full));
      ASSERT_TRUE(whole.ok) << whole.error;
      size_t boundaries = 0, complete = 0;
      for (size_t n = 0; n < full.size(); ++n) {
        std::vector<std::byte> cut(full.begin(), full.begin() + n);
        ReadResult r = ReadPath(dir.Write("cut", cut));
        ASSERT_TRUE(r.ok || IsTruncationError(r.error)) << n << ": " << r.error;
        ASSERT_TRUE(IsPrefix(r.sink.kernel, whole.sink.kernel)) << n;
        const auto& offs = b.layout().record_offsets;
        bool at_boundary = std::find(offs.begin(), offs.end(), n) != offs.end();
        if (at_boundary && n > b.layout().data_offset) {
          // Cut between two records: everything before the cut, and no error.
          ++boundaries;
          ASSERT_TRUE(r.ok) << n << ": " << r.error;
          size_t before =
              std::count_if(offs.begin(), offs.end(), [&](uint64_t o) { return o < n; });
          EXPECT_EQ(r.sink.read_types.size(), before) << n;
          if (r.sink.kernel.size() == whole.sink.kernel.size()) ++complete;
        }
      }
      EXPECT_GT(boundaries, 10u);
      EXPECT_EQ(complete, 0u);  // the EXIT is last, so no cut short of the end has it
    }
  }
}

TEST(DamagedFile, PipeCutMidRecordKeepsTheRecordsBefore) {
  PerfDataBuilder b = Small(ByteOrder::kNative, Mode::kPipe);
  std::vector<std::byte> full = b.Build();
  TempDir dir;
  uint64_t last = b.layout().record_offsets.back();
  ReadResult r = ReadPath(dir.Write("p", {full.begin(), full.begin() + last + 12}));
  ASSERT_TRUE(r.ok) << r.error;  // perf: "unexpected end of event stream", then finishes
  EXPECT_EQ(r.sink.kernel.size(), 10u);
  ReadResult h = ReadPath(dir.Write("p", {full.begin(), full.begin() + last + 5}));
  EXPECT_FALSE(h.ok);
  EXPECT_EQ(h.error, fmt::format("{}: offset {:#x}: truncated record header at the end of the "
                                 "stream",
                                 dir.file("p"), last));
}

TEST(DamagedFile, FileCutMidRecord) {
  PerfDataBuilder b = Small(ByteOrder::kSwapped);
  std::vector<std::byte> full = b.Build();
  TempDir dir;
  uint64_t last = b.layout().record_offsets.back();
  ReadResult r = ReadPath(dir.Write("f", {full.begin(), full.begin() + last + 12}));
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.error, fmt::format("{}: offset {:#x}: record type 4 (EXIT) size 56: runs past the "
                                 "end of the data ({:#x})",
                                 dir.file("f"), last, last + 12));
}

// Overwrites the u64 at `at` (in the file's order) and reads the result.
ReadResult ReadPatched(PerfDataBuilder& b, ByteOrder order, size_t at, uint64_t value) {
  std::vector<std::byte> f = b.Build();
  ByteWriter w(order);
  w.u64(value);
  std::copy(w.buffer().begin(), w.buffer().end(), f.begin() + at);
  TempDir dir;
  return ReadPath(dir.Write("perf.data", f));
}

TEST(DamagedFile, RecordSmallerThanItsHeader) {
  for (ByteOrder order : {ByteOrder::kNative, ByteOrder::kSwapped}) {
    for (Mode mode : {Mode::kFile, Mode::kPipe}) {
      PerfDataBuilder b = Small(order, mode);
      b.AddRecord(kRecordSample, 0, nullptr);
      std::vector<std::byte> f = b.Build();
      uint64_t at = b.layout().record_offsets.back();
      ByteWriter w(order);
      w.u32(kRecordSample).u16(0).u16(4);
      std::copy(w.buffer().begin(), w.buffer().end(), f.begin() + at);
      TempDir dir;
      ReadResult r = ReadPath(dir.Write("perf.data", f));
      EXPECT_FALSE(r.ok);
      // The records before the damage were read (in a pipe, the attrs and features too).
      EXPECT_EQ(r.sink.read_types.size(), b.layout().record_offsets.size() - 1);
      // Errors name the offset in the file, pipe header included.
      uint64_t shown = at;
      EXPECT_EQ(r.error, fmt::format("{}: offset {:#x}: record type 9 (SAMPLE) size 4: is "
                                     "smaller than its header",
                                     dir.file("perf.data"), shown));
    }
  }
}

TEST(DamagedFile, ZeroSizeRecordInCompressedData) {
  PerfDataBuilder b = Small(ByteOrder::kNative);
  b.BeginCompressed();
  b.AddSample({.ip = 1, .pid = 1, .tid = 1, .time = 40, .id = 11});
  b.AddRawBytes(std::vector<std::byte>(16));  // a record header of size 0
  b.EndCompressed();
  TempDir dir;
  ReadResult r = ReadPath(dir.Write("z", b.Build()));
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.error, fmt::format("{}: offset {:#x}: record type 0 (TOTAL) size 0: is smaller "
                                 "than its header (in compressed data)",
                                 dir.file("z"), b.layout().record_offsets.back()));
}

TEST(DamagedFile, SectionsPastTheEnd) {
  for (ByteOrder order : {ByteOrder::kNative, ByteOrder::kSwapped}) {
    PerfDataBuilder b = Small(order);
    b.Build();
    uint64_t size = b.layout().end;
    // data.offset (header offset 40) past the end.
    ReadResult data = ReadPatched(b, order, 40, size + 8);
    EXPECT_FALSE(data.opened);
    EXPECT_TRUE(
        data.error.ends_with(fmt::format("data section at {:#x} starts past the end of "
                                         "the file ({:#x} bytes)",
                                         size + 8, size)))
        << data.error;
    EXPECT_TRUE(data.error.find(": offset 0x28: ") != std::string::npos) << data.error;
    // attrs.size (offset 32) past the end.
    ReadResult attrs = ReadPatched(b, order, 32, ~0ull - 8);
    EXPECT_FALSE(attrs.opened);
    EXPECT_TRUE(attrs.error.ends_with(
        fmt::format("attrs section [{:#x}, +{:#x}) runs past the end of the file",
                    b.layout().attrs_offset, ~0ull - 8)))
        << attrs.error;
    // data.size past the end of a file cut after its data (perf died before writing the
    // features): the records that are there are read.
    {
      std::vector<std::byte> f = b.Build();
      f.resize(b.layout().feature_table_offset);
      ByteWriter w(order);
      w.u64(1ull << 40);
      std::copy(w.buffer().begin(), w.buffer().end(), f.begin() + 48);
      TempDir dir;
      ReadResult long_data = ReadPath(dir.Write("perf.data", f));
      EXPECT_TRUE(long_data.ok) << long_data.error;
      EXPECT_EQ(long_data.sink.kernel.size(), 11u);
    }
    // The ids of attr 0 past the end.
    ReadResult ids = ReadPatched(b, order, b.layout().attrs_offset + 128, size);
    EXPECT_FALSE(ids.opened);
    EXPECT_TRUE(ids.error.find("ids of attr 0 at") != std::string::npos) << ids.error;
    // A feature section past the end: skipped, the rest reads.
    ReadResult feat = ReadPatched(b, order, b.layout().feature_table_offset, size * 2);
    EXPECT_TRUE(feat.ok) << feat.error;
    EXPECT_EQ(feat.sink.kernel.size(), 11u);
  }
}

// A `perf record` killed before it exits leaves data.size 0 and no feature sections (header.c
// writes both at exit). The records up to the end of the file are read, with a warning naming
// the header field; no feature is read from where the records are.
TEST(DamagedFile, DataSizeZeroFromAKilledRecord) {
  for (ByteOrder order : {ByteOrder::kNative, ByteOrder::kSwapped}) {
    PerfDataBuilder b = Small(order);
    std::vector<std::byte> f = b.Build();
    f.resize(b.layout().feature_table_offset);
    ByteWriter w(order);
    w.u64(0);
    std::copy(w.buffer().begin(), w.buffer().end(), f.begin() + 48);
    TempDir dir;
    std::string path = dir.Write("perf.data", f);
    ReadResult r = ReadPath(path);
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_EQ(r.sink.kernel.size(), 11u);
    auto pd = PerfData::open(path);
    ASSERT_TRUE(pd);
    ASSERT_EQ((*pd)->warnings().size(), 1u);
    EXPECT_EQ((*pd)->warnings()[0].in_file(path).message(),
              path + ": offset 0x30: warning: data size is 0: perf record did not finish; "
                     "reading the records up to the end of the file, without header features");
    EXPECT_FALSE((*pd)->features().hostname.has_value());
    // A file cut inside its data section reads what is there, and says so.
    std::vector<std::byte> cut = b.Build();
    cut.resize(b.layout().record_offsets.back());
    auto pc = PerfData::open(dir.Write("cut", cut));
    ASSERT_TRUE(pc);
    ASSERT_EQ((*pc)->warnings().size(), 1u);
    EXPECT_TRUE((*pc)->warnings()[0].message().find("runs past the end of the file") !=
                std::string::npos);
  }
}

TEST(DamagedFile, AttrSizeNonsense) {
  for (ByteOrder order : {ByteOrder::kNative, ByteOrder::kSwapped}) {
    PerfDataBuilder b = Small(order);
    ReadResult zero = ReadPatched(b, order, 16, 0);
    EXPECT_FALSE(zero.opened);
    EXPECT_TRUE(zero.error.ends_with("attr_size is 0 but the attrs section is not empty"))
        << zero.error;
    ReadResult small = ReadPatched(b, order, 16, 8);
    EXPECT_FALSE(small.opened);
    EXPECT_TRUE(small.error.ends_with("attr 0 declares 128 bytes, more than the 8-byte entry"))
        << small.error;
    ReadResult huge = ReadPatched(b, order, 16, ~0ull);  // no whole entry: no events
    EXPECT_TRUE(huge.opened) << huge.error;
    // An attr whose own size field is nonsense.
    for (uint32_t bad : {8u, 63u, 0xfffffff8u, 0xffffffffu}) {
      b.Build();
      ByteWriter w(order);
      w.u32(bad);
      std::vector<std::byte> f = b.Build();
      std::copy(w.buffer().begin(), w.buffer().end(), f.begin() + b.layout().attrs_offset + 4);
      TempDir dir;
      ReadResult r = ReadPath(dir.Write("perf.data", f));
      EXPECT_FALSE(r.opened) << bad;
      EXPECT_FALSE(r.error.empty());
    }
  }
}

TEST(DamagedFile, UnknownRecordTypesAreSkippedOrIgnored) {
  for (ByteOrder order : {ByteOrder::kNative, ByteOrder::kSwapped}) {
    PerfDataBuilder b = Small(order);
    b.AddRecord(30, 0, [](ByteWriter& w) { w.u64(1); });   // a kernel type from the future
    b.AddRecord(200, 0, [](ByteWriter& w) { w.u64(1); });  // a user type from the future
    b.AddSample({.ip = 1, .pid = 1, .tid = 1, .time = 50, .id = 11});
    TempDir dir;
    ReadResult r = ReadPath(dir.Write("u", b.Build()));
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_EQ(r.sink.kernel.size(), 12u);
    ASSERT_EQ(r.sink.skipped.size(), 1u);
    EXPECT_EQ(r.sink.skipped[0],
              fmt::format("S 30 offset {:#x}: record type 30 (UNKNOWN) size 16: unknown record "
                          "type",
                          b.layout().record_offsets[b.layout().record_offsets.size() - 3]));
  }
}

TEST(DamagedFile, CorruptZstdFrame) {
  PerfDataBuilder b = Small(ByteOrder::kNative);
  b.AddRecord(kRecordCompressed, 0, [](ByteWriter& w) {
    w.u32(0xfd2fb528).u64(0x1122334455667788).u64(0x99aabbccddeeff00);  // magic, then junk
  });
  TempDir dir;
  ReadResult r = ReadPath(dir.Write("z", b.Build()));
  EXPECT_FALSE(r.ok);
  EXPECT_TRUE(
      r.error.starts_with(fmt::format("{}: offset {:#x}: record type 81 (COMPRESSED) size 28: "
                                      "zstd: ",
                                      dir.file("z"), b.layout().record_offsets.back())))
      << r.error;

  PerfDataBuilder b2 = Small(ByteOrder::kNative);
  b2.AddRecord(kRecordCompressed2, 0, [](ByteWriter& w) { w.u64(1000).u64(0); });
  ReadResult r2 = ReadPath(dir.Write("z2", b2.Build()));
  EXPECT_FALSE(r2.ok);
  EXPECT_EQ(r2.error, fmt::format("{}: offset {:#x}: record type 83 (COMPRESSED2) size 24: "
                                  "data_size past the record",
                                  dir.file("z2"), b2.layout().record_offsets.back()));
}

TEST(DamagedFile, CompressedInsideCompressed) {
  PerfDataBuilder inner = Small(ByteOrder::kNative);
  inner.BeginCompressed();
  inner.AddSample({.ip = 1, .pid = 1, .tid = 1, .time = 40, .id = 11});
  inner.EndCompressed();
  std::vector<std::byte> built = inner.Build();
  std::vector<std::byte> rec(built.begin() + inner.layout().record_offsets.back(),
                             built.begin() + inner.layout().data_offset + inner.layout().data_size);
  PerfDataBuilder b = Small(ByteOrder::kNative);
  b.BeginCompressed().AddRawBytes(rec).EndCompressed();
  TempDir dir;
  ReadResult r = ReadPath(dir.Write("zz", b.Build()));
  EXPECT_FALSE(r.ok);
  EXPECT_TRUE(r.error.ends_with("compressed record inside compressed data")) << r.error;
}

// Data carried after a record (TRACING_DATA, AUXTRACE) that claims more than there is.
TEST(DamagedFile, TrailingDataLongerThanTheInput) {
  for (Mode mode : {Mode::kFile, Mode::kPipe}) {
    for (uint32_t type : {kRecordHeaderTracingData, kRecordAuxtrace}) {
      PerfDataBuilder b = Small(ByteOrder::kNative, mode);
      if (type == kRecordHeaderTracingData) {
        b.AddRecord(type, 0, [](ByteWriter& w) { w.u32(1 << 20).u32(0); });
      } else {
        b.AddRecord(type, 0, [](ByteWriter& w) { w.u64(~0ull - 4).zeros(32); });
      }
      b.AddRawBytes(std::vector<std::byte>(24, std::byte{0x41}));
      TempDir dir;
      ReadResult r = ReadPath(dir.Write("t", b.Build()));
      EXPECT_TRUE(r.ok) << r.error;
      EXPECT_EQ(r.sink.kernel.size(), 11u);
    }
  }
}

TEST(DamagedFile, NotPerfData) {
  TempDir dir;
  ReadResult empty = ReadPath(dir.Write("empty", {}));
  EXPECT_EQ(empty.error, fmt::format("{}: offset 0x0: file of 0 bytes is too small for a "
                                     "perf.data header",
                                     dir.file("empty")));
  std::string text = "hello, this is not a perf.data file at all\n";
  std::vector<std::byte> t(reinterpret_cast<const std::byte*>(text.data()),
                           reinterpret_cast<const std::byte*>(text.data()) + text.size());
  ReadResult junk = ReadPath(dir.Write("junk", t));
  EXPECT_EQ(junk.error, fmt::format("{}: offset 0x0: not a perf.data file (magic "
                                    "0x74202c6f6c6c6568)",
                                    dir.file("junk")));
  ReadResult missing = ReadPath(dir.file("missing"));
  EXPECT_EQ(missing.error, dir.file("missing") + ": cannot open: No such file or directory");
}

// A NAMESPACES record whose nr_namespaces claims far more entries than it holds (found by
// fuzz_perf_file: 24 bytes claiming 24 million, 500 MB of dump). The dump prints the entries
// the record has and closes the list.
TEST(DamagedFile, NamespacesCountPastTheRecordPrintsWhatItHolds) {
  for (ByteOrder order : {ByteOrder::kNative, ByteOrder::kSwapped}) {
    PerfDataBuilder b = Small(order);
    b.AddKernelRecord(kRecordNamespaces, 0, [](ByteWriter& w) {
      w.u32(7).u32(7).u64(1000000000);
      w.u64(3).u64(0xf0).u64(4).u64(0xf1);  // two entries of the billion
    });
    TempDir dir;
    const std::string path = dir.Write("perf.data", b.Build());
    auto data = PerfData::open(path);
    ASSERT_TRUE(data) << data.error().message();
    char* text = nullptr;
    size_t size = 0;
    FILE* mem = open_memstream(&text, &size);
    {
      OutBuffer out(mem);
      ASSERT_TRUE(run_dump(**data, out));
    }
    std::fclose(mem);
    const std::string dump(text, size);
    std::free(text);
    EXPECT_LT(dump.size(), 20000u);
    // The record's sample_id trailer (16 bytes here) is read as a third entry, as perf would.
    EXPECT_NE(dump.find("PERF_RECORD_NAMESPACES 7/7 - nr_namespaces: 1000000000\n"
                        "\t\t[0/net: 3/0xf0, 1/uts: 4/0xf1, 2/ipc: 0/0]\n"),
              std::string::npos)
        << dump;
  }
}

}  // namespace
}  // namespace readperf::testing
