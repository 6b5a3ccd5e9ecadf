// stream_records() (what the Python package's records() and tracepoint_fields() read) and
// the tracepoint field decoding behind them, on the tracepoint golden recording: the values
// are perf script's for it (tests/golden/tracepoint/expected/script.txt.gz), and every read
// of a sample's raw data stays inside it (the sanitized build checks).
#include "readperf/output/record_stream.h"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "readperf/format/perf_abi.h"
#include "readperf/output/tracepoint_values.h"

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
