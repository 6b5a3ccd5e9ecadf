// The line that says which binaries the samples fell in were found nowhere
// (analysis/missing_symbols.h).
#include "readperf/analysis/missing_symbols.h"

#include <gtest/gtest.h>

namespace readperf {
namespace {

TEST(MissingSymbols, TheThreeWithTheMostSamplesAndHowManyMore) {
  std::vector<MissingBinaryCount> b = {{"/usr/lib/libfoo.so", "1a2b", 500},
                                       {"/opt/app", "", 300},
                                       {"[kernel.kallsyms]", "3c4d", 100},
                                       {"/usr/lib/libbar.so", "5e6f", 50},
                                       {"/usr/lib/libbaz.so", "7a8b", 1}};
  EXPECT_EQ(missing_symbols_summary(1000, b),
            "951 of 1000 samples (95.10%) fell in 5 binaries whose symbols were not found: "
            "/usr/lib/libfoo.so (build-id 1a2b, 500 samples), /opt/app (no build-id, 300 "
            "samples), [kernel.kallsyms] (build-id 3c4d, 100 samples), and 2 more");
  EXPECT_EQ(missing_symbols_summary(10, {{"/bin/x", "ab", 1}}),
            "1 of 10 samples (10.00%) fell in 1 binary whose symbols were not found: /bin/x "
            "(build-id ab, 1 sample)");
  EXPECT_EQ(missing_symbols_summary(10, {}), "");
}

}  // namespace
}  // namespace readperf
