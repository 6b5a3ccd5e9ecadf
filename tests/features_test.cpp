// Header features: each parser on small sections built here, in both byte orders and cut
// short; then `report --header-only` end to end on built files and pipes.
#include "readperf/reader/features.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <sstream>

#include "byte_writer.h"
#include "perf_data_builder.h"
#include "readperf/format/perf_abi.h"
#include "readperf/output/header_printer.h"
#include "readperf/reader/event_name.h"
#include "readperf/reader/perf_data.h"
#include "test_util.h"

namespace readperf {
namespace {

using testing::ByteWriter;
using testing::PerfDataBuilder;

constexpr ByteOrder kOrders[] = {ByteOrder::kNative, ByteOrder::kSwapped};

// perf's do_write_string(): u32 length including the NUL and padding to 64, then the text.
void perf_string(ByteWriter& w, std::string_view s) {
  uint32_t len = static_cast<uint32_t>((s.size() + 1 + 63) / 64 * 64);
  w.u32(len).bytes(s.data(), s.size()).zeros(len - s.size());
}

Status parse(uint32_t feat, const ByteWriter& w, Features& f, FeatureContext ctx = {}) {
  ctx.swapped = w.swapped();
  return parse_feature(feat, ByteCursor(Bytes(w.buffer()), w.order()), ctx, f);
}

// The bytes of `w` without their last `n`.
ByteWriter cut(const ByteWriter& w, size_t n) {
  ByteWriter out(w.order());
  out.bytes(w.buffer().data(), w.size() - n);
  return out;
}

class FeaturesTest : public ::testing::TestWithParam<ByteOrder> {};
INSTANTIATE_TEST_SUITE_P(ByteOrders, FeaturesTest, ::testing::ValuesIn(kOrders));

TEST_P(FeaturesTest, String) {
  ByteWriter w(GetParam());
  perf_string(w, "myhost");
  Features f;
  ASSERT_TRUE(parse(kFeatHostname, w, f));
  EXPECT_EQ(f.hostname, "myhost");
  EXPECT_EQ(f.raw[kFeatHostname].size(), 68u);
}

TEST_P(FeaturesTest, TruncatedStringIsAnErrorAndLeavesNoValue) {
  ByteWriter w(GetParam());
  perf_string(w, "myhost");
  Features f;
  f.hostname = "old";
  Status st = parse(kFeatHostname, cut(w, 1), f);
  ASSERT_FALSE(st);
  EXPECT_EQ(st.error().what(), "truncated HOSTNAME feature");
  EXPECT_FALSE(f.hostname);
  EXPECT_TRUE(perf_stops_on_error(kFeatHostname));
}

TEST_P(FeaturesTest, NrCpusAndTotalMem) {
  ByteWriter w(GetParam());
  w.u32(8).u32(6);
  Features f;
  ASSERT_TRUE(parse(kFeatNrCpus, w, f));
  EXPECT_EQ(f.nr_cpus_avail, 8u);
  EXPECT_EQ(f.nr_cpus_online, 6u);
  ByteWriter m(GetParam());
  m.u64(16299868);
  ASSERT_TRUE(parse(kFeatTotalMem, m, f));
  EXPECT_EQ(f.total_mem, 16299868u);
  // perf keeps neither count unless both are there.
  Features g;
  EXPECT_FALSE(parse(kFeatNrCpus, cut(w, 1), g));
  EXPECT_EQ(g.nr_cpus_avail, 0u);
}

TEST_P(FeaturesTest, Cmdline) {
  ByteWriter w(GetParam());
  w.u32(3);
  for (auto s : {"perf", "record", "it's"}) perf_string(w, s);
  Features f;
  ASSERT_TRUE(parse(kFeatCmdline, w, f));
  EXPECT_EQ(*f.cmdline, (std::vector<std::string>{"perf", "record", "it's"}));
  EXPECT_FALSE(parse(kFeatCmdline, cut(w, 10), f));
}

// The CPU_TOPOLOGY of perf 5.2+: siblings, (core, socket) per cpu, dies, die per cpu.
ByteWriter topology(ByteOrder order, bool with_ids, bool with_dies) {
  ByteWriter w(order);
  w.u32(1);
  perf_string(w, "0-1");
  w.u32(2);
  perf_string(w, "0");
  perf_string(w, "1");
  if (with_ids) w.u32(0).u32(0).u32(1).u32(0);
  if (with_dies) {
    w.u32(1);
    perf_string(w, "0-1");
    w.u32(0).u32(0);
  }
  return w;
}

TEST_P(FeaturesTest, CpuTopologyOfEachPerfVersion) {
  Features f;
  f.nr_cpus_avail = 2;
  ASSERT_TRUE(parse(kFeatCpuTopology, topology(GetParam(), true, true), f));
  ASSERT_TRUE(f.cpu_topology && f.cpu_topology->cpus);
  EXPECT_EQ(f.cpu_topology->sibling_cores, std::vector<std::string>{"0-1"});
  EXPECT_EQ(f.cpu_topology->sibling_threads, (std::vector<std::string>{"0", "1"}));
  EXPECT_EQ(f.cpu_topology->sibling_dies, std::vector<std::string>{"0-1"});
  EXPECT_EQ((*f.cpu_topology->cpus)[1].core_id, 1);

  ASSERT_TRUE(parse(kFeatCpuTopology, topology(GetParam(), true, false), f));
  EXPECT_TRUE(f.cpu_topology->cpus);
  EXPECT_TRUE(f.cpu_topology->sibling_dies.empty());

  ASSERT_TRUE(parse(kFeatCpuTopology, topology(GetParam(), false, false), f));
  EXPECT_FALSE(f.cpu_topology->cpus);  // perf before 4.1
}

TEST_P(FeaturesTest, CpuTopologyCutInTheDieIdsKeepsWhatPerfKeeps) {
  Features f;
  f.nr_cpus_avail = 2;
  Status st = parse(kFeatCpuTopology, cut(topology(GetParam(), true, true), 4), f);
  ASSERT_FALSE(st);
  ASSERT_TRUE(f.cpu_topology);
  EXPECT_EQ(f.cpu_topology->sibling_dies.size(), 1u);
  EXPECT_FALSE(f.cpu_topology->cpus);
}

TEST_P(FeaturesTest, CpuTopologySocketIdAboveTheCpuCount) {
  ByteWriter w(GetParam());
  w.u32(0).u32(0).u32(7).u32(9);  // no siblings; cpu 0: core 7, socket 9
  Features f;
  f.nr_cpus_avail = 1;
  EXPECT_FALSE(parse(kFeatCpuTopology, w, f));
  f.arch = "aarch64";  // where perf does not check
  EXPECT_TRUE(parse(kFeatCpuTopology, w, f));
}

TEST_P(FeaturesTest, NumaTopology) {
  ByteWriter w(GetParam());
  w.u32(2);
  w.u32(0).u64(1000).u64(500);
  perf_string(w, "0-1,3");
  w.u32(1).u64(2000).u64(700);
  perf_string(w, "");
  Features f;
  ASSERT_TRUE(parse(kFeatNumaTopology, w, f));
  ASSERT_EQ(f.numa_nodes->size(), 2u);
  EXPECT_EQ((*f.numa_nodes)[0].cpus, (std::vector<int>{0, 1, 3}));
  EXPECT_EQ((*f.numa_nodes)[1].cpus, std::vector<int>{-1});
  EXPECT_EQ((*f.numa_nodes)[1].mem_free, 700u);
}

TEST(CpuList, ParsesAsLibperf) {
  EXPECT_EQ(*parse_cpu_list("3,0-1"), (std::vector<int>{0, 1, 3}));
  EXPECT_EQ(*parse_cpu_list(""), std::vector<int>{-1});
  EXPECT_FALSE(parse_cpu_list("0-1,1"));  // a cpu twice
  EXPECT_FALSE(parse_cpu_list("3-1"));
  EXPECT_FALSE(parse_cpu_list("x"));
  EXPECT_FALSE(parse_cpu_list("1;2"));
  EXPECT_FALSE(parse_cpu_list("0-2147483646"));  // no set of two billion cpus: newer perf's limit
}

TEST_P(FeaturesTest, PmuMappingsGroupDescAndCaps) {
  ByteWriter w(GetParam());
  w.u32(2).u32(4);
  perf_string(w, "cpu");
  w.u32(1);
  perf_string(w, "software");
  Features f;
  ASSERT_TRUE(parse(kFeatPmuMappings, w, f));
  EXPECT_EQ((*f.pmu_mappings)[1].name, "software");
  EXPECT_EQ((*f.pmu_mappings)[0].type, 4u);

  ByteWriter g(GetParam());
  g.u32(1);
  perf_string(g, "{anon_group}");
  g.u32(1).u32(2);
  ASSERT_TRUE(parse(kFeatGroupDesc, g, f, {.nr_events = 3}));
  EXPECT_EQ((*f.group_desc)[0].leader_idx, 1u);
  // The group must fit the events: two members from the last of three events do not.
  ByteWriter bad(GetParam());
  bad.u32(1);
  perf_string(bad, "g");
  bad.u32(2).u32(2);
  EXPECT_FALSE(parse(kFeatGroupDesc, bad, f, {.nr_events = 3}));

  ByteWriter c(GetParam());
  c.u32(1).u32(2);
  perf_string(c, "branches");
  perf_string(c, "32");
  perf_string(c, "max_precise");
  perf_string(c, "3");
  perf_string(c, "cpu_core");
  ASSERT_TRUE(parse(kFeatPmuCaps, c, f));
  EXPECT_EQ((*f.pmu_caps)[0].pmu_name, "cpu_core");
  EXPECT_EQ((*f.pmu_caps)[0].caps[1].second, "3");
}

TEST_P(FeaturesTest, CacheAndMemTopology) {
  ByteWriter w(GetParam());
  w.u32(1).u32(1).u32(1).u32(64).u32(64).u32(8);
  perf_string(w, "Data");
  perf_string(w, "32K");
  perf_string(w, "0");
  Features f;
  ASSERT_TRUE(parse(kFeatCache, w, f));
  EXPECT_EQ((*f.caches)[0].size, "32K");
  ByteWriter v2(GetParam());
  v2.u32(2).u32(0);
  EXPECT_FALSE(parse(kFeatCache, v2, f));

  ByteWriter m(GetParam());
  m.u64(1).u64(0x8000000).u64(1);
  m.u64(0).u64(3 << 27).u64(70).u64(0xffffff).u64(0x3f);  // node 0: 70 bits in 2 words
  ASSERT_TRUE(parse(kFeatMemTopology, m, f));
  EXPECT_EQ(f.mem_topology->nodes[0].nbits, 70u);
  EXPECT_EQ(f.mem_topology->nodes[0].bitmap[1], 0x3fu);
  EXPECT_FALSE(parse(kFeatMemTopology, cut(m, 8), f));
}

TEST_P(FeaturesTest, SmallRecords) {
  Features f;
  ByteWriter t(GetParam());
  t.u64(5).u64(9);
  ASSERT_TRUE(parse(kFeatSampleTime, t, f));
  EXPECT_EQ(f.sample_time, (std::pair<uint64_t, uint64_t>{5, 9}));

  ByteWriter c(GetParam());
  c.u32(1).u32(1).u64(1700000000123456789).u64(42);
  ASSERT_TRUE(parse(kFeatClockData, c, f));
  EXPECT_EQ(f.clock_data->tod_ns, 1700000000123456789u);
  ByteWriter c2(GetParam());
  c2.u32(2).u32(1).u64(1).u64(2);
  EXPECT_FALSE(parse(kFeatClockData, c2, f));

  // COMPRESSED keeps the fields it could read, as perf does.
  ByteWriter z(GetParam());
  z.u32(0).u32(1).u32(3);
  EXPECT_FALSE(parse(kFeatCompressed, z, f));
  EXPECT_EQ(f.compressed->type, 1u);
  EXPECT_EQ(f.compressed->level, 3u);
  EXPECT_EQ(f.compressed->ratio, 0u);

  ByteWriter d(GetParam());
  d.u64(1);
  EXPECT_FALSE(parse(kFeatDirFormat, d, f));  // only in a directory
  ASSERT_TRUE(parse(kFeatDirFormat, d, f, {.is_directory = true}));
  EXPECT_EQ(f.dir_format, 1u);

  ByteWriter a(GetParam());
  a.u64(1).u64(0x1000).u64(0x20);
  ASSERT_TRUE(parse(kFeatAuxtrace, a, f));
  EXPECT_EQ((*f.auxtrace_index)[0].size, 0x20u);
  ByteWriter a2(GetParam());
  a2.u64(~0ull >> 4).u64(1).u64(2);
  EXPECT_FALSE(parse(kFeatAuxtrace, a2, f));
}

TEST_P(FeaturesTest, EventDescAnyAttrSize) {
  for (uint32_t size : {64u, 96u, 128u, 136u, 144u}) {
    ByteWriter w(GetParam());
    EventAttr a = testing::SampleAttr(kSampleIp | kSampleTid);
    a.type = kTypeHardware;
    a.config = 1;
    a.flags |= 1ull << 15;  // precise_ip 1
    w.u32(2).u32(size);
    testing::WriteAttr(w, a, size);
    w.u32(2);
    perf_string(w, "instructions:p");
    w.u64(7).u64(8);
    a.config = 0;
    testing::WriteAttr(w, a, size);
    w.u32(0);
    perf_string(w, "cycles");
    Features f;
    ASSERT_TRUE(parse(kFeatEventDesc, w, f)) << size;
    ASSERT_EQ(f.event_desc->size(), 2u);
    const EventDesc& e = (*f.event_desc)[0];
    EXPECT_EQ(e.name, "instructions:p");
    EXPECT_EQ(e.ids, (std::vector<uint64_t>{7, 8}));
    EXPECT_EQ(e.attr.size, size);
    EXPECT_EQ(e.attr.precise_ip(), 1u);
    EXPECT_EQ((*f.event_desc)[1].attr.config, 0u);
    EXPECT_FALSE(parse(kFeatEventDesc, cut(w, 3), f));
    EXPECT_FALSE(f.event_desc);
    EXPECT_FALSE(perf_stops_on_error(kFeatEventDesc));
  }
}

TEST_P(FeaturesTest, EventDescRefusesWhatPerfRefuses) {
  ByteWriter w(GetParam());
  EventAttr a = testing::SampleAttr(kSampleIp);
  a.sample_type |= 1ull << 30;  // past PERF_SAMPLE_MAX of perf 6.1
  w.u32(1).u32(128);
  testing::WriteAttr(w, a, 128);
  w.u32(0);
  perf_string(w, "x");
  Features f;
  Status st = parse(kFeatEventDesc, w, f);
  ASSERT_FALSE(st);
  EXPECT_NE(st.error().what().find("unknown sample type"), std::string::npos);
}

ByteWriter& build_id_record(ByteWriter& w, uint16_t misc, int32_t pid, uint8_t first,
                            std::string_view name, bool old_abi = false) {
  size_t name_len = (name.size() + 1 + 7) / 8 * 8;
  w.u32(kRecordHeaderBuildId).u16(misc).u16(static_cast<uint16_t>((old_abi ? 32 : 36) + name_len));
  if (!old_abi) w.unswapped(pid);  // perf_header__read_build_ids() swaps only the header
  w.u8(first).zeros(19).u8(20).zeros(3);
  return w.str(name, 8);
}

TEST_P(FeaturesTest, BuildIds) {
  ByteWriter w(GetParam());
  build_id_record(w, kMiscKernel, -1, 0xab, "[kernel.kallsyms]");
  build_id_record(w, kMiscUser | (1 << 15), 42, 0xcd, "/usr/bin/true");
  Features f;
  ASSERT_TRUE(parse(kFeatBuildId, w, f));
  ASSERT_EQ(f.build_ids.size(), 2u);
  EXPECT_EQ(f.build_ids[0].filename, "[kernel.kallsyms]");
  EXPECT_EQ(f.build_ids[0].pid, -1);
  EXPECT_EQ(f.build_ids[0].build_id.size(), 20u);
  EXPECT_EQ(f.build_ids[1].pid, 42);
  EXPECT_EQ(f.build_ids[1].build_id[0], 0xcd);
  EXPECT_FALSE(parse(kFeatBuildId, cut(w, 8), f));
}

TEST_P(FeaturesTest, BuildIdsWithoutPidOfOldPerf) {
  ByteWriter w(GetParam());
  build_id_record(w, kMiscKernel, 0, 0xab, "[kernel.kallsyms]", /*old_abi=*/true);
  build_id_record(w, kMiscGuestKernel, 0, 0xcd, "[guest.kernel.kallsyms]", true);
  Features f;
  ASSERT_TRUE(parse(kFeatBuildId, w, f));
  ASSERT_EQ(f.build_ids.size(), 2u);
  EXPECT_EQ(f.build_ids[0].filename, "[kernel.kallsyms]");
  EXPECT_EQ(f.build_ids[0].pid, -1);
  EXPECT_EQ(f.build_ids[1].pid, 0);
  EXPECT_EQ(f.build_ids[1].build_id[0], 0xcd);
}

TEST_P(FeaturesTest, BpfSectionsOfTheOtherByteOrderAreSkipped) {
  ByteWriter w(GetParam());
  w.u32(1).u32(7).u32(4).u32(0x11223344);  // one BTF, id 7, 4 bytes
  Features f;
  ASSERT_TRUE(parse(kFeatBpfBtf, w, f));
  EXPECT_EQ(f.bpf_btfs.size(), GetParam() == ByteOrder::kSwapped ? 0u : 1u);
}

TEST_P(FeaturesTest, NewerFeaturesKeepTheirBytes) {
  ByteWriter w(GetParam());
  w.u64(62);
  Features f;
  ASSERT_TRUE(parse(33, w, f));
  EXPECT_EQ(f.raw[33].size(), 8u);
  EXPECT_EQ(feature_name(33), "");
  EXPECT_FALSE(perf_stops_on_error(33));
}

TEST(EventName, DerivedAsPerf61) {
  constexpr uint64_t kExcludeGuest = 1ull << 20;
  Evsel ev;
  ev.attr.type = kTypeHardware;
  ev.attr.flags = kExcludeGuest;
  EXPECT_EQ(event_name(ev), "cycles");
  ev.attr.flags = 0;  // host and guest both counted where guests are excluded by default
  EXPECT_EQ(event_name(ev), "cycles:HG");
  ev.attr.flags = 2ull << 15;  // precise_ip 2: now guests are excluded by default
  EXPECT_EQ(event_name(ev), "cycles:pp");
  ev.attr.flags |= kExcludeGuest;
  EXPECT_EQ(event_name(ev), "cycles:ppH");
  ev.attr.flags = (1ull << 5) | (1ull << 6) | kExcludeGuest;  // exclude_kernel, exclude_hv
  EXPECT_EQ(event_name(ev), "cycles:uH");
  ev.attr.flags = (1ull << 5) | (1ull << 6);
  EXPECT_EQ(event_name(ev), "cycles:u");
  ev.attr.flags = kExcludeGuest;
  ev.attr.config = 0x400000001;  // hybrid: PMU type in the high half
  EXPECT_EQ(event_name(ev), "cpu/instructions/");
  ev.attr.type = kTypeSoftware;
  ev.attr.config = 9;
  EXPECT_EQ(event_name(ev), "dummy");
  ev.attr.flags = 0;
  EXPECT_EQ(event_name(ev), "dummy:HG");
  ev.attr.flags = kExcludeGuest;
  ev.attr.config = 10;
  EXPECT_EQ(event_name(ev), "unknown-software");
  ev.attr.type = kTypeHwCache;
  ev.attr.config = 0x10000;  // L1-dcache, read, miss
  EXPECT_EQ(event_name(ev), "L1-dcache-load-misses");
  ev.attr.config = 0x0104;  // iTLB write: not a valid combination
  EXPECT_EQ(event_name(ev), "invalid-cache");
  ev.attr.type = kTypeBreakpoint;
  ev.attr.config1 = 0x1000;
  ev.attr.bp_type = 3;
  EXPECT_EQ(event_name(ev), "mem:0x1000:rw");
  ev.attr.type = kTypeRaw;
  ev.attr.config = 0x1c2;
  EXPECT_EQ(event_name(ev), "raw 0x1c2");
  ev.attr.type = 8;
  EXPECT_EQ(event_name(ev), "unknown attr type: 8");
  ev.name = "recorded";
  EXPECT_EQ(event_name(ev), "recorded");
}

// `report --header-only` on a built recording, the "captured on" line dropped.
std::string header_of(const std::string& path, bool full) {
  auto data = PerfData::open(path);
  EXPECT_TRUE(data) << (data ? "" : data.error().message());
  if (!data) return "";
  std::FILE* f = std::tmpfile();
  {
    OutBuffer out(f);
    EXPECT_TRUE(run_header(**data, full, out));
  }
  std::rewind(f);
  std::string s, line;
  char buf[4096];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) s.append(buf, n);
  std::fclose(f);
  std::istringstream lines(s);
  std::string out;
  while (std::getline(lines, line)) {
    if (line.rfind("# captured on", 0) != 0) out += line + "\n";
  }
  return out;
}

PerfDataBuilder small_recording(ByteOrder order, PerfDataBuilder::Mode mode) {
  EventAttr a = testing::SampleAttr(kSampleIp | kSampleTid);
  a.type = kTypeHardware;
  a.flags |= 3ull << 15;
  PerfDataBuilder b;
  b.WithByteOrder(order).WithMode(mode).AddAttr(a, {11}).AddAttr(a, {12});
  b.AddStringFeature(kFeatHostname, "box").AddStringFeature(kFeatArch, "x86_64");
  ByteWriter n(order);
  n.u32(2).u32(2);
  b.AddFeature(kFeatNrCpus, n.take());
  ByteWriter d(order);
  d.u32(2).u32(128);
  for (auto [name, id] : {std::pair<const char*, uint64_t>{"cycles:ppp", 11}, {"ins", 12}}) {
    testing::WriteAttr(d, a, 128);
    d.u32(1);
    perf_string(d, name);
    d.u64(id);
  }
  b.AddFeature(kFeatEventDesc, d.take());
  b.AddFeature(kFeatCpuTopology, topology(order, true, true).take());
  ByteWriter g(order);
  g.u32(1);
  perf_string(g, "grp");
  g.u32(0).u32(2);
  b.AddFeature(kFeatGroupDesc, g.take());
  ByteWriter t(order);
  t.u64(1500000000).u64(2750000000);
  b.AddFeature(kFeatSampleTime, t.take());
  b.AddSample({.ip = 1, .pid = 1, .tid = 1});
  return b;
}

constexpr const char* kFeatureLines =
    "# hostname : box\n"
    "# arch : x86_64\n"
    "# nrcpus online : 2\n"
    "# nrcpus avail : 2\n"
    "# event : name = cycles:ppp, , id = { 11 }, size = 128, { sample_period, sample_freq } = "
    "1, sample_type = IP|TID, precise_ip = 3, sample_id_all = 1\n"
    "# event : name = ins, , id = { 12 }, size = 128, { sample_period, sample_freq } = 1, "
    "sample_type = IP|TID, precise_ip = 3, sample_id_all = 1\n";

TEST_P(FeaturesTest, HeaderOfAFile) {
  testing::TempDir dir;
  std::string path = dir.file("perf.data");
  PerfDataBuilder b = small_recording(GetParam(), PerfDataBuilder::Mode::kFile);
  b.WriteFile(path);
  const auto& l = b.layout();
  std::string head = fmt::format(
      "# ========\n# header version : 1\n# data offset    : {}\n# data size      : {}\n"
      "# feat offset    : {}\n",
      l.data_offset, l.data_size, l.data_offset + l.data_size);
  std::string missing =
      "# missing features: TRACING_DATA BUILD_ID OSRELEASE VERSION CPUDESC CPUID TOTAL_MEM "
      "CMDLINE NUMA_TOPOLOGY BRANCH_STACK PMU_MAPPINGS AUXTRACE STAT CACHE MEM_TOPOLOGY CLOCKID "
      "DIR_FORMAT BPF_PROG_INFO BPF_BTF COMPRESSED CPU_PMU_CAPS CLOCK_DATA HYBRID_TOPOLOGY "
      "PMU_CAPS \n# ========\n#\n";
  std::string topo =
      "# sibling sockets : 0-1\n# sibling dies    : 0-1\n# sibling threads : 0\n"
      "# sibling threads : 1\n# CPU 0: Core ID 0, Die ID 0, Socket ID 0\n"
      "# CPU 1: Core ID 1, Die ID 0, Socket ID 0\n";
  std::string tail =
      "# group: grp{cycles:ppp,ins}\n# time of first sample : 1.500000\n"
      "# time of last sample : 2.750000\n# sample duration :   1250.000 ms\n";
  EXPECT_EQ(header_of(path, true), head + kFeatureLines + topo + tail + missing);
  EXPECT_EQ(
      header_of(path, false),
      head + kFeatureLines + "# CPU_TOPOLOGY info available, use -I to display\n" + tail + missing);
}

TEST_P(FeaturesTest, HeaderOfAPipe) {
  testing::TempDir dir;
  std::string path = dir.file("perf.data.pipe");
  small_recording(GetParam(), PerfDataBuilder::Mode::kPipe).WriteFile(path);
  std::string head =
      "# ========\n# header version : 1\n# data offset    : 0\n# data size      : 0\n"
      "# feat offset    : 0\n# ========\n#\n";
  EXPECT_EQ(header_of(path, false),
            head + kFeatureLines +
                "# CPU_TOPOLOGY info available, use -I to display\n"
                "# group: grp{cycles:ppp,ins}\n# time of first sample : 1.500000\n"
                "# time of last sample : 2.750000\n# sample duration :   1250.000 ms\n");
}

TEST_P(FeaturesTest, PerfStopsAtTheFirstFeatureItCannotRead) {
  // A CPUDESC section of 0 bytes (as in some perf 3.x files): perf processes nothing after
  // it, so EVENT_DESC does not name the events and later features print perf's defaults.
  testing::TempDir dir;
  std::string path = dir.file("perf.data");
  PerfDataBuilder b = small_recording(GetParam(), PerfDataBuilder::Mode::kFile);
  b.AddFeature(kFeatCpuDesc, {});
  b.WriteFile(path);
  auto data = PerfData::open(path);
  ASSERT_TRUE(data);
  const Features& f = (*data)->features();
  ASSERT_TRUE(f.stopped_at);
  EXPECT_EQ(f.stopped_at->first, kFeatCpuDesc);
  EXPECT_FALSE(f.event_desc);
  EXPECT_EQ((*data)->events()[0].name, "");
  EXPECT_EQ(event_name((*data)->events()[0]), "cycles:ppp");
  std::string h = header_of(path, true);
  EXPECT_NE(h.find("# cpudesc : (null)\n"), std::string::npos) << h;
  EXPECT_NE(h.find("# Core ID and Socket ID information is not available\n"), std::string::npos);
  EXPECT_NE(h.find("# time of first sample : 0.000000\n"), std::string::npos);
  // The event lines come from the section itself, read again.
  EXPECT_NE(h.find("# event : name = cycles:ppp,"), std::string::npos);
}

}  // namespace
}  // namespace readperf
