// The damaged-file matrix on real recordings (the golden cases perf wrote): each is cut at
// every record boundary, in the middle of every record, all through its header, attrs and
// feature sections. Every cut must give the records before it (in file order) and either
// success or an error, never a crash, a hang or a record that the whole file does not have.
// ASan and UBSan run this in CI (.ci/run).
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <set>

#include "readperf/format/perf_abi.h"
#include "readperf/reader/perf_data.h"
#include "test_util.h"

namespace readperf::testing {
namespace {

// Every delivery as a line, with the record's offset: what a cut reading must be a prefix of.
class OffsetSink : public EventSink {
 public:
  void on_read(const RecordView& r) override {
    if (!r.decompressed) ends.insert(r.file_offset + r.size);
    if (!r.decompressed) starts.insert(r.file_offset);
  }
  void on_user_record(const RecordView& r) override { add('U', r); }
  void on_kernel_record(const RecordView& r, const Sample& s, const Evsel*) override {
    add('K', r, Describe(s, 0));
  }
  void on_skipped(const RecordView& r, const Error& why) override { add('S', r, why.message()); }

  std::vector<std::string> lines;
  std::set<uint64_t> starts, ends;

 private:
  void add(char kind, const RecordView& r, const std::string& more = "") {
    lines.push_back(fmt::format("{} {} {} {}", kind, r.type, r.size, more));
  }
};

struct Reading {
  bool opened = false, ok = false;
  std::string error;
  OffsetSink sink;
  std::vector<std::string> warnings;
};

Reading Read(const std::string& path) {
  Reading out;
  auto pd = PerfData::open(path);
  if (!pd) {
    out.error = pd.error().message();
    return out;
  }
  out.opened = true;
  for (const Error& w : (*pd)->warnings()) out.warnings.push_back(w.message());
  Status st = (*pd)->process(out.sink, {.ordered = false, .decode_samples = true});
  out.ok = st.has_value();
  if (!st) out.error = st.error().message();
  return out;
}

std::vector<std::byte> Slurp(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::vector<char> c((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  return std::vector<std::byte>(reinterpret_cast<std::byte*>(c.data()),
                                reinterpret_cast<std::byte*>(c.data()) + c.size());
}

bool IsPrefix(const std::vector<std::string>& part, const std::vector<std::string>& whole) {
  return part.size() <= whole.size() && std::equal(part.begin(), part.end(), whole.begin());
}

class DamagedCorpus : public ::testing::TestWithParam<const char*> {};

TEST_P(DamagedCorpus, EveryCutGivesThePrefixBeforeIt) {
  const std::string src = GetParam();
  std::vector<std::byte> full = Slurp(src);
  ASSERT_GT(full.size(), 104u) << src;
  TempDir dir;
  Reading whole = Read(dir.Write("whole", full));
  ASSERT_TRUE(whole.ok) << whole.error;
  ASSERT_TRUE(whole.warnings.empty());
  ASSERT_FALSE(whole.sink.lines.empty());

  // The cut points: the first 1 KiB byte by byte (header, attrs, ids), each record's start,
  // end and middle, and the tail after the data (the feature sections) every 7 bytes.
  std::set<size_t> cuts;
  for (size_t n = 0; n < std::min<size_t>(1024, full.size()); ++n) cuts.insert(n);
  // A pipe's record offsets count from the end of its 16-byte header, as perf's do.
  const bool pipe = src.ends_with(".pipe");
  const uint64_t base = pipe ? 16 : 0;
  for (uint64_t s0 : whole.sink.starts) {
    uint64_t s = s0 + base;
    cuts.insert(s);
    cuts.insert(s + 5);
  }
  uint64_t data_end = 0;
  for (uint64_t e0 : whole.sink.ends) {
    uint64_t e = e0 + base;
    cuts.insert(e);
    cuts.insert(e - 1);
    data_end = std::max(data_end, e);
  }
  for (size_t n = data_end; n < full.size(); n += 7) cuts.insert(n);

  size_t errors = 0, complete = 0;
  for (size_t n : cuts) {
    if (n >= full.size()) continue;
    std::vector<std::byte> cut(full.begin(), full.begin() + n);
    Reading r = Read(dir.Write("cut", cut));
    if (!r.opened || !r.ok) {
      ++errors;
      EXPECT_FALSE(r.error.empty()) << n;
    }
    ASSERT_TRUE(IsPrefix(r.sink.lines, whole.sink.lines))
        << src << " cut at " << n << ": " << r.error;
    if (n >= data_end) {
      // Only feature sections lost: every record is still there.
      EXPECT_EQ(r.sink.lines.size(), whole.sink.lines.size()) << n;
      ++complete;
    }
  }
  EXPECT_GT(errors, 0u);               // a header cut short is refused
  if (!pipe) EXPECT_GT(complete, 0u);  // a file has feature sections after its data
}

// File-mode recordings the repository ships (perf 6.1 here, and peers' older perf).
INSTANTIATE_TEST_SUITE_P(Golden, DamagedCorpus,
                         ::testing::Values("golden/default/perf.data", "golden/zstd/perf.data",
                                           "golden/tracepoint/perf.data", "golden/stat/perf.data",
                                           "golden/spin-fp/perf.data",
                                           "golden/lost_samples-4.4/perf.data",
                                           "golden/pipe/perf.data.pipe"),
                         [](const ::testing::TestParamInfo<const char*>& i) {
                           std::string n = i.param;
                           n = n.substr(7, n.find('/', 7) - 7);
                           std::replace_if(
                               n.begin(), n.end(), [](char c) { return !std::isalnum(c); }, '_');
                           return n;
                         });

}  // namespace
}  // namespace readperf::testing
