#include "readperf/reader/ordered_queue.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "byte_writer.h"
#include "readperf/format/u64_array.h"

namespace readperf::testing {
namespace {

// Records named by a u64 tag in their body, so deliveries can be listed.
class QueueTest : public ::testing::Test {
 protected:
  RecordView Make(uint64_t tag, size_t body = 8) {
    auto& b = storage_.emplace_back();
    ByteWriter w;
    w.u32(9).u16(0).u16(static_cast<uint16_t>(8 + body)).u64(tag).zeros(body - 8);
    b = w.take();
    RecordView r;
    r.type = 9;
    r.size = static_cast<uint16_t>(b.size());
    r.bytes = b;
    return r;
  }
  static uint64_t Tag(const RecordView& r) {
    return U64Array(r.bytes.subspan(8, 8), ByteOrder::kNative)[0];
  }
  // Queues a record tagged `tag` at `ts`; true when the queue kept it.
  bool Push(uint64_t ts, uint64_t tag, bool copy = false) { return q_.push(ts, Make(tag), copy); }
  OrderedQueue::Deliver Collect() {
    return [this](const RecordView& r, uint64_t ts) {
      out_.push_back(Tag(r));
      times_.push_back(ts);
    };
  }

  std::vector<std::vector<std::byte>> storage_{};
  OrderedQueue q_;
  std::vector<uint64_t> out_, times_;
};

TEST_F(QueueTest, UntimedRecordsAreNotQueued) {
  EXPECT_FALSE(Push(0, 1));
  EXPECT_FALSE(Push(~0ull, 2));
  EXPECT_EQ(q_.size(), 0u);
  EXPECT_TRUE(Push(1, 3));
  EXPECT_EQ(q_.size(), 1u);
}

TEST_F(QueueTest, FirstRoundFlushesNothing) {
  Push(10, 1);
  Push(20, 2);
  q_.flush_round(Collect());
  EXPECT_TRUE(out_.empty());  // next_flush was 0: do_flush() returns at once
  EXPECT_EQ(q_.size(), 2u);
}

TEST_F(QueueTest, EachRoundReleasesUpToThePreviousRoundsMaximum) {
  Push(20, 1);
  Push(10, 2);
  q_.flush_round(Collect());  // round 1 ends: max 20 becomes the next limit
  Push(30, 3);
  Push(15, 4);
  Push(25, 5);
  q_.flush_round(Collect());  // delivers <= 20
  EXPECT_EQ(out_, (std::vector<uint64_t>{2, 4, 1}));
  EXPECT_EQ(times_, (std::vector<uint64_t>{10, 15, 20}));
  q_.flush_round(Collect());  // delivers <= 30 (the max queued at the tail before)
  EXPECT_EQ(out_, (std::vector<uint64_t>{2, 4, 1, 5, 3}));
  EXPECT_EQ(q_.size(), 0u);
}

TEST_F(QueueTest, LimitIsTheLastTailTimeOfTheRoundBefore) {
  Push(50, 1);
  Push(40, 2);
  q_.flush_round(Collect());  // limit 50 next
  Push(45, 3);                // not at the tail: the max stays 50
  q_.flush_round(Collect());  // delivers 40 45 50
  EXPECT_EQ(out_, (std::vector<uint64_t>{2, 3, 1}));
  Push(48, 4);  // into an empty queue: the max becomes 48
  Push(47, 5);
  q_.flush_round(Collect());  // the limit is still 50: 47 and 48 go; next limit 48
  EXPECT_EQ(out_, (std::vector<uint64_t>{2, 3, 1, 5, 4}));
  Push(60, 6);
  Push(55, 7);
  q_.flush_round(Collect());  // limit 48: nothing; next limit 60
  EXPECT_EQ(out_.size(), 5u);
  Push(58, 8);
  Push(70, 9);
  q_.flush_round(Collect());
  EXPECT_EQ(out_, (std::vector<uint64_t>{2, 3, 1, 5, 4, 7, 8, 6}));
  q_.flush_all(Collect());
  EXPECT_EQ(out_.back(), 9u);
}

TEST_F(QueueTest, EmptyRoundDoesNotMoveTheLimit) {
  Push(10, 1);
  q_.flush_round(Collect());
  q_.flush_round(Collect());  // delivers 10, queue empty
  ASSERT_EQ(out_.size(), 1u);
  q_.flush_round(Collect());  // empty: __ordered_events__flush returns before next_flush moves
  Push(5, 2);
  q_.flush_round(Collect());
  EXPECT_EQ(out_, (std::vector<uint64_t>{1, 2}));  // limit 10 still applies
}

TEST_F(QueueTest, EqualTimestampsKeepArrivalOrder) {
  for (uint64_t tag = 0; tag < 100; ++tag) Push(tag % 2 ? 7 : 3, tag);
  q_.flush_all(Collect());
  ASSERT_EQ(out_.size(), 100u);
  for (size_t i = 0; i < 50; ++i) {
    EXPECT_EQ(out_[i], 2 * i);
    EXPECT_EQ(out_[50 + i], 2 * i + 1);
  }
}

TEST_F(QueueTest, FlushAllDeliversEverythingSorted) {
  std::mt19937_64 rng(7);
  std::vector<uint64_t> ts;
  for (uint64_t i = 0; i < 1000; ++i) {
    ts.push_back(1 + rng() % 500);
    Push(ts.back(), i);
  }
  q_.flush_all(Collect());
  std::vector<uint64_t> sorted = ts;
  std::stable_sort(sorted.begin(), sorted.end());
  EXPECT_EQ(times_, sorted);
}

// A round is a few ascending runs (one per CPU buffer), merged pairwise; past 64 runs the
// queue sorts instead. Either way records of equal time keep their arrival order.
class QueueRunsTest : public QueueTest, public ::testing::WithParamInterface<int> {};

TEST_P(QueueRunsTest, AscendingRunsMergeStably) {
  std::mt19937_64 rng(GetParam());
  std::vector<std::pair<uint64_t, uint64_t>> pushed;  // (time, tag) in arrival order
  uint64_t tag = 0;
  for (int run = 0; run < GetParam(); ++run) {
    uint64_t ts = 1 + rng() % 20;
    for (int i = 0, n = 1 + static_cast<int>(rng() % 40); i < n; ++i) {
      ts += rng() % 3;  // equal times within a run and across runs
      Push(ts, tag);
      pushed.emplace_back(ts, tag++);
    }
  }
  q_.flush_all(Collect());
  std::stable_sort(pushed.begin(), pushed.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<uint64_t> want;
  for (const auto& p : pushed) want.push_back(p.second);
  EXPECT_EQ(out_, want);
}

INSTANTIATE_TEST_SUITE_P(Runs, QueueRunsTest, ::testing::Values(1, 2, 3, 5, 8, 63, 64, 65, 200));

TEST_F(QueueTest, CountsRecordsOlderThanTheLastDelivered) {
  Push(100, 1);
  q_.flush_round(Collect());
  q_.flush_round(Collect());  // delivers 100
  Push(50, 2);                // before the last flushed time
  Push(150, 3);
  EXPECT_EQ(q_.unordered(), 1u);
  q_.flush_all(Collect());
  EXPECT_EQ(out_, (std::vector<uint64_t>{1, 2, 3}));
}

TEST_F(QueueTest, CopiesSurviveTheSourceBuffer) {
  // Pipe and decompressed records live in buffers that are reused: the queue keeps copies.
  // Many rounds of large records make the queue recycle its arena chunks.
  std::mt19937_64 rng(3);
  uint64_t tag = 0, ts = 1;
  std::vector<uint64_t> want;
  for (int round = 0; round < 40; ++round) {
    for (int i = 0; i < 300; ++i) {
      RecordView r = Make(tag, 8 + 8 * (rng() % 2000));
      ASSERT_TRUE(q_.push(ts++, r, /*copy=*/true));
      std::fill(storage_.back().begin(), storage_.back().end(), std::byte{0xee});
      want.push_back(tag++);
    }
    storage_.clear();
    q_.flush_round(Collect());
  }
  q_.flush_all(Collect());
  EXPECT_EQ(out_, want);
}

}  // namespace
}  // namespace readperf::testing

namespace readperf::testing {
namespace {

// The reader gives mapped pages back only below the lowest byte a queued record points at.
TEST(OrderedQueueReferences, LowestReferenceIgnoresCopiesAndOtherBuffers) {
  std::vector<std::byte> buf(64);
  auto at = [&](size_t off) {
    RecordView r;
    r.type = 9;
    r.size = 8;
    r.bytes = Bytes(buf.data() + off, 8);
    return r;
  };
  OrderedQueue q;
  Bytes range(buf.data(), buf.size());
  EXPECT_EQ(q.lowest_reference(range), 64u);
  q.push(30, at(40), /*copy=*/false);
  q.push(10, at(16), /*copy=*/true);  // a copy does not hold the buffer
  q.push(20, at(24), /*copy=*/false);
  EXPECT_EQ(q.lowest_reference(range), 24u);
  EXPECT_EQ(q.lowest_reference(Bytes(buf.data(), 20)), 20u);  // none inside that range
  std::vector<uint64_t> times;
  q.flush_all([&](const RecordView&, uint64_t ts) { times.push_back(ts); });
  EXPECT_EQ(times, (std::vector<uint64_t>{10, 20, 30}));
  EXPECT_EQ(q.lowest_reference(range), 64u);
}

}  // namespace
}  // namespace readperf::testing
