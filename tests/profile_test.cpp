// The profile model: built by hand from frames (stack sharing, interning, the optional
// columns), and read from golden recordings, where its samples must be what perf's own
// `perf script` printed for them (tests/golden/<case>/expected/script.txt.gz).
#include "readperf/analysis/profile.h"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <zlib.h>

#include <cstring>
#include <fstream>
#include <numeric>
#include <sstream>
#include <string>
#include <vector>

#include "readperf/analysis/profile_reader.h"
#include "readperf/format/perf_abi.h"
#include "test_util.h"

namespace readperf {
namespace {

const std::string kGolden = READPERF_GOLDEN_DIR;

Frame unmapped(uint64_t ip) {
  Frame f;
  f.ip = ip;
  f.addr = ip;
  return f;
}

std::vector<uint32_t> stack_ips(const Profile& p, uint32_t stack) {
  std::vector<uint32_t> ids;
  p.stack_frames(stack, ids);
  std::vector<uint32_t> ips;
  for (uint32_t id : ids) ips.push_back(static_cast<uint32_t>(p.frames[id].ip));
  return ips;
}

TEST(ProfileBuilderTest, EqualCallersShareTheirStackNodes) {
  ProfileBuilder b;
  Sample s;
  s.time = 5;
  s.pid = 1;
  s.tid = 2;
  s.cpu = 3;
  std::vector<Frame> a = {unmapped(0x30), unmapped(0x20), unmapped(0x10)};  // leaf first
  std::vector<Frame> c = {unmapped(0x40), unmapped(0x20), unmapped(0x10)};
  b.add(s, 0, 100, "prog", a, a.size(), nullptr, true);
  b.add(s, 0, 200, "prog", c, c.size(), nullptr, true);
  b.add(s, 1, 300, "other", a, a.size(), nullptr, true);
  b.add(s, 0, 400, "prog", {}, 0, nullptr, false);
  Profile p = std::move(b).finish();

  ASSERT_EQ(p.samples.size(), 4u);
  // 0x10 <- 0x20 <- {0x30, 0x40}: four nodes for three stacks, two of them equal.
  EXPECT_EQ(p.stack_count(), 4u);
  EXPECT_EQ(p.frames.size(), 4u);
  EXPECT_EQ(p.samples.stack[0], p.samples.stack[2]);
  EXPECT_NE(p.samples.stack[0], p.samples.stack[1]);
  EXPECT_EQ(p.stack_parent(p.samples.stack[0]), p.stack_parent(p.samples.stack[1]));
  EXPECT_EQ(stack_ips(p, p.samples.stack[1]), (std::vector<uint32_t>{0x40, 0x20, 0x10}));
  EXPECT_EQ(p.samples.stack[3], 0u);  // no frames: the empty stack
  EXPECT_EQ(p.samples.period, (std::vector<uint64_t>{100, 200, 300, 400}));
  EXPECT_EQ(p.samples.event, (std::vector<uint16_t>{0, 0, 1, 0}));
  EXPECT_EQ(p.str(p.samples.comm[0]), "prog");
  EXPECT_EQ(p.samples.comm[0], p.samples.comm[1]);
  EXPECT_EQ(p.str(p.samples.comm[2]), "other");
  EXPECT_EQ(p.samples.time[1], 5u);
  EXPECT_EQ(p.samples.cpu[1], 3u);
  // Frames without a map or symbol are perf's "[unknown]".
  EXPECT_EQ(p.str(p.frames[0].symbol), "[unknown]");
  EXPECT_EQ(p.str(p.frames[0].dso), "[unknown]");
  EXPECT_EQ(p.frames[0].mapping, 0u);
  EXPECT_EQ(p.str(0), "");
  // No event recorded addr or weight: those columns stay empty.
  EXPECT_TRUE(p.samples.weight.empty());
  EXPECT_TRUE(p.samples.addr.empty());
}

TEST(ProfileBuilderTest, OptionalColumnsStartWithZerosForEarlierSamples) {
  ProfileBuilder b;
  Sample plain;
  Sample weighted;
  weighted.sample_type = kSampleWeight;
  weighted.weight = 77;
  b.add(plain, 0, 1, "a", {}, 0, nullptr, false);
  b.add(weighted, 1, 1, "a", {}, 0, nullptr, false);
  b.add(plain, 0, 1, "a", {}, 0, nullptr, false);
  Profile p = std::move(b).finish();
  EXPECT_EQ(p.samples.weight, (std::vector<uint64_t>{0, 77, 0}));
  EXPECT_TRUE(p.samples.addr.empty());
}

TEST(ProfileBuilderTest, UnwoundFramesAreMarked) {
  ProfileBuilder b;
  std::vector<Frame> f = {unmapped(1), unmapped(2), unmapped(3)};
  b.add(Sample{}, 0, 1, "a", f, 1, nullptr, true);
  Profile p = std::move(b).finish();
  std::vector<uint32_t> ids;
  p.stack_frames(p.samples.stack[0], ids);
  ASSERT_EQ(ids.size(), 3u);
  EXPECT_FALSE(p.frames[ids[0]].unwound());
  EXPECT_TRUE(p.frames[ids[1]].unwound());
  EXPECT_TRUE(p.frames[ids[2]].unwound());
}

std::string gunzip(const std::string& path) {
  gzFile f = gzopen(path.c_str(), "rb");
  std::string out;
  if (!f) return out;
  char buf[1 << 14];
  int n;
  while ((n = gzread(f, buf, sizeof buf)) > 0) out.append(buf, static_cast<size_t>(n));
  gzclose(f);
  return out;
}

ProfileRead read_case(const std::string& name, ProfileOptions model = {}) {
  auto data = PerfData::open(kGolden + "/" + name + "/perf.data");
  EXPECT_TRUE(data) << data.error().message();
  ProfileReadConfig cfg;
  cfg.symbols.buildid_dir = kGolden + "/buildid";
  cfg.symbols.proc_kallsyms = "/nonexistent";
  cfg.symbols.sys_kernel_notes = "/nonexistent";
  cfg.model = model;
  return read_profile(**data, cfg);
}

// The model's samples written as perf script's default output prints them: the comm, tid,
// period and event of the header line, then the call chain.
std::string as_script(const Profile& p) {
  std::string out;
  std::vector<uint32_t> ids;
  for (size_t i = 0; i < p.samples.size(); ++i) {
    out += fmt::format("{} {} {} {}:\n", p.str(p.samples.comm[i]), p.samples.tid[i],
                       p.samples.period[i], p.events[p.samples.event[i]].name);
    p.stack_frames(p.samples.stack[i], ids);
    for (uint32_t id : ids) {
      const ProfileFrame& f = p.frames[id];
      out += fmt::format("\t{:16x} {}", f.chain_ip(), p.str(f.symbol));
      if (f.has_symbol()) out += fmt::format("+0x{:x}", f.symbol_offset);
      out += fmt::format(" ({})\n", p.str(f.dso));
    }
    out += "\n";
  }
  return out;
}

// perf's script output reduced to the same fields: "comm tid time: period event:" loses its
// time and cpu.
std::string golden_script(const std::string& name) {
  std::istringstream in(gunzip(kGolden + "/" + name + "/expected/script.txt.gz"));
  std::string out, line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '\t') {
      out += line + "\n";
      continue;
    }
    std::istringstream words(line);
    std::vector<std::string> w;
    for (std::string x; words >> x;) w.push_back(x);
    EXPECT_GE(w.size(), 5u) << line;
    if (w.size() < 5) continue;
    // comm tid time: period event:
    out += fmt::format("{} {} {} {}\n", w[0], w[1], w[3], w[4]);
  }
  return out;
}

