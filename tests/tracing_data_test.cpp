// Tracing data (trace-event-read.c trace_report()) in both byte orders and versions, a format
// file with each kind of field formatted through libtraceevent, a pipe-mode
// PERF_RECORD_HEADER_TRACING_DATA record, and script's `trace` field for its samples.
#include "readperf/reader/tracing_data.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "perf_data_builder.h"
#include "readperf/output/out_buffer.h"
#include "readperf/output/script_printer.h"
#include "readperf/output/trace_format.h"
#include "readperf/reader/perf_data.h"
#include "test_util.h"

namespace readperf::testing {
namespace {

constexpr int kEventId = 1234;

// A format file with a field of each kind libtraceevent tells apart: signed and unsigned
// integers of each size, a fixed char array, a dynamic string (__data_loc), a pointer, an
// array of numbers, flags and symbolic values.
const char kFormat[] =
    "name: every_field\n"
    "ID: 1234\n"
    "format:\n"
    "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
    "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
    "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
    "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
    "\n"
    "\tfield:char comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
    "\tfield:s8 s8v;\toffset:24;\tsize:1;\tsigned:1;\n"
    "\tfield:u8 u8v;\toffset:25;\tsize:1;\tsigned:0;\n"
    "\tfield:short s16v;\toffset:26;\tsize:2;\tsigned:1;\n"
    "\tfield:int s32v;\toffset:28;\tsize:4;\tsigned:1;\n"
    "\tfield:unsigned int u32v;\toffset:32;\tsize:4;\tsigned:0;\n"
    "\tfield:__data_loc char[] name;\toffset:36;\tsize:4;\tsigned:0;\n"
    "\tfield:u64 u64v;\toffset:40;\tsize:8;\tsigned:0;\n"
    "\tfield:void * ptr;\toffset:48;\tsize:8;\tsigned:0;\n"
    "\tfield:u32 arr[2];\toffset:56;\tsize:8;\tsigned:0;\n"
    "\tfield:unsigned long flags;\toffset:64;\tsize:8;\tsigned:0;\n"
    "\n"
    "print fmt: \"comm=%s s8=%d u8=%u s16=%d s32=%d u32=%u name=%s u64=%llu ptr=%p "
    "flags=%s state=%s\", REC->comm, REC->s8v, REC->u8v, REC->s16v, REC->s32v, REC->u32v, "
    "__get_str(name), REC->u64v, REC->ptr, __print_flags(REC->flags, \"|\", { 1, \"A\" }, "
    "{ 2, \"B\" }, { 4, \"C\" }), __print_symbolic(REC->u32v, { 7, \"seven\" }, { 8, "
    "\"eight\" })\n";

// The tracing data perf writes (trace-event-info.c tracing_data_get), in `order`.
std::vector<std::byte> TracingDataBytes(ByteOrder order, const std::string& version) {
  ByteWriter w(order);
  const char magic[] = {23, 8, 68, 't', 'r', 'a', 'c', 'i', 'n', 'g'};
  w.bytes(magic, sizeof(magic));
  w.bytes(version.c_str(), version.size() + 1);
  bool host_big = std::endian::native == std::endian::big;
  w.u8((order == ByteOrder::kSwapped) != host_big ? 1 : 0);
  w.u8(8);      // long size
  w.u32(4096);  // page size
  std::string header_page =
      "\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
      "\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
      "\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
      "\tfield: char data;\toffset:16;\tsize:4080;\tsigned:1;\n";
  w.bytes("header_page", 12).u64(header_page.size()).bytes(header_page.data(), header_page.size());
  std::string header_event = "# compressed entry header\n";
  w.bytes("header_event", 13).u64(header_event.size());
  w.bytes(header_event.data(), header_event.size());
  w.u32(0);  // ftrace formats
  w.u32(1);  // systems
  w.bytes("test", 5).u32(1).u64(sizeof(kFormat) - 1).bytes(kFormat, sizeof(kFormat) - 1);
  w.u32(0);  // kallsyms
  std::string printk = "ffffffff81000000 : \"hello\\n\"\n";
  w.u32(printk.size()).bytes(printk.data(), printk.size());
  if (version != "0.5") {
    std::string cmdlines = "42 worker\n";
    w.u64(cmdlines.size()).bytes(cmdlines.data(), cmdlines.size());
  }
  return w.take();
}

// The raw sample data of one every_field event, in `order`.
std::vector<uint8_t> RawBytes(ByteOrder order) {
  ByteWriter w(order);
  w.u16(kEventId).u8(0).u8(0).s32(42);
  w.fixed("worker", 16);
  w.u8(static_cast<uint8_t>(-5)).u8(200).u16(static_cast<uint16_t>(-300));
  w.s32(-70000).u32(7);
  w.u32((6u << 16) | 72);  // __data_loc: length 6 at offset 72
  w.u64(1ull << 40).u64(0xffff888012345678ull);
  w.u32(1).u32(2);
  w.u64(5);
  w.bytes("hello", 6);
  w.align(8);
  std::vector<std::byte> b = w.take();
  std::vector<uint8_t> raw(b.size() + 4);  // perf pads raw data so size + data align to 8
  for (size_t i = 0; i < b.size(); ++i) raw[i] = static_cast<uint8_t>(b[i]);
  return raw;
}

// libtraceevent (as perf 6.1's copy) prints a 1- or 2-byte field through %d unextended.
const char kExpectedFields[] =
    "comm=worker s8=251 u8=200 s16=65236 s32=-70000 u32=7 name=hello u64=1099511627776 "
    "ptr=0xffff888012345678 flags=A|C state=seven";

class TracingDataTest : public ::testing::TestWithParam<std::tuple<ByteOrder, const char*>> {};

TEST_P(TracingDataTest, ParsesEverySection) {
  auto [order, version] = GetParam();
  std::vector<std::byte> bytes = TracingDataBytes(order, version);
  Result<TracingData> td = parse_tracing_data(bytes);
  ASSERT_TRUE(td) << td.error().message();
  EXPECT_EQ(td->version, version);
  EXPECT_EQ(td->long_size, 8);
  EXPECT_EQ(td->page_size, 4096u);
  ASSERT_EQ(td->events.size(), 1u);
  EXPECT_EQ(td->events[0].system, "test");
  EXPECT_EQ(td->events[0].name, "every_field");
  EXPECT_EQ(td->events[0].id, kEventId);
  EXPECT_EQ(td->printk_formats, "ffffffff81000000 : \"hello\\n\"\n");
  EXPECT_EQ(td->saved_cmdlines, std::string(version) == "0.5" ? "" : "42 worker\n");
  EXPECT_EQ(td->size, bytes.size());
}

TEST_P(TracingDataTest, FormatsEachFieldKind) {
  auto [order, version] = GetParam();
  Result<TracingData> td = parse_tracing_data(TracingDataBytes(order, version));
  ASSERT_TRUE(td);
  auto tf = TraceFormatter::create(*td);
  ASSERT_TRUE(tf);
  EXPECT_EQ((*tf)->event_name(kEventId), "test:every_field");
  std::vector<uint8_t> raw = RawBytes(order);
  std::string out;
  (*tf)->format(kEventId, 0, Bytes(reinterpret_cast<const std::byte*>(raw.data()), raw.size()),
                out);
  EXPECT_EQ(out, kExpectedFields);
}

INSTANTIATE_TEST_SUITE_P(OrdersAndVersions, TracingDataTest,
                         ::testing::Combine(::testing::Values(ByteOrder::kNative,
                                                              ByteOrder::kSwapped),
                                            ::testing::Values("0.5", "0.6")));

TEST(TracingData, RefusesBadMagicAndShortData) {
  std::vector<std::byte> bytes = TracingDataBytes(ByteOrder::kNative, "0.6");
  std::vector<std::byte> bad = bytes;
  bad[0] = std::byte{0};
  EXPECT_FALSE(parse_tracing_data(bad));
  for (size_t cut : {5ul, 20ul, 40ul, bytes.size() / 2, bytes.size() - 1}) {
    EXPECT_FALSE(parse_tracing_data(Bytes(bytes).first(cut))) << cut;
  }
}

// Records the tracing data the reader hands out after its record.
class TracingSink : public CollectingSink {
 public:
  void on_tracing_data(const RecordView& r, Bytes data) override {
    type = r.type;
    size = data.size();
  }
  uint32_t type = 0;
  size_t size = 0;
};

std::vector<std::byte> TracepointRecording(ByteOrder order, PerfDataBuilder::Mode mode) {
  EventAttr attr = SampleAttr(kSampleTid | kSampleTime | kSampleCpu | kSampleRaw);
  attr.type = kTypeTracepoint;
  attr.config = kEventId;
  std::vector<std::byte> td = TracingDataBytes(order, "0.6");
  PerfDataBuilder b;
  b.WithByteOrder(order).WithMode(mode).AddAttr(attr, {7});
  if (mode == PerfDataBuilder::Mode::kPipe) {
    // header.c perf_event__synthesize_tracing_data(): the record holds the size; the data
    // follows it, padded to 8 bytes.
    b.AddRecord(kRecordHeaderTracingData, 0, [&](ByteWriter& w) { w.u32(td.size()); });
    std::vector<std::byte> padded = td;
    padded.resize((td.size() + 7) & ~size_t{7});
    b.AddRawBytes(padded);
  } else {
    // A swapped file without HOSTNAME has its feature bits taken for a perf before 3.x's
    // (header.c perf_file_header__read): only BUILD_ID.
    b.AddFeature(kFeatTracingData, td).AddStringFeature(kFeatHostname, "test");
  }
  b.AddComm(42, 42, "worker", {.pid = 42, .tid = 42, .time = 1});
  b.AddSample({.pid = 42, .tid = 42, .time = 1500000000, .cpu = 1, .raw = RawBytes(order)});
  b.AddFinishedRound();
  return b.Build();
}

class TracepointRecordingTest
    : public ::testing::TestWithParam<std::tuple<ByteOrder, PerfDataBuilder::Mode>> {};

TEST_P(TracepointRecordingTest, ScriptPrintsTheTraceField) {
  auto [order, mode] = GetParam();
  TempDir dir;
  std::string path = dir.Write("perf.data", TracepointRecording(order, mode));
  auto pd = PerfData::open(path);
  ASSERT_TRUE(pd) << pd.error().message();
  TracingSink sink;
  ASSERT_TRUE((*pd)->process(sink));
  if (mode == PerfDataBuilder::Mode::kPipe) {
    EXPECT_EQ(sink.type, static_cast<uint32_t>(kRecordHeaderTracingData));
    EXPECT_EQ(sink.size, (*pd)->tracing_data()->size + (8 - (*pd)->tracing_data()->size % 8) % 8);
  }
  ASSERT_TRUE((*pd)->tracing_data());
  // evlist__prepare_tracepoint_events(): the unnamed tracepoint is named from its format.
  EXPECT_EQ((*pd)->events()[0].name, "test:every_field");

  auto again = PerfData::open(path);
  ASSERT_TRUE(again);
  char* buf = nullptr;
  size_t len = 0;
  FILE* mem = open_memstream(&buf, &len);
  {
    OutBuffer out(mem);
    ScriptConfig cfg;
    ASSERT_TRUE(run_script(**again, cfg, out, stderr));
  }
  std::fclose(mem);
  std::string got(buf, len);
  std::free(buf);
  EXPECT_EQ(got, std::string("          worker    42 [001]     1.500000: test:every_field: ") +
                     kExpectedFields + "\n");
}

INSTANTIATE_TEST_SUITE_P(OrdersAndContainers, TracepointRecordingTest,
                         ::testing::Combine(::testing::Values(ByteOrder::kNative,
                                                              ByteOrder::kSwapped),
                                            ::testing::Values(PerfDataBuilder::Mode::kFile,
                                                              PerfDataBuilder::Mode::kPipe)));

}  // namespace
}  // namespace readperf::testing
