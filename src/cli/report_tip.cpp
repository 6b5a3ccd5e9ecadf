#include "report_tip.h"

#include <random>

namespace readperf::cli {

std::string_view random_tip() {
  static constexpr std::string_view kTips[] = {
      "Tip: readperf export --format pprof -o out.pb.gz writes the profile for pprof -http=:",
      "Tip: readperf flamegraph -o out.html writes a flame graph page that needs no network",
      "Tip: readperf flamegraph --diff base.data colours what grew and what shrank",
      "Tip: readperf export --format speedscope -o out.json opens in speedscope",
      "Tip: readperf export --format chrome -o trace.json opens in Perfetto UI",
      "Tip: readperf export --format sqlite -o out.db answers SQL queries about the samples",
      "Tip: readperf export --format collapsed folds the stacks for flamegraph.pl",
      "Tip: readperf csv -o DIR writes the stats, processes and functions as CSV tables",
      "Tip: readperf FILE alone lists the functions of each event by share",
      "Tip: readperf convert --byte-order big writes a recording in the other byte order",
      "Tip: readperf convert -o - --to-pipe streams a recording as perf record -o - would",
  };
  std::random_device seed;
  std::uniform_int_distribution<size_t> pick(0, std::size(kTips) - 1);
  return kTips[pick(seed)];
}

}  // namespace readperf::cli
