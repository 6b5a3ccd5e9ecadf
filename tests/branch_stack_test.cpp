// Branch stacks in perf's views: `report -D` prints a sample's branch stack whenever its
// sample_type has PERF_SAMPLE_BRANCH_STACK, whatever its branch_sample_type (perf inject
// writes such attrs).
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "perf_data_builder.h"
#include "readperf/analysis/resolver.h"
#include "readperf/format/perf_abi.h"
#include "readperf/output/dump_printer.h"
#include "readperf/output/out_buffer.h"
#include "readperf/reader/perf_data.h"
#include "test_util.h"

#ifndef READPERF_GOLDEN_DIR
#error "READPERF_GOLDEN_DIR must name tests/golden"
#endif

namespace readperf::testing {
namespace {

constexpr uint64_t kType =
    kSampleIp | kSampleTid | kSampleTime | kSamplePeriod | kSampleBranchStack;

std::string Dump(const std::string& path) {
  auto data = PerfData::open(path);
  EXPECT_TRUE(data) << data.error().message();
  if (!data) return "";
  char* text = nullptr;
  size_t size = 0;
  FILE* mem = open_memstream(&text, &size);
  {
    OutBuffer out(mem);
    EXPECT_TRUE(run_dump(**data, out));
  }
  std::fclose(mem);
  std::string dump(text, size);
  std::free(text);
  return dump;
}

// The builder's file with an attr whose branch_sample_type is 0; the expected lines are what
// perf 6.1's `report -D` printed for the same bytes (session.c branch_stack__printf(), called
// when evsel__has_br_stack(): the sample_type bit alone).
TEST(BranchStack, DumpPrintsTheStackWithoutBranchSampleType) {
  for (ByteOrder order : {ByteOrder::kNative, ByteOrder::kSwapped}) {
    EventAttr attr = SampleAttr(kType);
    attr.branch_sample_type = 0;
    PerfDataBuilder b;
    b.WithByteOrder(order).AddAttr(attr, {7});
    b.AddComm(5, 5, "loop", {.pid = 5, .tid = 5, .time = 1});
    uint64_t flags0 = 1 | (uint64_t{12} << 4);                 // mispredicted, 12 cycles
    uint64_t flags1 = 2 | 4 | (uint64_t{3} << 4) | (1 << 20);  // predicted, in_tx, COND
    b.AddSample({.ip = 0x401000,
                 .pid = 5,
                 .tid = 5,
                 .time = 2,
                 .period = 1,
                 .branches = {{0x401010, 0x401000, flags0}, {0x402000, 0x401004, flags1}}});
    TempDir dir;
    const std::string dump = Dump(dir.Write("perf.data", b.Build()));
    EXPECT_NE(dump.find("... branch stack: nr:2\n"
                        ".....  0: 0000000000401010 -> 0000000000401000 12 cycles M    0 \n"
                        ".....  1: 0000000000402000 -> 0000000000401004 3 cycles  P T 0 COND\n"),
              std::string::npos)
        << dump;
  }
}

}  // namespace
}  // namespace readperf::testing
