// The folding rules of stackcollapse-perf.pl as StackCollapser applies them to the lines
// `perf script` prints. Every expectation was checked against the Perl script itself.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "readperf/analysis/stack_counts.h"
#include "readperf/output/stack_collapser.h"

namespace readperf {
namespace {

// Feeds `lines` and returns the folded output, one "stack count" a line.
std::string fold(const std::vector<std::string>& lines, CollapseOptions opts = {}) {
  StackCounts counts;
  StackCollapser c(std::move(opts), counts, nullptr);
  for (const std::string& l : lines) c.line(l);
  std::string out;
  counts.for_each_folded([&](std::string_view s, uint64_t n) {
    out += std::string(s) + " " + std::to_string(n) + "\n";
  });
  return out;
}

constexpr const char* kHeader = "workload 12199   381.622512:     250000 cpu-clock:ppp: ";

TEST(CollapsedTest, FoldsRootFirstWeightedByPeriod) {
  EXPECT_EQ(fold({kHeader, "\t          4011a0 leaf+0x10 (/opt/w)",
                  "\t          401200 main+0x20 (/opt/w)", ""}),
            "workload;main;leaf 250000\n");
}

TEST(CollapsedTest, SumsEqualStacksAndSortsByText) {
  EXPECT_EQ(fold({kHeader, "\t 1 b+0x1 (/x)", "", kHeader, "\t 2 a+0x1 (/x)", "", kHeader,
                  "\t 3 b+0x9 (/x)", ""}),
            "workload;a 250000\nworkload;b 500000\n");
}

TEST(CollapsedTest, CountSamplesInsteadOfPeriods) {
  CollapseOptions o;
  o.count_samples = true;
  EXPECT_EQ(fold({kHeader, "\t 1 a+0x1 (/x)", "", kHeader, "\t 2 a+0x1 (/x)", ""}, o),
            "workload;a 2\n");
}

TEST(CollapsedTest, CommSpacesBecomeUnderscores) {
  EXPECT_EQ(fold({"V8 WorkerThread 25607 4794564.109216:        100 cycles: ", "\t 1 f (/x)", ""}),
            "V8_WorkerThread;f 100\n");
}

TEST(CollapsedTest, SingleCharacterCommIsMisreadAsTheScriptDoes) {
  // `(\S.+?)` wants two characters: the comm runs on to the next "blanks digits blank".
  EXPECT_EQ(fold({"a 12199   381.622512:     250000 cpu-clock: ", "\t 1 f (/x)", ""}),
            "a_12199___381.622512:;f 250000\n");
}

TEST(CollapsedTest, NoOrZeroPeriodCountsOne) {
  EXPECT_EQ(fold({"exe 1 2.000000: cpu-clock: ", "\t 1 f (/x)", ""}), "exe;f 1\n");
  EXPECT_EQ(fold({"exe 1 2.000000:          0 cpu-clock: ", "\t 1 f (/x)", ""}), "exe;f 1\n");
}

TEST(CollapsedTest, OnlyTheFirstEventUnlessOneIsNamed) {
  std::vector<std::string> lines = {"exe 1 2.000000:         10 page-faults: ", "\t 1 f (/x)", "",
                                    "exe 1 2.000000:        100 cpu-clock: ",   "\t 1 g (/x)", ""};
  EXPECT_EQ(fold(lines), "exe;f 10\n");
  CollapseOptions o;
  o.event_filter = "cpu-clock";
  EXPECT_EQ(fold(lines, o), "exe;g 100\n");
}

TEST(CollapsedTest, PidAndTid) {
  CollapseOptions pid;
  pid.include_pid = true;
  CollapseOptions tid;
  tid.include_tid = true;
  std::vector<std::string> with_pid = {"exe 12/13 2.000000:  5 cpu-clock: ", "\t 1 f (/x)", ""};
  EXPECT_EQ(fold(with_pid, pid), "exe-12;f 5\n");
  EXPECT_EQ(fold(with_pid, tid), "exe-12/13;f 5\n");
  // Without a pid in the header the script writes '?'.
  EXPECT_EQ(fold({kHeader, "\t 1 f (/x)", ""}, tid), "workload-?/12199;f 250000\n");
}

TEST(CollapsedTest, UnknownSymbolsNameTheirDso) {
  std::vector<std::string> lines = {kHeader, "\t 7f00 [unknown] (/usr/lib/libc.so.6)",
                                    "\t 0 [unknown] ([unknown])", ""};
  EXPECT_EQ(fold(lines), "workload;[unknown];[libc.so.6] 250000\n");
  CollapseOptions o;
  o.include_addrs = true;
  EXPECT_EQ(fold(lines, o), "workload;[unknown <0>];[libc.so.6 <7f00>] 250000\n");
}

TEST(CollapsedTest, TidiesNames) {
  EXPECT_EQ(fold({kHeader, "\t 1 ns::f(int, char const*)+0x1 (/x)", ""}),
            "workload;ns::f 250000\n");
  EXPECT_EQ(fold({kHeader, "\t 1 ns::(anonymous namespace)::g(int)+0x1 (/x)", ""}),
            "workload;ns::(anonymous namespace)::g 250000\n");
  // A name that starts with '(' is skipped ("process names").
  EXPECT_EQ(fold({kHeader, "\t 1 (anonymous namespace)::g(int)+0x1 (/x)", ""}),
            "workload 250000\n");
  EXPECT_EQ(fold({kHeader, "\t 1 net/http.(*Client).Do+0x1 (/x)", ""}),
            "workload;net/http.(*Client).Do 250000\n");
  EXPECT_EQ(fold({kHeader, "\t 1 RegExp:[&\"';] (/tmp/perf-7539.map)", ""}),
            "workload;RegExp:[&:] 250000\n");
}

TEST(CollapsedTest, JavaSignatures) {
  EXPECT_EQ(fold({"java 1 2.0: 7 cycles: ",
                  "\t 1 Lorg/mozilla/Foo;.call(Lorg/X;)V (/tmp/perf-1.map)", ""}),
            "java;org/mozilla/Foo:.call 7\n");
}

TEST(CollapsedTest, InlineArrowsAndAnnotations) {
  EXPECT_EQ(fold({kHeader, "\t 1 outer->inner+0x4 (/x)", ""}), "workload;outer;inner_[i] 250000\n");
  CollapseOptions o;
  o.annotate_kernel = true;
  o.annotate_jit = true;
  EXPECT_EQ(fold({kHeader, "\t ffffffff81000000 do_syscall_64+0x71 ([kernel.kallsyms])",
                  "\t 1 f (/boot/vmlinux)", "\t 2 jitted (/tmp/perf-42.map)",
                  "\t 3 __vdso_clock_gettime+0x5 ([vdso])", "\t 4 [unknown] ([unknown])", ""},
                 o),
            "workload;[unknown];__vdso_clock_gettime_[k];jitted_[j];f_[k];do_syscall_64_[k] "
            "250000\n");
}

TEST(CollapsedTest, DsoWithParenthesesSplitsAtItsLastOne) {
  // `(.+) \((.*)\)` is greedy: the dso is "deleted)", the name "[unknown] (/tmp/a.out" cut at
  // its '('.
  EXPECT_EQ(fold({kHeader, "\t 1 [unknown] (/tmp/a.out (deleted))", ""}),
            "workload;[unknown]  250000\n");
}

TEST(CollapsedTest, EmptyChainCountsTheComm) {
  EXPECT_EQ(fold({kHeader, ""}), "workload 250000\n");
}

TEST(CollapsedTest, FramesWithoutAHeaderAreDropped) {
  EXPECT_EQ(fold({"\t 1 f (/x)", "", "# comment", kHeader, "\t 2 g (/x)", ""}),
            "workload;g 250000\n");
}

TEST(CollapsedTest, EventRootKeepsEveryEventUnderItsName) {
  // The viewers' mode: no event filtered, each stack rooted at its event.
  CollapseOptions o;
  o.event_root = true;
  std::vector<std::string> lines = {"exe 1 2.000000:         10 page-faults: ", "\t 1 f (/x)", "",
                                    "exe 1 2.000000:        100 cpu-clock: ",   "\t 1 g (/x)", ""};
  EXPECT_EQ(fold(lines, o), "cpu-clock;exe;g 100\npage-faults;exe;f 10\n");
}

TEST(CollapsedTest, MatchFrameLine) {
  auto f = match_frame_line("\t           153e0 update_active.constprop.0+0x270 (/usr/lib/ld.so)");
  ASSERT_TRUE(f);
  EXPECT_EQ(f->pc, "153e0");
  EXPECT_EQ(f->rawfunc, "update_active.constprop.0+0x270");
  EXPECT_EQ(f->mod, "/usr/lib/ld.so");
  EXPECT_FALSE(match_frame_line("\t   153e0 no_dso"));
}

TEST(StackCountsTest, MergesStacksWhoseTextIsEqual) {
  StackCounts c;
  std::vector<uint32_t> a = {c.intern("x;y")};
  std::vector<uint32_t> b = {c.intern("x"), c.intern("y")};
  c.add(a, 1);
  c.add(b, 2);
  c.add(b, 3);
  EXPECT_EQ(c.distinct_stacks(), 2u);
  std::string out;
  c.for_each_folded([&](std::string_view s, uint64_t n) {
    out += std::string(s) + " " + std::to_string(n) + "\n";
  });
  EXPECT_EQ(out, "x;y 6\n");
}

}  // namespace
}  // namespace readperf
