#include "readperf/symbols/inline_frames.h"

#include <gtest/gtest.h>

namespace readperf {
namespace {

constexpr const char* kDemo = "data/inline_demo";

// What `addr2line -e data/inline_demo -i -f 0x401118` prints: square at its line, then each
// inliner at the call site (README-inline_demo.md).
TEST(InlineFrames, NestedInlinesInnermostFirst) {
  InlineFrames inl;
  const std::vector<InlineRecord>& r = inl.lookup(kDemo, 0x401118);
  ASSERT_EQ(r.size(), 3u);
  EXPECT_EQ(r[0].function, "square");
  EXPECT_EQ(r[0].line, 4u);
  EXPECT_EQ(r[1].function, "scale");
  EXPECT_EQ(r[1].line, 8u);
  EXPECT_EQ(r[2].function, "compute");
  EXPECT_EQ(r[2].line, 13u);
  for (const InlineRecord& x : r) {
    EXPECT_TRUE(x.file.ends_with("inline_demo.c")) << x.file;
  }
}

TEST(InlineFrames, OutOfLineAddressIsOneRecord) {
  InlineFrames inl;
  const std::vector<InlineRecord>& r = inl.lookup(kDemo, 0x401126);
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].function, "compute");
  EXPECT_EQ(r[0].line, 15u);
}

TEST(InlineFrames, AnswersAreCachedAndStable) {
  InlineFrames inl;
  const std::vector<InlineRecord>* first = &inl.lookup(kDemo, 0x401118);
  for (uint64_t a = 0x401000; a < 0x401200; ++a) inl.lookup(kDemo, a);
  EXPECT_EQ(first, &inl.lookup(kDemo, 0x401118));
  EXPECT_EQ(first->size(), 3u);
}

TEST(InlineFrames, NoDebugInfoOrNoFileIsEmpty) {
  InlineFrames inl;
  EXPECT_TRUE(inl.lookup(kDemo, 0x10).empty());  // no CU holds it
  EXPECT_TRUE(inl.lookup("data/does-not-exist", 0x401118).empty());
  EXPECT_TRUE(inl.lookup("data/inline_demo.c", 0x401118).empty());  // not ELF
}

}  // namespace
}  // namespace readperf
