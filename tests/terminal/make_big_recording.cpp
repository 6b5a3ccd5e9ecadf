// make_big_recording OUT [MIB]: a perf.data file of at least MIB MiB (default 80) for the
// progress line's test: one process, one mapped binary, samples with 8-frame call chains in
// time order, a FINISHED_ROUND every 10000 samples, as `perf record -g` writes them.
#include <cstdint>
#include <cstdlib>
#include <string>

#include "perf_data_builder.h"

using namespace readperf;
using namespace readperf::testing;

int main(int argc, char** argv) {
  if (argc < 2) return 2;
  uint64_t want = (argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 80) << 20;
  EventAttr attr =
      SampleAttr(kSampleIp | kSampleTid | kSampleTime | kSamplePeriod | kSampleCallchain);
  PerfDataBuilder b;
  b.AddAttr(attr, {1});
  b.AddComm(7, 7, "big", {.pid = 7, .tid = 7, .time = 1});
  b.AddMmap(7, 7, 0x400000, 0x100000, 0, "/nonexistent/big", {.pid = 7, .tid = 7, .time = 2});
  // header 8 + ip, pid/tid, time, period 32 + nr 8 + 8 frames 64 = 112 bytes a sample.
  constexpr uint64_t kSampleBytes = 112;
  uint64_t samples = want / kSampleBytes + 1;
  for (uint64_t i = 0; i < samples; ++i) {
    uint64_t ip = 0x401000 + (i % 64) * 0x40;
    b.AddSample(
        {.ip = ip,
         .pid = 7,
         .tid = 7,
         .time = 1000 + i * 1000,
         .period = 1000,
         .callchain = {ip, 0x402000, 0x403000, 0x404000, 0x405000, 0x406000, 0x407000, 0x408000}});
    if (i % 10000 == 9999) b.AddFinishedRound();
  }
  b.AddFinishedRound();
  b.WriteFile(argv[1]);
  return 0;
}
