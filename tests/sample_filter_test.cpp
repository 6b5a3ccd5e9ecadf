// --time and -C as perf's time-utils.c and session.c parse them (SampleFilter), on a recording
// whose SAMPLE_TIME feature says its samples span 1.0 s to 2.0 s; and the thread, DSO and
// symbol filters of machine__resolve() (SampleSelection).
#include "readperf/analysis/sample_filter.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "byte_writer.h"
#include "perf_data_builder.h"
#include "readperf/analysis/resolver.h"
#include "readperf/analysis/sample_selection.h"
#include "readperf/format/perf_abi.h"
#include "readperf/reader/perf_data.h"
#include "readperf/session/map.h"
#include "readperf/session/thread.h"
#include "test_util.h"

namespace readperf {
namespace {

using testing::ByteWriter;
using testing::PerfDataBuilder;

constexpr uint64_t kSec = 1000000000ull;

class SampleFilterTest : public ::testing::Test {
 protected:
  void SetUp() override {
    PerfDataBuilder b;
    b.AddAttr(testing::SampleAttr(kSampleIp | kSampleTid | kSampleTime | kSampleCpu), {11});
    ByteWriter n(ByteOrder::kNative);
    n.u32(4).u32(4);
    b.AddFeature(kFeatNrCpus, n.take());
    ByteWriter t(ByteOrder::kNative);
    t.u64(1 * kSec).u64(2 * kSec);
    b.AddFeature(kFeatSampleTime, t.take());
    b.AddSample({.ip = 1, .pid = 1, .tid = 1, .time = kSec});
    auto data = PerfData::open(dir_.Write("perf.data", b.Build()));
    ASSERT_TRUE(data) << data.error().message();
    data_ = std::move(*data);
  }
  Result<SampleFilter> parse(std::string_view time, std::string_view cpus = "",
                             bool reltime = false) {
    return SampleFilter::parse({.time = time, .cpu_list = cpus, .reltime = reltime}, *data_);
  }
  testing::TempDir dir_;
  std::unique_ptr<PerfData> data_;
};

TEST_F(SampleFilterTest, AbsoluteWindows) {
  Result<SampleFilter> f = parse("1.5,1.75");
  ASSERT_TRUE(f);
  EXPECT_FALSE(f->skip_time(1500000000));
  EXPECT_TRUE(f->skip_time(1499999999));
  EXPECT_TRUE(f->skip_time(1750000001));
  EXPECT_FALSE(f->skip_time(0));  // a sample without time is never dropped
  f = parse("1.5,");              // an open end
  ASSERT_TRUE(f);
  EXPECT_FALSE(f->skip_time(9 * kSec));
  // Several windows: "A,B C,D", each kept, the gap between dropped.
  f = parse("1.1,1.2 1.5,1.6");
  ASSERT_TRUE(f);
  ASSERT_EQ(f->windows().size(), 2u);
  EXPECT_FALSE(f->skip_time(1150000000));
  EXPECT_TRUE(f->skip_time(1300000000));
  EXPECT_FALSE(f->skip_time(1600000000));
  EXPECT_FALSE(parse("1.6,1.5"));          // end before start
  EXPECT_FALSE(parse("1.1,1.5 1.4,1.6"));  // overlapping windows
  EXPECT_FALSE(parse("1.5"));              // no comma
  EXPECT_FALSE(parse("1.1234567891,"));    // more than 9 fraction digits
}

TEST_F(SampleFilterTest, PercentForms) {
  // 0%-50% of [1 s, 2 s]: 1.0 s to 1.5 s less a nanosecond (set_percent_time()).
  Result<SampleFilter> f = parse("0%-50%");
  ASSERT_TRUE(f);
  ASSERT_EQ(f->windows().size(), 1u);
  EXPECT_EQ(f->windows()[0].start, 1 * kSec);
  EXPECT_EQ(f->windows()[0].end, 1500000000 - 1);
  // 10%/2: the second tenth; two slices.
  f = parse("10%/2,10%/5");
  ASSERT_TRUE(f);
  ASSERT_EQ(f->windows().size(), 2u);
  EXPECT_EQ(f->windows()[0].start, 1100000000u);
  EXPECT_EQ(f->windows()[1].end, 1500000000u - 1);
  // "25%": the first quarter.
  f = parse("25%");
  ASSERT_TRUE(f);
  EXPECT_EQ(f->windows()[0].end, 1250000000u - 1);
  // The last slice ends at the last sample exactly.
  f = parse("50%-100%");
  ASSERT_TRUE(f);
  EXPECT_EQ(f->windows()[0].end, 2 * kSec);
  EXPECT_FALSE(parse("0%-150%"));
  EXPECT_FALSE(parse("10%/2,30%-40%"));  // a slash form: every piece must be one
  EXPECT_FALSE(parse("x%"));
}

TEST_F(SampleFilterTest, ReltimeAndCpus) {
  Result<SampleFilter> f = parse("0.5,0.75", "", true);
  ASSERT_TRUE(f);
  EXPECT_EQ(f->windows()[0].start, 1500000000u);
  f = parse("", "1,3");
  ASSERT_TRUE(f);
  EXPECT_TRUE(f->skip_cpu(0));
  EXPECT_FALSE(f->skip_cpu(1));
  EXPECT_TRUE(f->skip_cpu(2));
  EXPECT_FALSE(f->skip_cpu(~0u));  // no CPU in the sample
  Result<SampleFilter> big = parse("", "7");
  ASSERT_FALSE(big);
  EXPECT_EQ(big.error().message(), "Requested CPU 7 too large. Consider raising MAX_NR_CPUS");
}

// event.c machine__resolve(): the thread, DSO and symbol bits of a resolved sample.
TEST_F(SampleFilterTest, SelectionBitsAsMachineResolve) {
  Thread t;
  t.pid = 10;
  t.tid = 11;
  t.comms.push_back({.str = "make"});
  Dso dso;
  dso.long_name = "/usr/lib/libc.so.6";
  dso.short_name = "libc.so.6";
  Symbol main_sym{.start = 0x1000, .end = 0x1100, .name = "main"};
  Symbol add{.start = 0x1000, .end = 0x1100, .name = "add"};
  Map map;
  Frame self;
  self.ip = 0x7f0000001010;  // the symbol's start 0x1000 is 0x7f0000001000 in the map
  self.sym_addr = 0x1010;
  self.map = &map;
  self.dso = &dso;
  self.sym = &main_sym;
  auto select = [&](SampleSelectionOptions o) {
    Result<SampleSelection> s = SampleSelection::parse(o, *data_);
    EXPECT_TRUE(s) << s.error().message();
    return s ? s->filter_bits(t, self) : uint8_t{0xff};
  };
  EXPECT_EQ(select({}), 0);
  EXPECT_EQ(select({.comms = {"make"}}), 0);
  EXPECT_EQ(select({.comms = {"cc1"}}), kHistFilterThread);
  EXPECT_EQ(select({.pids = {10}, .tids = {11}}), 0);
  EXPECT_EQ(select({.tids = {10}}), kHistFilterThread);
  EXPECT_EQ(select({.dsos = {"libc.so.6"}}), 0);
  EXPECT_EQ(select({.dsos = {"/usr/lib/libc.so.6"}}), 0);
  EXPECT_EQ(select({.dsos = {"libm.so.6"}}), kHistFilterDso);
  EXPECT_EQ(select({.symbols = {"sub", "main"}}), 0);
  EXPECT_EQ(select({.symbols = {"0x7f0000001000"}}), kHistFilterSymbol);
  // perf 6.1's symbol.c setup_addrlist(): "add" reads whole as a hexadecimal number, so it is
  // an address and no longer a name; so is machine__resolve()'s "0x%lx" symbol start (above).
  self.sym = &add;
  EXPECT_EQ(select({.symbols = {"add"}}), kHistFilterSymbol);
  self.sym = &main_sym;
  EXPECT_EQ(select({.symbols = {"7f0000001010"}}), 0);  // the sample's address
  EXPECT_EQ(select({.symbols = {"0x7f0000001010"}}), 0);
  EXPECT_EQ(select({.symbols = {"7f0000001008"}}), kHistFilterSymbol);
  EXPECT_EQ(select({.symbols = {"7f0000001008"}, .addr_range = 16}), 0);
  EXPECT_EQ(select({.comms = {"cc1"}, .dsos = {"libm.so.6"}, .symbols = {"sub"}}),
            kHistFilterThread | kHistFilterDso | kHistFilterSymbol);
  // Without a map: no DSO to list, no address to match.
  self.map = nullptr;
  EXPECT_EQ(select({.dsos = {"libc.so.6"}}), kHistFilterDso);
  EXPECT_EQ(select({.symbols = {"7f0000001010"}}), kHistFilterSymbol);
}

}  // namespace
}  // namespace readperf