TEST(ProfileReadTest, SamplesAndStacksAreWhatPerfScriptPrinted) {
  for (const char* name : {"spin-fp", "sideband"}) {
    SCOPED_TRACE(name);
    ProfileRead r = read_case(name);
    ASSERT_TRUE(r.status) << r.status.error().message();
    EXPECT_EQ(as_script(r.profile), golden_script(name));
  }
}

TEST(ProfileReadTest, StacksAreSharedAndTotalsKept) {
  ProfileRead r = read_case("spin-fp");
  ASSERT_TRUE(r.status);
  const Profile& p = r.profile;
  // perf report: "Samples: 280 of event 'cpu-clock:pppH'", "Event count (approx.): 140000000".
  ASSERT_EQ(p.samples.size(), 280u);
  EXPECT_EQ(std::accumulate(p.samples.period.begin(), p.samples.period.end(), uint64_t{0}),
            140000000u);
  ASSERT_EQ(p.events.size(), 1u);
  EXPECT_EQ(p.events[0].name, "cpu-clock:pppH");
  // 280 samples of ten frames each share a handful of stack nodes.
  size_t frames_in_samples = 0;
  std::vector<uint32_t> ids;
  for (uint32_t s : p.samples.stack) {
    p.stack_frames(s, ids);
    frames_in_samples += ids.size();
  }
  EXPECT_GT(frames_in_samples, 2000u);
  EXPECT_LT(p.stack_count(), 100u);
  EXPECT_LE(p.samples.bytes_per_sample(), 48u);
  // The spin binary's mapping carries its build-id from the cache.
  bool found = false;
  for (const ProfileMapping& m : p.mappings) {
    if (p.str(m.filename).ends_with("/spin")) found = !p.str(m.build_id).empty();
  }
  EXPECT_TRUE(found);
}

