// Kinds of recordings perf reads that need more than the usual file (issue #22): JIT symbol
// maps named as perf names them, tracepoint-only recordings' default sort order.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "perf_data_builder.h"
#include "readperf/analysis/report_session.h"
#include "readperf/format/perf_abi.h"
#include "readperf/output/out_buffer.h"
#include "readperf/output/script_printer.h"
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

// What script prints on standard output and standard error.
std::pair<std::string, std::string> script_output(const std::string& path,
                                                  const ScriptConfig& cfg) {
  auto pd = PerfData::open(path);
  EXPECT_TRUE(pd) << pd.error().message();
  if (!pd) return {};
  char *out_buf = nullptr, *err_buf = nullptr;
  size_t out_len = 0, err_len = 0;
  FILE* out = open_memstream(&out_buf, &out_len);
  FILE* err = open_memstream(&err_buf, &err_len);
  {
    OutBuffer o(out);
    EXPECT_TRUE(run_script(**pd, cfg, o, err));
  }
  std::fclose(out);
  std::fclose(err);
  std::pair<std::string, std::string> r{std::string(out_buf, out_len),
                                        std::string(err_buf, err_len)};
  std::free(out_buf);
  std::free(err_buf);
  return r;
}

// A perf kvm recording's guest samples: perf resolves them in guest machines when a guest
// option is given (perf_guest), and leaves them out otherwise (machine.c thread__find_map()
// filters them). readperf has no guest machines: it leaves them out either way, and with a
// guest option says how many it did not show.
TEST(RecordingKinds, GuestSamplesAreCountedWithGuestOptions) {
  PerfDataBuilder b;
  b.AddAttr(SampleAttr(kType), {});
  b.AddComm(4242, 4242, "qemu", {.pid = 4242, .tid = 4242, .time = 1});
  b.AddSample({.ip = 0x400100, .pid = 4242, .tid = 4242, .time = 10, .period = 1});
  for (uint64_t i = 0; i < 3; ++i) {
    b.AddSample({.misc = kMiscGuestKernel,
                 .ip = 0xffffffff81000100,
                 .pid = 4242,
                 .tid = 4242,
                 .time = 20 + i,
                 .period = 1});
  }
  b.AddSample(
      {.misc = kMiscGuestUser, .ip = 0x400200, .pid = 4242, .tid = 4242, .time = 30, .period = 1});
  b.AddFinishedRound();
  TempDir dir;
  std::string path = dir.Write("kvm.data", b.Build());
  // report: the host sample's entry alone (the guest ones counted in the total only).
  EXPECT_EQ(report_dsos(path).size(), 1u);
  ScriptConfig cfg;
  cfg.symbols.buildid_dir = "/nonexistent";
  cfg.fields = {"comm,tid,time,ip"};
  auto [host_out, host_err] = script_output(path, cfg);
  EXPECT_EQ(host_out, "            qemu  4242     0.000000:            400100\n");
  EXPECT_EQ(host_err, "");
  cfg.perf_guest = true;
  auto [guest_out, guest_err] = script_output(path, cfg);
  EXPECT_EQ(guest_out, host_out);
  EXPECT_EQ(guest_err,
            "readperf: 4 guest samples not shown: guest machines (--guestmount, --guestkallsyms, "
            "...) are not supported\n");
}

}  // namespace
}  // namespace readperf::testing
