// The viewer exporters keep one entry per distinct stack, never one per sample: the same two
// stacks sampled 100 or 20000 times give outputs that differ only in the digits of the totals.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "perf_data_builder.h"
#include "readperf/format/perf_abi.h"
#include "readperf/output/chrome_trace_exporter.h"
#include "readperf/output/flamegraph_html.h"
#include "readperf/output/pprof_exporter.h"
#include "readperf/output/speedscope_exporter.h"
#include "readperf/reader/perf_data.h"

namespace readperf {
namespace {

using testing::PerfDataBuilder;
using testing::SampleAttr;

std::vector<std::byte> recording(int samples) {
  PerfDataBuilder b;
  b.AddAttr(SampleAttr(kSampleIp | kSampleTid | kSampleTime | kSamplePeriod), {});
  b.AddComm(7, 7, "worker", {.pid = 7, .tid = 7, .time = 1});
  for (int i = 0; i < samples; ++i) {
    // Two addresses (two pprof locations, one `[unknown]` frame for the folded views), each
    // run of 1000 samples at the same one.
    b.AddSample({.ip = (i / 1000) % 2 ? 0x2000u : 0x1000u,
                 .pid = 7,
                 .tid = 7,
                 .time = 10 + static_cast<uint64_t>(i) * 1000,
                 .period = 1000});
  }
  b.AddFinishedRound();
  return b.Build();
}

enum class Format { kPprof, kSpeedscope, kChrome, kFlamegraph };

std::string export_of(int samples, Format format) {
  auto data = PerfData::open_bytes(recording(samples));
  EXPECT_TRUE(data) << data.error().message();
  FILE* f = std::tmpfile();
  Status st;
  {
    OutBuffer out(f);
    CollapsedConfig cc;
    if (format == Format::kPprof) {
      PprofConfig pc;
      pc.gzip = false;
      st = run_pprof_export(**data, pc, f);
    } else if (format == Format::kSpeedscope) {
      st = run_speedscope_export(**data, cc, out, nullptr);
    } else if (format == Format::kChrome) {
      st = run_chrome_trace_export(**data, ChromeTraceConfig{}, out);
    } else {
      st = run_flamegraph(**data, nullptr, cc, FlamegraphOptions{}, out, nullptr);
    }
  }
  EXPECT_TRUE(st) << st.error().message();
  std::string text(static_cast<size_t>(std::ftell(f)), '\0');
  std::rewind(f);
  EXPECT_EQ(std::fread(text.data(), 1, text.size(), f), text.size());
  std::fclose(f);
  return text;
}

class ViewersTest : public ::testing::TestWithParam<Format> {};

TEST_P(ViewersTest, OutputGrowsWithDistinctStacksNotSamples) {
  std::string few = export_of(2000, GetParam());
  std::string many = export_of(20000, GetParam());
  ASSERT_FALSE(few.empty());
  // The totals gain a digit or two.
  EXPECT_LT(many.size(), few.size() + 64) << "few:\n" << few.substr(0, 2000);
}

INSTANTIATE_TEST_SUITE_P(Formats, ViewersTest,
                         ::testing::Values(Format::kPprof, Format::kSpeedscope,
                                           Format::kFlamegraph));

// The chrome trace is a timeline, one `sample` instant per sample, written as they come; its
// frames are B/E pairs that only change where the stack does.
TEST(ViewersTest, ChromeTraceFramesChangeWithTheStack) {
  std::string t = export_of(3000, Format::kChrome);
  size_t b = 0, samples = 0;
  for (size_t at = t.find("\"ph\":\"B\""); at != std::string::npos;
       at = t.find("\"ph\":\"B\"", at + 1))
    ++b;
  for (size_t at = t.find("\"name\":\"sample\""); at != std::string::npos;
       at = t.find("\"name\":\"sample\"", at + 1)) {
    ++samples;
  }
  EXPECT_EQ(samples, 3000u);
  EXPECT_EQ(b, 1u) << t.substr(0, 1000);  // one [unknown] frame throughout
}

TEST(ViewersTest, SpeedscopeTotals) {
  std::string s = export_of(3000, Format::kSpeedscope);
  EXPECT_NE(s.find("\"endValue\":3000000"), std::string::npos) << s;
  // No maps: both addresses fold into one `[unknown]` frame under the comm.
  EXPECT_NE(s.find("\"samples\":[[0,1]],\n\"weights\":[3000000]"), std::string::npos) << s;
}

}  // namespace
}  // namespace readperf
