// PerfData end to end on builder files: every container, both byte orders, compression,
// perf's delivery order.
#include "readperf/reader/perf_data.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <thread>

#include "perf_data_builder.h"
#include "readperf/format/header_version.h"
#include "readperf/format/perf_abi.h"
#include "test_util.h"

namespace readperf::testing {
namespace {

using Mode = PerfDataBuilder::Mode;

constexpr uint64_t kType = kSampleIp | kSampleTid | kSampleTime | kSampleId | kSampleCpu |
                           kSamplePeriod | kSampleCallchain;

// Two events, records of every kernel type in time order, a few rounds.
PerfDataBuilder Rich(ByteOrder order, Mode mode = Mode::kFile) {
  PerfDataBuilder b;
  EventAttr second = SampleAttr(kType | kSampleRead, kFormatId | kFormatTotalTimeEnabled);
  second.config = 2;
  b.WithByteOrder(order).WithMode(mode);
  b.AddAttr(SampleAttr(kType), {11, 12}).AddAttr(second, {21, 22});
  b.AddStringFeature(kFeatHostname, "builder-host").AddStringFeature(kFeatArch, "x86_64");
  auto sid = [](uint64_t time, uint64_t id = 11) {
    return SampleFields{
        .attr = id >= 21 ? 1u : 0u, .pid = 7, .tid = 8, .time = time, .id = id, .cpu = 1};
  };
  b.AddComm(7, 8, "prog", sid(0));  // synthesized: time 0, delivered at once
  b.AddMmap(7, 8, 0x400000, 0x1000, 0, "/bin/prog", sid(0));
  b.AddFinishedInit();
  b.AddMmap2(7, 8, 0x7f0000, 0x2000, 0x1000, "/lib/libc.so.6", sid(100));
  b.AddFork(9, 7, 9, 8, 110, sid(110));
  uint64_t t = 120;
  for (int i = 0; i < 6; ++i, t += 10) {
    b.AddSample({.attr = static_cast<size_t>(i % 2),
                 .ip = 0x400000u + i,
                 .pid = 7,
                 .tid = 8,
                 .time = t,
                 .id = i % 2 ? 21u : 11u,
                 .cpu = 1,
                 .period = 1000u + i,
                 .read = {.value = 5, .id = 21},
                 .time_enabled = 9,
                 .callchain = {0xfffffffffffffe00, 0x400000u + i}});
  }
  b.AddFinishedRound();
  b.AddLost(11, 3, sid(t += 10));
  b.AddLostSamples(4, sid(t += 10, 21));
  t += 10;
  b.AddThrottle(kRecordThrottle, t + 10, 11, 11, sid(t));
  t += 10;
  b.AddThrottle(kRecordUnthrottle, t + 10, 11, 11, sid(t));
  b.AddSwitch(true, sid(t += 10));
  b.AddSwitchCpuWide(false, 9, 9, sid(t += 10));
  b.AddCgroup(1, "/user.slice", sid(t += 10));
  b.AddKernelRecord(
      kRecordRead, 0, [](ByteWriter& w) { w.u32(7).u32(8).u64(42); }, sid(t += 10));
  b.AddKernelRecord(
      kRecordAux, 0, [](ByteWriter& w) { w.u64(0).u64(4096).u64(1); }, sid(t += 10));
  b.AddKernelRecord(
      kRecordItraceStart, 0, [](ByteWriter& w) { w.u32(7).u32(8); }, sid(t += 10));
  b.AddKernelRecord(
      kRecordNamespaces, 0, [](ByteWriter& w) { w.u32(7).u32(8).u64(1).u64(4).u64(0xf0000001); },
      sid(t += 10));
  b.AddKernelRecord(
      kRecordKsymbol, 0,
      [](ByteWriter& w) { w.u64(0xffffffffc0000000).u32(64).u16(1).u16(0).str("bpf_prog"); },
      sid(t += 10));
  b.AddKernelRecord(
      kRecordBpfEvent, 0, [](ByteWriter& w) { w.u16(1).u16(0).u32(5).fixed("tagtagta", 8); },
      sid(t += 10));
  b.AddKernelRecord(
      kRecordTextPoke, 0,
      [](ByteWriter& w) { w.u64(0xffffffff81000000).u16(1).u16(1).u8(0x90).u8(0xcc).zeros(2); },
      sid(t += 10));
  b.AddKernelRecord(
      kRecordAuxOutputHwId, 0, [](ByteWriter& w) { w.u64(3); }, sid(t += 10));
  b.AddFinishedRound();
  t += 10;  // the sample id's time; the exit's own is 10 later (no unsequenced t += 10)
  b.AddExit(9, 7, 9, 8, t + 10, sid(t));
  b.AddSample({.ip = 0x400100,
               .pid = 7,
               .tid = 8,
               .time = t += 10,
               .id = 12,
               .cpu = 0,
               .period = 1,
               .callchain = {}});
  b.AddFinishedRound();
  return b;
}

TEST(PerfData, FileOpensWithEventsAndFeatures) {
  TempDir dir;
  std::string path = dir.Write("perf.data", Rich(ByteOrder::kNative).Build());
  auto pd = PerfData::open(path);
  ASSERT_TRUE(pd) << pd.error().message();
  EXPECT_EQ((*pd)->kind(), ContainerKind::kFile);
  EXPECT_EQ((*pd)->order(), ByteOrder::kNative);
  ASSERT_EQ((*pd)->events().size(), 2u);
  EXPECT_EQ((*pd)->events()[0].ids, (std::vector<uint64_t>{11, 12}));
  EXPECT_EQ((*pd)->events()[1].attr.config, 2u);
  EXPECT_EQ((*pd)->events().find_id(22), &(*pd)->events()[1]);
  EXPECT_TRUE((*pd)->features().raw.count(kFeatHostname));
  EXPECT_EQ((*pd)->feature_sections().size(), 2u);
  EXPECT_EQ((*pd)->source_names(), std::vector<std::string>{path});
}

TEST(PerfData, DeliversEveryRecordInPerfsOrder) {
  TempDir dir;
  ReadResult r = ReadPath(dir.Write("perf.data", Rich(ByteOrder::kNative).Build()));
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_TRUE(r.sink.skipped.empty()) << r.sink.skipped.front();
  EXPECT_EQ(r.sink.read_types.size(), 31u);  // 27 kernel records, FINISHED_INIT, 3 rounds
  // Untimed COMM and MMAP first, then every timed record by time.
  ASSERT_EQ(r.sink.kernel.size(), 27u);
  EXPECT_TRUE(r.sink.kernel[0].starts_with("K 3 evsel=0"));
  EXPECT_TRUE(r.sink.kernel[1].starts_with("K 1 evsel=0"));
  std::vector<uint64_t> times(r.sink.kernel_times.begin() + 2, r.sink.kernel_times.end());
  EXPECT_TRUE(std::is_sorted(times.begin(), times.end()));
  // The second event's samples find it by id, with their READ values.
  EXPECT_NE(std::count_if(r.sink.kernel.begin(), r.sink.kernel.end(),
                          [](const std::string& l) {
                            return l.starts_with("K 9 evsel=1") && l.find("read{") != l.npos;
                          }),
            0);
}

// process() reads the records once: a second call returns at once with nothing (it used to
// spin for ever on readers already done).
TEST(PerfData, SecondProcessDeliversNothing) {
  TempDir dir;
  const std::string path = dir.Write("perf.data", Rich(ByteOrder::kNative).Build());
  auto data = PerfData::open(path);
  ASSERT_TRUE(data) << data.error().message();
  CollectingSink first, second;
  ASSERT_TRUE((*data)->process(first));
  EXPECT_EQ(first.read_types.size(), 31u);
  ASSERT_TRUE((*data)->process(second));
  EXPECT_TRUE(second.read_types.empty());
}

// The key property: a file written by a machine of the other byte order reads the same.
TEST(PerfData, SwappedFileReadsTheSameAsNative) {
  for (Mode mode : {Mode::kFile, Mode::kPipe}) {
    TempDir dir;
    ReadResult native = ReadPath(dir.Write("n", Rich(ByteOrder::kNative, mode).Build()));
    ReadResult swapped = ReadPath(dir.Write("s", Rich(ByteOrder::kSwapped, mode).Build()));
    ASSERT_TRUE(native.ok) << native.error;
    ASSERT_TRUE(swapped.ok) << swapped.error;
    EXPECT_EQ(native.sink.all, swapped.sink.all);
    auto pd = PerfData::open(dir.file("s"));
    ASSERT_TRUE(pd);
    EXPECT_EQ((*pd)->order(), ByteOrder::kSwapped);
  }
}

// A PERFFILE (version 1) file reads as the same recording with the current magic, in
// either byte order and as a pipe.
TEST(PerfData, PerffileVersion1ReadsTheSameAsPerfile2) {
  for (ByteOrder order : {ByteOrder::kNative, ByteOrder::kSwapped}) {
    for (Mode mode : {Mode::kFile, Mode::kPipe}) {
      if (mode == Mode::kPipe && order == ByteOrder::kSwapped) continue;  // native pipes only
      TempDir dir;
      ReadResult v2 = ReadPath(dir.Write("v2", Rich(order, mode).WithAttrSize(72).Build()));
      std::vector<std::byte> v1_bytes =
          Rich(order, mode).WithAttrSize(72).WithPerffileMagic().Build();
      ReadResult v1 = ReadPath(dir.Write("v1", v1_bytes));
      ASSERT_TRUE(v2.ok) << v2.error;
      ASSERT_TRUE(v1.ok) << v1.error;
      EXPECT_EQ(v1.sink.all, v2.sink.all);
      EXPECT_FALSE(v1.sink.all.empty());
      auto pd = PerfData::open(dir.file("v1"));
      ASSERT_TRUE(pd);
      EXPECT_EQ(header_version(v1_bytes), 0u);
      EXPECT_EQ((*pd)->order(), order);
      if (mode == Mode::kFile) {
        EXPECT_EQ((*pd)->events().size(), 2u);  // a pipe's come later
      }
    }
  }
}

TEST(PerfData, PipeFileReadsTheSameRecordsAsFile) {
  TempDir dir;
  ReadResult file = ReadPath(dir.Write("f", Rich(ByteOrder::kNative).Build()));
  std::string pipe_path = dir.Write("p", Rich(ByteOrder::kNative, Mode::kPipe).Build());
  ReadResult pipe = ReadPath(pipe_path);
  ASSERT_TRUE(pipe.ok) << pipe.error;
  EXPECT_EQ(file.sink.kernel, pipe.sink.kernel);
  auto pd = PerfData::open(pipe_path);
  ASSERT_TRUE(pd);
  EXPECT_EQ((*pd)->kind(), ContainerKind::kPipe);
  ASSERT_TRUE((*pd)->process(pipe.sink));
  EXPECT_EQ((*pd)->events().size(), 2u);  // from the HEADER_ATTR records
  EXPECT_TRUE((*pd)->features().raw.count(kFeatArch));
}

TEST(PerfData, PipeThroughAFifo) {
  TempDir dir;
  std::string fifo = dir.file("fifo");
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  for (ByteOrder order : {ByteOrder::kNative, ByteOrder::kSwapped}) {
    std::vector<std::byte> bytes = Rich(order, Mode::kPipe).Build();
    // Split so that records straddle the writes.
    std::thread writer([&] {
      int fd = ::open(fifo.c_str(), O_WRONLY);
      for (size_t at = 0; at < bytes.size(); at += 333) {
        size_t n = std::min<size_t>(333, bytes.size() - at);
        ASSERT_EQ(::write(fd, bytes.data() + at, n), static_cast<ssize_t>(n));
      }
      ::close(fd);
    });
    ReadResult stream = ReadPath(fifo);
    writer.join();
    ASSERT_TRUE(stream.ok) << stream.error;
    ReadResult file = ReadPath(dir.Write("p", bytes));
    EXPECT_EQ(stream.sink.all, file.sink.all);
  }
}

TEST(PerfData, FifoWithFileHeaderIsRefused) {
  TempDir dir;
  std::string fifo = dir.file("fifo");
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  std::vector<std::byte> bytes = Rich(ByteOrder::kNative).Build();
  std::thread writer([&] {
    int fd = ::open(fifo.c_str(), O_WRONLY);
    (void)::write(fd, bytes.data(), 64);
    ::close(fd);
  });
  ReadResult r = ReadPath(fifo);
  writer.join();
  EXPECT_FALSE(r.opened);
  EXPECT_EQ(r.error, fmt::format("{}: offset 0x8: a stream must hold a pipe-mode recording "
                                 "(perf record -o -)",
                                 fifo));
}

TEST(PerfData, DirectoryMergesDataFilesByTime) {
  for (ByteOrder order : {ByteOrder::kNative, ByteOrder::kSwapped}) {
    TempDir dir;
    PerfDataBuilder b;
    b.WithByteOrder(order).AddAttr(SampleAttr(kType), {11});
    b.AddComm(7, 7, "main", {.pid = 7, .tid = 7, .time = 0, .id = 11});
    b.AddFinishedInit();
    // perf record --threads writes FINISHED_ROUND to the main file only (record__write with
    // no map), the samples to data.N.
    b.AddFinishedRound().AddFinishedRound();
    for (int file = 0; file < 3; ++file) {
      b.InDataFile(file);
      for (uint64_t i = 0; i < 50; ++i) {
        b.AddSample({.ip = 0x1000u + file,
                     .pid = 7,
                     .tid = 7u + file,
                     .time = 1000 + i * 3 + file,
                     .id = 11,
                     .cpu = uint32_t(file)});
      }
    }
    b.WriteDirectory(dir.file("perf.data"));
    std::filesystem::path empty = dir.file("perf.data/data.3");
    { std::ofstream(empty.string()); }  // perf skips empty data files
    auto pd = PerfData::open(dir.file("perf.data"));
    ASSERT_TRUE(pd) << pd.error().message();
    EXPECT_EQ((*pd)->kind(), ContainerKind::kDirectory);
    EXPECT_EQ((*pd)->source_names().size(), 4u);
    ReadResult r = ReadPath(dir.file("perf.data"));
    ASSERT_TRUE(r.ok) << r.error;
    ASSERT_EQ(r.sink.kernel.size(), 151u);
    std::vector<uint64_t> times(r.sink.kernel_times.begin() + 1, r.sink.kernel_times.end());
    EXPECT_TRUE(std::is_sorted(times.begin(), times.end()));
  }
}

TEST(PerfData, DirectoryWithoutMainFile) {
  TempDir dir;
  std::filesystem::create_directory(dir.file("perf.data"));
  ReadResult r = ReadPath(dir.file("perf.data"));
  EXPECT_FALSE(r.opened);
  EXPECT_EQ(r.error, dir.file("perf.data") + "/data: cannot open: No such file or directory");
}

// The same records, compressed into pieces that cut records in two.
TEST(PerfData, CompressedRecordsSplitAcrossChunks) {
  for (uint32_t type : {kRecordCompressed, kRecordCompressed2}) {
    for (Mode mode : {Mode::kFile, Mode::kPipe}) {
      for (ByteOrder order : {ByteOrder::kNative, ByteOrder::kSwapped}) {
        SCOPED_TRACE(fmt::format("type {} pipe {} swapped {}", type, mode == Mode::kPipe,
                                 order == ByteOrder::kSwapped));
        auto fill = [&](PerfDataBuilder& b, bool compress) {
          b.WithByteOrder(order).WithMode(mode).AddAttr(SampleAttr(kType), {11});
          b.AddComm(7, 7, "z", {.pid = 7, .tid = 7, .id = 11});
          if (compress) b.BeginCompressed();
          for (uint64_t i = 0; i < 400; ++i) {
            b.AddSample({.ip = i,
                         .pid = 7,
                         .tid = 7,
                         .time = 500 - i,
                         .id = 11,
                         .callchain = std::vector<uint64_t>(i % 7, i)});
            if (i % 100 == 99) b.AddFinishedRound();
          }
          if (compress) b.EndCompressed(/*piece=*/1000, type);
        };
        PerfDataBuilder plain, packed;
        fill(plain, false);
        fill(packed, true);
        TempDir dir;
        ReadResult want = ReadPath(dir.Write("plain", plain.Build()));
        ReadResult got = ReadPath(dir.Write("packed", packed.Build()));
        ASSERT_TRUE(got.ok) << got.error;
        EXPECT_EQ(want.sink.kernel, got.sink.kernel);
        EXPECT_EQ(std::count(got.sink.read_types.begin(), got.sink.read_types.end(), type) > 10,
                  true);
      }
    }
  }
}

TEST(PerfData, RecordsOfTimeZeroAreDeliveredAtOnce) {
  TempDir dir;
  PerfDataBuilder b;
  b.AddAttr(SampleAttr(kSampleTid | kSampleTime), {});
  b.AddSample({.pid = 1, .tid = 1, .time = 50});
  b.AddComm(2, 2, "late", {.pid = 2, .tid = 2, .time = 0});
  b.AddSample({.pid = 3, .tid = 3, .time = 40});
  b.AddSample({.pid = 4, .tid = 4, .time = ~0ull});
  ReadResult r = ReadPath(dir.Write("perf.data", b.Build()));
  ASSERT_TRUE(r.ok);
  ASSERT_EQ(r.sink.kernel_times, (std::vector<uint64_t>{0, ~0ull, 40, 50}));
}

TEST(PerfData, IdIndexAssignsIdsToEvents) {
  TempDir dir;
  PerfDataBuilder b;
  b.WithMode(Mode::kPipe);
  b.AddAttr(SampleAttr(kSampleIdentifier | kSampleTime), {});
  b.AddAttr(SampleAttr(kSampleIdentifier | kSampleTime), {});
  b.AddIdIndex({{.id = 5, .idx = 0}, {.id = 6, .idx = 1}, {.id = 7, .idx = 99}});
  b.AddSample({.identifier = 6, .time = 1});
  b.AddSample({.identifier = 5, .time = 2});
  b.AddSample({.identifier = 8, .time = 3});
  ReadResult r = ReadPath(dir.Write("p", b.Build()));
  ASSERT_TRUE(r.ok) << r.error;
  ASSERT_EQ(r.sink.kernel.size(), 2u);
  EXPECT_TRUE(r.sink.kernel[0].starts_with("K 9 evsel=1")) << r.sink.kernel[0];
  EXPECT_TRUE(r.sink.kernel[1].starts_with("K 9 evsel=0")) << r.sink.kernel[1];
  ASSERT_EQ(r.sink.skipped.size(), 1u);
  // Pipe offsets count from the end of the 16-byte header, as in perf's dump ("0@pipe").
  EXPECT_EQ(r.sink.skipped[0],
            fmt::format("S 9 offset {:#x}: record type 9 (SAMPLE) size 24: names no known "
                        "event id",
                        b.layout().record_offsets.back() - kPipeHeaderSize));
}

}  // namespace
}  // namespace readperf::testing
