// Inputs the fuzzers once crashed, hung or leaked on (fuzz/regressions/<target>/), replayed
// through the same entry points (fuzz/fuzz_targets.h) in the ordinary build: each must now
// run to the end. A new crasher becomes a test by being saved there under a name that says
// what it broke.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "fuzz_targets.h"

namespace readperf::testing {
namespace {

namespace fs = std::filesystem;

struct Regression {
  const fuzz::FuzzTarget* target;
  fs::path file;
};

std::vector<Regression> AllRegressions() {
  std::vector<Regression> out;
  for (const fuzz::FuzzTarget& t : fuzz::kFuzzTargets) {
    fs::path dir = fs::path(READPERF_FUZZ_REGRESSIONS) / std::string(t.name);
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) continue;
    std::vector<fs::path> files;
    for (const auto& e : fs::directory_iterator(dir)) {
      if (e.is_regular_file()) files.push_back(e.path());
    }
    std::sort(files.begin(), files.end());
    for (const fs::path& f : files) out.push_back({&t, f});
  }
  return out;
}

// "perf_file/zero_size_feature" -> "perf_file_zero_size_feature" (test names are identifiers).
std::string TestName(const ::testing::TestParamInfo<Regression>& info) {
  std::string name = std::string(info.param.target->name) + "_" +
                     info.param.file.filename().string();
  for (char& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return name;
}

class FuzzRegression : public ::testing::TestWithParam<Regression> {};

TEST_P(FuzzRegression, RunsToTheEnd) {
  std::ifstream in(GetParam().file, std::ios::binary);
  ASSERT_TRUE(in) << GetParam().file;
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)),
                             std::istreambuf_iterator<char>());
  const auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(GetParam().target->run(bytes.data(), bytes.size()), 0);
  // Timeouts are findings too: the fuzzers stop an input after 10 s under ASan; every saved
  // input now runs in milliseconds, so 30 s leaves room for a loaded machine and a slow build.
  const auto took = std::chrono::steady_clock::now() - start;
  EXPECT_LT(std::chrono::duration_cast<std::chrono::seconds>(took).count(), 30);
}

INSTANTIATE_TEST_SUITE_P(Saved, FuzzRegression, ::testing::ValuesIn(AllRegressions()), TestName);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(FuzzRegression);

}  // namespace
}  // namespace readperf::testing
