// What a run could not name: the samples that fell in binaries whose symbols were found
// nowhere (the build-id cache, archives, debuginfod, local paths), gathered from every
// Resolver of the process when it is destroyed, and said in one line on standard error so that
// people know what to fetch:
//
//   readperf: 1200 of 5000 samples (24.00%) fell in 2 binaries whose symbols were not found:
//   /usr/lib/libfoo.so (build-id 1a2b..., 1000 samples), /opt/app (build-id 3c4d..., 200 samples)
//
//   if (std::string line = take_missing_symbols_summary(); !line.empty())
//     fmt::print(stderr, "readperf: {}\n", line);
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace readperf {

class Resolver;

struct MissingBinaryCount {
  std::string name;      // as perf names the DSO
  std::string build_id;  // hex, empty when the recording has none
  uint64_t samples = 0;
};

// Adds what `resolver` counted (Resolver's destructor calls it). Thread-safe.
void add_missing_symbols(const Resolver& resolver);

// The line for what was added since the last call ("" when every sample's binary was found),
// and forgets it: "N of M samples (P%) fell in K binaries whose symbols were not found: " and
// the three with the most samples.
std::string take_missing_symbols_summary();

// The same line for given counts (`binaries` most samples first).
std::string missing_symbols_summary(uint64_t total_samples,
                                    const std::vector<MissingBinaryCount>& binaries);

}  // namespace readperf
