// Reader throughput: how fast PerfData hands records to a sink, in MB/s of the file and in
// samples/s, for the three ways the commands read (report --stats: file order, samples not
// decoded; file order with every sample decoded; perf's time order, as report and script).
//
//   build/readperf_bench                                   # a synthetic 24 MB recording
//   READPERF_BENCH_FILE=perf.data build/readperf_bench     # a real one
//
// The file is read once before timing, so the numbers are for a page-cached file.
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "perf_data_builder.h"
#include "readperf/format/perf_abi.h"
#include "readperf/reader/perf_data.h"

namespace readperf {
namespace {

using testing::PerfDataBuilder;
using testing::SampleAttr;
using testing::SampleFields;

constexpr int kSamples = 200'000;
constexpr int kChainDepth = 8;

// A recording shaped like `perf record -g`: ip, tid, time, call chain and period, with a
// FINISHED_ROUND every 1000 samples and the time running backwards a little inside a round.
std::string synthetic_file() {
  std::string path = "/tmp/readperf_bench." + std::to_string(::getpid()) + ".data";
  EventAttr attr =
      SampleAttr(kSampleIp | kSampleTid | kSampleTime | kSampleCallchain | kSamplePeriod);
  PerfDataBuilder b;
  b.AddAttr(attr, {});
  SampleFields sid;
  sid.pid = 7;
  sid.tid = 7;
  b.AddComm(7, 7, "bench", sid);
  b.AddMmap(7, 7, 0x400000, 0x100000, 0, "/bin/bench", sid);
  for (int i = 0; i < kSamples; ++i) {
    SampleFields f;
    f.ip = 0x400000u + (i % 4096) * 16u;
    f.pid = 7;
    f.tid = static_cast<uint32_t>(7 + i % 4);
    f.time = 1'000'000u + static_cast<uint64_t>(i) * 1000 - (i % 7) * 10;
    f.period = 50'000;
    f.callchain.push_back(0xfffffffffffffe00ull);  // PERF_CONTEXT_USER
    for (int d = 0; d < kChainDepth; ++d) f.callchain.push_back(0x400000u + (i * 7 + d) % 65536);
    b.AddSample(f);
    if (i % 1000 == 999) b.AddFinishedRound();
  }
  b.WriteFile(path);
  return path;
}

struct BenchFile {
  BenchFile() {
    if (const char* env = std::getenv("READPERF_BENCH_FILE")) {
      path = env;
    } else {
      path = synthetic_file();
      owned = true;
    }
    size = std::filesystem::file_size(path);
  }
  ~BenchFile() {
    if (owned) std::remove(path.c_str());
  }
  std::string path;
  uint64_t size = 0;
  bool owned = false;
};

const BenchFile& bench_file() {
  static BenchFile f;
  return f;
}

class CountingSink : public EventSink {
 public:
  void on_read(const RecordView& r) override {
    ++records;
    if (r.type == kRecordSample) ++samples;
  }
  void on_kernel_record(const RecordView& /*r*/, const Sample& s, const Evsel* /*e*/) override {
    ip_sum += s.ip;
  }
  uint64_t records = 0, samples = 0, ip_sum = 0;
};

void run(benchmark::State& state, PerfData::ProcessOptions options) {
  const BenchFile& f = bench_file();
  uint64_t samples = 0;
  for (auto _ : state) {
    auto pd = PerfData::open(f.path);
    if (!pd) {
      state.SkipWithError(pd.error().message().c_str());
      return;
    }
    CountingSink sink;
    if (Status st = (*pd)->process(sink, options); !st) {
      state.SkipWithError(st.error().message().c_str());
      return;
    }
    benchmark::DoNotOptimize(sink.ip_sum);
    samples += sink.samples;
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * f.size));
  state.counters["samples/s"] =
      benchmark::Counter(static_cast<double>(samples), benchmark::Counter::kIsRate);
}

// report --stats: file order, only each sample's event looked up.
void BM_DecodeStats(benchmark::State& state) {
  run(state, {.ordered = false, .decode_samples = false});
}
// Every sample decoded, in file order.
void BM_DecodeSamples(benchmark::State& state) {
  run(state, {.ordered = false, .decode_samples = true});
}
// perf's time order (the ordered queue), every sample decoded: report and script.
void BM_DecodeOrdered(benchmark::State& state) {
  run(state, {.ordered = true, .decode_samples = true});
}

BENCHMARK(BM_DecodeStats)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_DecodeSamples)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_DecodeOrdered)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace readperf

BENCHMARK_MAIN();
