// Kinds of recordings perf reads that need more than the usual file (issue #22): JIT symbol
// maps named as perf names them, tracepoint-only recordings' default sort order.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "perf_data_builder.h"
#include "readperf/analysis/report_session.h"
#include "readperf/format/perf_abi.h"
#include "readperf/reader/perf_data.h"
#include "readperf/session/dso.h"
#include "test_util.h"

namespace readperf::testing {
namespace {

constexpr uint64_t kType = kSampleIp | kSampleTid | kSampleTime | kSamplePeriod;

// The short names of the DSOs of the report's entries, by the entries' order.
std::vector<std::string> report_dsos(const std::string& path) {
  auto pd = PerfData::open(path);
  EXPECT_TRUE(pd) << pd.error().message();
  if (!pd) return {};
  ReportSetup setup;
  setup.hist.sort = parse_sort_keys("dso").value();
  setup.symbols.buildid_dir = "/nonexistent";
  Result<ReportData> data = run_report_session(**pd, setup);
  EXPECT_TRUE(data) << data.error().message();
  std::vector<std::string> names;
  if (!data || data->hists.empty() || !data->hists[0]) return names;
  Hists& h = *data->hists[0];
  h.finish();
  for (uint32_t id : h.order()) {
    const Dso* d = h.entry(id).dso;
    names.push_back(d ? d->short_name : "");
  }
  return names;
}

// dsos.c dso__set_basename(): a JIT's map file, named by map.c after the process for its
// anonymous executable memory, is "[JIT] tid PID" in the report.
TEST(RecordingKinds, JitMapsAreNamedByTheirProcess) {
  PerfDataBuilder b;
  b.AddAttr(SampleAttr(kType), {});
  b.AddComm(4242, 4242, "node", {.pid = 4242, .tid = 4242, .time = 1});
  b.AddMmap2(4242, 4242, 0x7f0000000000, 0x10000, 0, "//anon", {.time = 2});
  b.AddMmap2(4242, 4242, 0x7f1000000000, 0x10000, 0, "/tmp/perf-77.map", {.time = 3});
  b.AddMmap2(4242, 4242, 0x400000, 0x10000, 0, "/usr/bin/node", {.time = 4});
  for (uint64_t i = 0; i < 3; ++i) {
    b.AddSample({.ip = 0x7f0000000100, .pid = 4242, .tid = 4242, .time = 10 + i, .period = 1});
  }
  b.AddSample({.ip = 0x7f1000000100, .pid = 4242, .tid = 4242, .time = 20, .period = 1});
  b.AddSample({.ip = 0x7f1000000200, .pid = 4242, .tid = 4242, .time = 21, .period = 1});
  b.AddSample({.ip = 0x400100, .pid = 4242, .tid = 4242, .time = 30, .period = 1});
  b.AddFinishedRound();
  TempDir dir;
  EXPECT_EQ(report_dsos(dir.Write("jit.data", b.Build())),
            (std::vector<std::string>{"[JIT] tid 4242", "[JIT] tid 77", "node"}));
}

}  // namespace
}  // namespace readperf::testing
