// stream_records() (what the Python package's records() and tracepoint_fields() read) and
// the tracepoint field decoding behind them, on the tracepoint golden recording: the values
// are perf script's for it (tests/golden/tracepoint/expected/script.txt.gz), and every read
// of a sample's raw data stays inside it (the sanitized build checks).
#include "readperf/output/record_stream.h"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "perf_data_builder.h"
#include "readperf/analysis/resolver.h"
#include "readperf/format/perf_abi.h"
#include "readperf/output/tracepoint_values.h"
#include "test_util.h"

namespace readperf {
namespace {

const std::string kRecording = std::string(READPERF_GOLDEN_DIR) + "/tracepoint/perf.data";

std::map<std::string, TracepointValue> fields_of(const RecordRow& row, const RecordBatch& b) {
  std::map<std::string, TracepointValue> out;
  Bytes raw(b.bytes.data() + row.bytes_begin, row.bytes_size);
  for (const tep_format_field* f : tracepoint_fields(*row.format)) {
    out[std::string(tracepoint_field_name(*f))] = read_tracepoint_field(*f, raw);
  }
  return out;
}

TEST(RecordStreamTest, EveryRecordOnceWithTracepointFields) {
  auto data = PerfData::open(kRecording);
  ASSERT_TRUE(data) << data.error().message();
  RecordStreamConfig cfg;
  cfg.resolve_symbols = false;  // nothing here needs them (nor this machine's kallsyms)
  cfg.batch_rows = 64;          // many batches, their memory handed back as the Python side does
  std::vector<std::string> strings;
  std::map<uint32_t, int> types;
  std::vector<RecordBatch> spare;
  int batches = 0;
  bool checked_first = false;
  Status st = stream_records(**data, cfg, [&](RecordBatch& b) -> bool {
    ++batches;
    EXPECT_EQ(b.first_string, strings.size());
    strings.insert(strings.end(), b.new_strings.begin(), b.new_strings.end());
    for (const RecordRow& r : b.rows) {
      ++types[r.type];
      if (r.type != kRecordSample) continue;
      EXPECT_TRUE(b.tracing);
      if (!r.format) {
        ADD_FAILURE() << "a tracepoint sample without its format";
        return false;
      }
      if (checked_first) continue;
      checked_first = true;
      // perf 13049 [000] 403.493476: sched:sched_switch: prev_comm=perf prev_pid=13049
      // prev_prio=120 prev_state=D ==> next_comm=migration/0 next_pid=18 next_prio=0
      EXPECT_EQ(r.time, 403493476623u);
      EXPECT_EQ(strings[r.comm], "perf");
      auto f = fields_of(r, b);
      EXPECT_EQ(f["prev_comm"].kind, TracepointValue::Kind::kString);
      EXPECT_EQ(f["prev_comm"].text, "perf");
      EXPECT_EQ(f["next_comm"].text, "migration/0");
      EXPECT_EQ(f["prev_pid"].number, 13049u);
      EXPECT_TRUE(f["prev_pid"].is_signed);
      EXPECT_EQ(f["next_pid"].number, 18u);
      EXPECT_EQ(f["prev_prio"].number, 120u);
      EXPECT_EQ(f["common_pid"].number, 13049u);
    }
    spare.push_back(std::move(b));
    b = std::move(spare.front());
    spare.erase(spare.begin());
    b.clear();
    return true;
  });
  ASSERT_TRUE(st) << st.error().message();
  EXPECT_TRUE(checked_first);
  EXPECT_GT(batches, 10);
  // report --stats: 331 samples, 126 COMM, 128 FORK, 5 EXIT, 538 MMAP2, 1 MMAP.
  EXPECT_EQ(types[kRecordSample], 331);
  EXPECT_EQ(types[kRecordComm], 126);
  EXPECT_EQ(types[kRecordFork], 128);
  EXPECT_EQ(types[kRecordExit], 5);
  EXPECT_EQ(types[kRecordMmap2], 538);
  EXPECT_EQ(types[kRecordMmap], 1);
}

TEST(RecordStreamTest, StopsWhenTold) {
  auto data = PerfData::open(kRecording);
  ASSERT_TRUE(data);
  RecordStreamConfig cfg;
  cfg.batch_rows = 16;
  cfg.types = {kRecordSample};
  cfg.resolve_symbols = false;
  int batches = 0;
  Status st = stream_records(**data, cfg, [&](RecordBatch& b) -> bool {
    EXPECT_EQ(b.rows.size(), 16u);
    ++batches;
    return false;
  });
  EXPECT_TRUE(st);
  EXPECT_EQ(batches, 1);
}

TEST(RecordStreamTest, TruncatedRawDataReadsAsZeroOrEmpty) {
  auto data = PerfData::open(kRecording);
  ASSERT_TRUE(data);
  RecordStreamConfig cfg;
  cfg.types = {kRecordSample};
  cfg.resolve_symbols = false;
  int checked = 0;
  Status st = stream_records(**data, cfg, [&](RecordBatch& b) -> bool {
    for (const RecordRow& r : b.rows) {
      if (!r.format) {
        ADD_FAILURE() << "a tracepoint sample without its format";
        return false;
      }
      // Cut the raw data short: every field past the cut is 0 or empty, none read past it.
      for (uint32_t cut : {0u, 1u, 9u, r.bytes_size / 2}) {
        std::vector<std::byte> copy(b.bytes.begin() + r.bytes_begin,
                                    b.bytes.begin() + r.bytes_begin + cut);
        for (const tep_format_field* f : tracepoint_fields(*r.format)) {
          TracepointValue v = read_tracepoint_field(*f, Bytes(copy.data(), copy.size()));
          if (cut == 0) {
            EXPECT_EQ(v.number, 0u);
            EXPECT_TRUE(v.bytes.empty());
          }
          EXPECT_LE(v.bytes.size(), cut);
          for (uint32_t i = 0; i < v.items; ++i) tracepoint_array_item(*f, v, i);
        }
      }
      ++checked;
    }
    return true;
  });
  EXPECT_TRUE(st);
  EXPECT_EQ(checked, 331);
}

// A sample like one handed out before (same thread, ip and call chain) is replayed from what
// the stream made of that one, until a record changes its process: a new map, a new comm.
// Each row still carries its own time and period.
TEST(RecordStreamTest, RepeatedSamplesFollowTheMachinesChanges) {
  for (ByteOrder order : {ByteOrder::kNative, ByteOrder::kSwapped}) {
    SCOPED_TRACE(order == ByteOrder::kNative ? "native" : "swapped");
    testing::PerfDataBuilder b;
    b.WithByteOrder(order);
    b.AddAttr(testing::SampleAttr(kSampleIp | kSampleTid | kSampleTime | kSampleCallchain |
                                  kSamplePeriod));
    auto sample = [&](uint32_t pid, uint64_t time, uint64_t period) {
      testing::SampleFields f;
      f.ip = 0x401000;
      f.pid = f.tid = pid;
      f.time = time;
      f.period = period;
      f.callchain = {kContextUser, 0x401000, 0x402000};
      b.AddSample(f);
    };
    auto at = [](uint64_t time) {
      testing::SampleFields f;
      f.time = time;
      return f;
    };
    b.AddComm(10, 10, "before", at(1));
    sample(10, 2, 100);
    sample(10, 3, 101);  // a repeat
    b.AddMmap2(10, 10, 0x400000, 0x10000, 0, "/nonexistent/libfoo.so", at(4));
    sample(10, 5, 102);  // the same words, now in a map
    sample(10, 6, 103);
    b.AddComm(10, 10, "after", at(7));
    sample(10, 8, 104);  // now under its new comm
    sample(11, 9, 105);  // another process: no map
    testing::TempDir dir;
    auto data = PerfData::open(dir.Write("perf.data", b.Build()));
    ASSERT_TRUE(data) << data.error().message();
    RecordStreamConfig cfg;
    cfg.types = {kRecordSample};
    std::vector<std::string> strings;
    struct Seen {
      uint64_t time, period;
      std::string comm, dso;
      std::vector<std::string> frame_dsos;
    };
    std::vector<Seen> seen;
    Status st = stream_records(**data, cfg, [&](RecordBatch& batch) {
      strings.insert(strings.end(), batch.new_strings.begin(), batch.new_strings.end());
      for (const RecordRow& r : batch.rows) {
        Seen s{r.time, r.period, strings[r.comm], r.has_map ? strings[r.dso] : "-", {}};
        EXPECT_TRUE(r.has_callchain);
        for (uint32_t i = 0; i < r.frames_count; ++i) {
          const RecordFrame& fr = batch.frames[r.frames_begin + i];
          s.frame_dsos.push_back(fr.has_map ? strings[fr.dso] : "-");
        }
        seen.push_back(std::move(s));
      }
      return true;
    });
    ASSERT_TRUE(st) << st.error().message();
    ASSERT_EQ(seen.size(), 6u);
    const std::string lib = "/nonexistent/libfoo.so";
    const std::vector<std::string> none = {"-", "-"}, mapped = {lib, lib};
    for (size_t i = 0; i < seen.size(); ++i) {
      SCOPED_TRACE(i);
      EXPECT_EQ(seen[i].time, std::vector<uint64_t>({2, 3, 5, 6, 8, 9})[i]);
      EXPECT_EQ(seen[i].period, 100 + i);
    }
    EXPECT_EQ(seen[0].comm, "before");
    EXPECT_EQ(seen[1].comm, "before");
    EXPECT_EQ(seen[1].dso, "-");
    EXPECT_EQ(seen[1].frame_dsos, none);
    EXPECT_EQ(seen[2].dso, lib);
    EXPECT_EQ(seen[2].frame_dsos, mapped);
    EXPECT_EQ(seen[3].dso, lib);
    EXPECT_EQ(seen[3].frame_dsos, mapped);
    EXPECT_EQ(seen[3].comm, "before");
    EXPECT_EQ(seen[4].comm, "after");
    EXPECT_EQ(seen[4].frame_dsos, mapped);
    EXPECT_EQ(seen[5].dso, "-");
    EXPECT_EQ(seen[5].frame_dsos, none);
  }
}

TEST(TracepointValuesTest, SignExtend) {
  EXPECT_EQ(sign_extend(0xff, 1), ~0ull);
  EXPECT_EQ(sign_extend(0x7f, 1), 0x7fu);
  EXPECT_EQ(sign_extend(0xfffe, 2), static_cast<uint64_t>(-2));
  EXPECT_EQ(sign_extend(0xffffffff, 4), ~0ull);
  EXPECT_EQ(sign_extend(0x80000000, 4), static_cast<uint64_t>(INT32_MIN));
  EXPECT_EQ(sign_extend(0x1234, 8), 0x1234u);
}

}  // namespace
}  // namespace readperf
