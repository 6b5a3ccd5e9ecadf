// EventList: the events of a recording and the sample ids that name them.
#include "readperf/reader/event_list.h"

#include <gtest/gtest.h>

#include <vector>

namespace readperf::testing {
namespace {

EventAttr Attr(uint64_t config) {
  EventAttr a;
  a.config = config;
  return a;
}

TEST(EventListTest, IdsFindTheirEventThroughTableGrowth) {
  EventList events;
  // Three events, their ids interleaved as per-CPU ids are; enough to grow the table.
  std::vector<uint64_t> ids[3];
  for (uint64_t i = 0; i < 3000; ++i) ids[i % 3].push_back(1000 + i);
  for (int e = 0; e < 3; ++e) events.add(Attr(e), ids[e]);
  for (int e = 0; e < 3; ++e) {
    for (uint64_t id : ids[e]) {
      const Evsel* ev = events.find_id(id);
      ASSERT_NE(ev, nullptr) << id;
      EXPECT_EQ(ev->index, static_cast<size_t>(e)) << id;
    }
  }
  EXPECT_EQ(events.find_id(999), nullptr);
  EXPECT_EQ(events.find_id(4000), nullptr);
  EXPECT_EQ(events.find_id(0), nullptr);
}

TEST(EventListTest, FirstEventToNameAnIdKeepsIt) {
  EventList events;
  events.add(Attr(1), {7, 8});
  events.add(Attr(2), {8, 9});  // 8 again: perf's hash keeps the first entry
  EXPECT_EQ(events.find_id(8)->index, 0u);
  events.add_id(1, 7);   // known: neither moved nor listed again
  events.add_id(1, 10);  // new: found and listed
  EXPECT_EQ(events.find_id(7)->index, 0u);
  EXPECT_EQ(events.find_id(10)->index, 1u);
  EXPECT_EQ(events[1].ids, (std::vector<uint64_t>{8, 9, 10}));
}

}  // namespace
}  // namespace readperf::testing
