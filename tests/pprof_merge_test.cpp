// The pprof merge (pprof_merge.h) on a golden recording's pprof export: merged alone a profile
// is rebuilt into its own bytes, and a profile cut anywhere or with any one byte damaged is an
// error naming it, or a profile, never a crash or a read past its end (the sanitized build
// checks). The sums and the sample types' union are checked from Python
// (tests/python/test_readperf.py, test_fleet.py).
#include "readperf/output/pprof_merge.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "readperf/output/pprof_exporter.h"
#include "readperf/reader/perf_data.h"

namespace readperf {
namespace {

template <class Write>
std::string written(Write write) {
  char* buf = nullptr;
  size_t size = 0;
  FILE* mem = open_memstream(&buf, &size);
  EXPECT_NE(mem, nullptr);
  write(mem);
  std::fclose(mem);
  std::string out(buf, size);
  std::free(buf);
  return out;
}

std::string golden_profile(const std::string& name) {
  auto data = PerfData::open(std::string(READPERF_GOLDEN_DIR) + "/" + name + "/perf.data");
  EXPECT_TRUE(data) << data.error().message();
  if (!data) return {};
  PprofConfig cfg;
  cfg.symbols.buildid_dir = std::string(READPERF_GOLDEN_DIR) + "/buildid";
  cfg.gzip = false;
  return written([&](FILE* f) { EXPECT_TRUE(run_pprof_export(**data, cfg, f)); });
}

Status merged(const std::vector<std::string_view>& profiles, std::string& out) {
  PprofMergeConfig cfg;
  cfg.gzip = false;
  cfg.max_size = uint64_t{16} << 20;
  Status st;
  out = written([&](FILE* f) { st = merge_pprof(profiles, cfg, f); });
  return st;
}

TEST(PprofMergeTest, OneProfileMergesIntoItsOwnBytes) {
  for (const char* name : {"spin-fp", "dwarf-cxx", "group-sw"}) {
    SCOPED_TRACE(name);
    std::string p = golden_profile(name);
    ASSERT_FALSE(p.empty());
    std::string out;
    ASSERT_TRUE(merged({p}, out));
    EXPECT_EQ(out, p);
  }
}

TEST(PprofMergeTest, ACutProfileIsAnErrorOrAProfile) {
  std::string good = golden_profile("spin-fp");
  std::string out;
  size_t errors = 0;
  for (size_t cut = 0; cut < good.size(); ++cut) {
    std::string cut_copy = good.substr(0, cut);  // its own allocation: a read past it is seen
    Status st = merged({good, cut_copy}, out);
    if (!st) {
      ++errors;
      EXPECT_EQ(st.error().message().rfind("profile 1: ", 0), 0u) << st.error().message();
    }
  }
  EXPECT_GT(errors, good.size() / 2);
}

TEST(PprofMergeTest, ADamagedByteIsAnErrorOrAProfile) {
  std::string good = golden_profile("spin-fp");
  std::string out;
  size_t errors = 0;
  for (size_t i = 0; i < good.size(); ++i) {
    for (char flip : {'\xff', '\x80', '\x01'}) {
      std::string bad = good;
      bad[i] = static_cast<char>(bad[i] ^ flip);
      Status st = merged({bad, good}, out);
      if (!st) {
        ++errors;
        EXPECT_EQ(st.error().message().rfind("profile 0: ", 0), 0u) << st.error().message();
      }
    }
  }
  EXPECT_GT(errors, 0u);
}

}  // namespace
}  // namespace readperf
