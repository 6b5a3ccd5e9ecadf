#include "readperf/symbols/inline_frames.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace readperf {
namespace {

constexpr const char* kDemo = "data/inline_demo";

// What `addr2line -e data/inline_demo -i -f 0x401118` prints: square at its line, then each
// inliner at the call site (README-inline_demo.md).
void ExpectSquareInScaleInCompute(const std::vector<InlineRecord>& r) {
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

TEST(InlineFrames, NestedInlinesInnermostFirst) {
  InlineFrames inl;
  ExpectSquareInScaleInCompute(inl.lookup(kDemo, 0x401118));
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

// inline_demo without its DWARF, which is in a separate debug file (data/separate_debug/,
// made with `objcopy --only-keep-debug` and `--strip-debug`): addr2line reads it, found by the
// binary's build-id under DEBUGDIR/.build-id or by its .gnu_debuglink, and so does readperf.
TEST(InlineFrames, SeparateDebugFileByBuildId) {
  constexpr const char* kStripped = "data/separate_debug/by-build-id/inline_demo";
  {
    InlineFrames inl;  // DEBUGDIR /usr/lib/debug: not there
    EXPECT_TRUE(inl.lookup(kStripped, 0x401118).empty());
  }
  InlineFrames inl;
  inl.set_debug_dir("data/separate_debug/root");
  ExpectSquareInScaleInCompute(inl.lookup(kStripped, 0x401118));
}

TEST(InlineFrames, SeparateDebugFileByDebuglink) {
  // `printf '0x401118\n' | addr2line -f -i -e data/separate_debug/by-debuglink/inline_demo`
  InlineFrames inl;
  ExpectSquareInScaleInCompute(
      inl.lookup("data/separate_debug/by-debuglink/inline_demo", 0x401118));
}

// The dwarf-cxx golden case's binary (tests/golden/README.md). Square::area is a member of a
// class in an anonymous namespace: its DWARF has no linkage name, so addr2line (binutils 2.40)
// names it from the symbol table the first time an address has it innermost, renames the
// out-of-line function for good because its symbol starts where it does, and uses the DWARF
// name "area" for an inlined copy after that. Expected: `addr2line -e ELF -f -i` fed 0xb230,
// 0xb1c0, 0xb234 in that order (one process, as perf keeps it).
constexpr const char* kCxx =
    "golden/buildid/tmp/readperf-golden/dwarf_cxx/a54e849d92cd445b2f34cd547407981c9e7122a7/elf";

std::vector<std::string> names(const std::vector<InlineRecord>& r) {
  std::vector<std::string> out;
  for (const InlineRecord& x : r) out.push_back(x.function);
  return out;
}

TEST(InlineFrames, NamesWithoutLinkageNameFollowAddr2linesState) {
  InlineFrames inl;
  const std::string sym = "(anonymous namespace)::Square::area";
  const EnclosingSymbol area{sym, 0xb1b0};
  using V = std::vector<std::string>;
  // An inlined copy of area inside area, asked first: the symbol's name, then the DWARF names.
  EXPECT_EQ(names(inl.lookup(kCxx, 0xb230, &area)), (V{sym, "area", "area"}));
  // The out-of-line function itself: the symbol's name, which it now keeps.
  EXPECT_EQ(names(inl.lookup(kCxx, 0xb1c0, &area)), (V{sym}));
  // Another inlined function (mix) there for the first time; the inlined area copies keep
  // their DWARF name, the out-of-line one is now named as its symbol.
  EXPECT_EQ(names(inl.lookup(kCxx, 0xb234, &area)), (V{sym, "area", "area", sym}));
  // An answer is kept as perf keeps it (dso->inlined_nodes): asked again, the same.
  EXPECT_EQ(names(inl.lookup(kCxx, 0xb230, &area)), (V{sym, "area", "area"}));
}

// Addresses the line tables do not hold (static glibc has no DWARF): addr2line names the
// symbol table's function and the STT_FILE before it ("__libc_start_call_main\nlibc-start.o:?"),
// "??" for a global symbol after other files' symbols (_start), and nothing outside every
// section. Expected: `addr2line -e ELF -f -i 0x1afe0 0xac30 0x10`.
TEST(InlineFrames, SymbolTableFileForAddressesWithoutLines) {
  InlineFrames inl;
  std::string file;
  ASSERT_TRUE(inl.symbol_source_file(kCxx, 0x1afe0, &file));
  EXPECT_EQ(file, "libc-start.o");
  ASSERT_TRUE(inl.symbol_source_file(kCxx, 0xac30, &file));
  EXPECT_EQ(file, "??");
  EXPECT_FALSE(inl.symbol_source_file(kCxx, 0x10, &file));
  EXPECT_FALSE(inl.symbol_source_file("data/does-not-exist", 0x1afe0, &file));
}

}  // namespace
}  // namespace readperf
