#include "readperf/analysis/missing_symbols.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <mutex>

#include "readperf/analysis/resolver.h"

namespace readperf {

namespace {

struct Tally {
  std::mutex mu;
  uint64_t total = 0;
  // By (name, build-id): several resolvers of one run (two recordings) add up.
  std::map<std::pair<std::string, std::string>, uint64_t> missing;
};

Tally& tally() {
  static Tally t;
  return t;
}

constexpr size_t kShown = 3;

}  // namespace

void add_missing_symbols(const Resolver& resolver) {
  std::vector<MissingBinary> missing = resolver.missing_binaries();
  Tally& t = tally();
  std::lock_guard lock(t.mu);
  t.total += resolver.samples_resolved();
  for (const MissingBinary& m : missing) {
    std::string id;
    for (uint8_t b : m.dso->build_id) id += fmt::format("{:02x}", b);
    t.missing[{m.dso->long_name.empty() ? m.dso->short_name : m.dso->long_name, id}] += m.samples;
  }
}

std::string missing_symbols_summary(uint64_t total_samples,
                                    const std::vector<MissingBinaryCount>& binaries) {
  uint64_t missing = 0;
  for (const MissingBinaryCount& b : binaries) missing += b.samples;
  if (missing == 0) return {};
  std::string out = fmt::format(
      "{} of {} samples ({:.2f}%) fell in {} {} whose symbols were not found: ", missing,
      total_samples, total_samples ? 100.0 * static_cast<double>(missing) / total_samples : 0.0,
      binaries.size(), binaries.size() == 1 ? "binary" : "binaries");
  for (size_t i = 0; i < binaries.size() && i < kShown; ++i) {
    const MissingBinaryCount& b = binaries[i];
    out += fmt::format("{}{} ({}, {} sample{})", i ? ", " : "", b.name,
                       b.build_id.empty() ? "no build-id" : "build-id " + b.build_id, b.samples,
                       b.samples == 1 ? "" : "s");
  }
  if (binaries.size() > kShown) out += fmt::format(", and {} more", binaries.size() - kShown);
  return out;
}

std::string take_missing_symbols_summary() {
  Tally& t = tally();
  std::lock_guard lock(t.mu);
  std::vector<MissingBinaryCount> binaries;
  for (const auto& [key, n] : t.missing) binaries.push_back({key.first, key.second, n});
  std::stable_sort(binaries.begin(), binaries.end(),
                   [](const MissingBinaryCount& a, const MissingBinaryCount& b) {
                     return a.samples > b.samples;
                   });
  std::string line = missing_symbols_summary(t.total, binaries);
  t.total = 0;
  t.missing.clear();
  return line;
}

}  // namespace readperf