TEST(ProfileReadTest, SourceLinesOfADwarfBuild) {
  ProfileRead r = read_case("dwarf-cxx", ProfileOptions{.lines = true, .srclines = true});
  ASSERT_TRUE(r.status);
  const Profile& p = r.profile;
  size_t with_line = 0, inlined = 0, with_srcline = 0;
  for (const ProfileFrame& f : p.frames) {
    with_line += f.file && f.line;
    inlined += f.inlined();
    with_srcline += f.srcline != 0;
  }
  EXPECT_GT(with_line, 0u);
  EXPECT_GT(inlined, 0u);
  EXPECT_GT(with_srcline, 0u);
}

TEST(ProfileReadTest, ADamagedFileKeepsTheSamplesBeforeTheDamage) {
  std::ifstream in(kGolden + "/dwarf-cxx/perf.data", std::ios::binary);
  std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ASSERT_GT(bytes.size(), 100000u);
  // The record after the second FINISHED_ROUND given a size of 4: the samples the first two
  // rounds let out of perf's ordered queue come before the error.
  uint64_t data_offset, data_size;
  std::memcpy(&data_offset, bytes.data() + 40, 8);
  std::memcpy(&data_size, bytes.data() + 48, 8);
  uint64_t at = data_offset;
  int rounds = 0;
  while (at < data_offset + data_size && rounds < 2) {
    uint32_t type;
    uint16_t size;
    std::memcpy(&type, bytes.data() + at, 4);
    std::memcpy(&size, bytes.data() + at + 6, 2);
    ASSERT_GT(size, 0);
    rounds += type == kRecordFinishedRound;
    at += size;
  }
  ASSERT_EQ(rounds, 2);
  std::vector<std::byte> damaged(bytes.size());
  std::memcpy(damaged.data(), bytes.data(), bytes.size());
  uint16_t four = 4;
  std::memcpy(damaged.data() + at + 6, &four, 2);
  testing::TempDir dir;
  auto data = PerfData::open(dir.Write("damaged.data", damaged));
  ASSERT_TRUE(data);
  ProfileReadConfig cfg;
  cfg.symbols.buildid_dir = kGolden + "/buildid";
  cfg.symbols.proc_kallsyms = "/nonexistent";
  cfg.symbols.sys_kernel_notes = "/nonexistent";
  ProfileRead r = read_profile(**data, cfg);
  ASSERT_FALSE(r.status);
  EXPECT_EQ(r.status.error().offset(), at);
  ProfileRead whole = read_case("dwarf-cxx");
  EXPECT_GT(r.profile.samples.size(), 0u);
  EXPECT_LT(r.profile.samples.size(), whole.profile.samples.size());
}

}  // namespace
}  // namespace readperf
