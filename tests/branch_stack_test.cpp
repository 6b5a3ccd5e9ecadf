// Branch stacks in perf's views: `report -D` prints a sample's branch stack whenever its
// sample_type has PERF_SAMPLE_BRANCH_STACK, whatever its branch_sample_type (perf inject
// writes such attrs).
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "perf_data_builder.h"
#include "readperf/analysis/report_session.h"
#include "readperf/analysis/resolver.h"
#include "readperf/analysis/sort_keys.h"
#include "readperf/format/perf_abi.h"
#include "readperf/output/dump_printer.h"
#include "readperf/output/out_buffer.h"
#include "readperf/reader/perf_data.h"
#include "test_util.h"

#ifndef READPERF_GOLDEN_DIR
#error "READPERF_GOLDEN_DIR must name tests/golden"
#endif

namespace readperf::testing {
namespace {

constexpr uint64_t kType =
    kSampleIp | kSampleTid | kSampleTime | kSamplePeriod | kSampleBranchStack;

std::string Dump(const std::string& path) {
  auto data = PerfData::open(path);
  EXPECT_TRUE(data) << data.error().message();
  if (!data) return "";
  char* text = nullptr;
  size_t size = 0;
  FILE* mem = open_memstream(&text, &size);
  {
    OutBuffer out(mem);
    EXPECT_TRUE(run_dump(**data, out));
  }
  std::fclose(mem);
  std::string dump(text, size);
  std::free(text);
  return dump;
}

// The builder's file with an attr whose branch_sample_type is 0; the expected lines are what
// perf 6.1's `report -D` printed for the same bytes (session.c branch_stack__printf(), called
// when evsel__has_br_stack(): the sample_type bit alone).
TEST(BranchStack, DumpPrintsTheStackWithoutBranchSampleType) {
  for (ByteOrder order : {ByteOrder::kNative, ByteOrder::kSwapped}) {
    EventAttr attr = SampleAttr(kType);
    attr.branch_sample_type = 0;
    PerfDataBuilder b;
    b.WithByteOrder(order).AddAttr(attr, {7});
    b.AddComm(5, 5, "loop", {.pid = 5, .tid = 5, .time = 1});
    uint64_t flags0 = 1 | (uint64_t{12} << 4);                 // mispredicted, 12 cycles
    uint64_t flags1 = 2 | 4 | (uint64_t{3} << 4) | (1 << 20);  // predicted, in_tx, COND
    b.AddSample({.ip = 0x401000,
                 .pid = 5,
                 .tid = 5,
                 .time = 2,
                 .period = 1,
                 .branches = {{0x401010, 0x401000, flags0}, {0x402000, 0x401004, flags1}}});
    TempDir dir;
    const std::string dump = Dump(dir.Write("perf.data", b.Build()));
    EXPECT_NE(dump.find("... branch stack: nr:2\n"
                        ".....  0: 0000000000401010 -> 0000000000401000 12 cycles M    0 \n"
                        ".....  1: 0000000000402000 -> 0000000000401004 3 cycles  P T 0 COND\n"),
              std::string::npos)
        << dump;
  }
}

// tests/golden/lbr/perf.data: a `perf record --call-graph lbr` recording as the builder writes
// it (this VM has no LBR). The process runs spin-fp's binary, whose build-id is in the golden
// build-id cache, so that perf and readperf name the functions; the call chains' user parts
// are the branch stacks (main -> recurse -> recurse -> leaf and the like), and one sample's
// chain has no user part (perf then reads its chain as usual).
// A `perf record -e cycles:u` of spin-fp's binary sampling `sample_type` and branch stacks of
// `branch_sample_type`: its attr, build-id, comm and text map, for the samples to follow.
PerfDataBuilder SpinBranchRecording(uint64_t sample_type, uint64_t branch_sample_type) {
  EventAttr attr = SampleAttr(sample_type);
  attr.type = 0;    // PERF_TYPE_HARDWARE
  attr.config = 0;  // cycles
  attr.sample_period = 100003;
  attr.flags |= uint64_t{1} << 5;  // exclude_kernel, as `-e cycles:u`
  attr.branch_sample_type = branch_sample_type;
  PerfDataBuilder b;
  b.AddAttr(attr, {1});
  const std::string name = "/tmp/gold/spin";
  b.AddBuildIdFeature(name, kSpinBuildId);
  b.AddComm(42, 42, "spin", {.pid = 42, .tid = 42, .time = 1});
  b.AddMmap2(42, 42, 0x401000, 0x79000, 0x1000, name, {.pid = 42, .tid = 42, .time = 2});
  return b;
}

// One sample of spin-fp's process (pid and tid 42) at `ip` and `time`, of perf's default
// cycles:u period; the caller adds its chain and branches.
SampleFields SpinSample(uint64_t ip, uint64_t time) {
  return {.ip = ip, .pid = 42, .tid = 42, .time = time, .period = 100003};
}

std::vector<std::byte> LbrRecording() {
  // PERF_SAMPLE_BRANCH_USER with the call stack.
  PerfDataBuilder b = SpinBranchRecording(
      kSampleIp | kSampleTid | kSampleTime | kSamplePeriod | kSampleCallchain | kSampleBranchStack,
      1 | kBranchSampleCallStack);
  // leaf 0x4016c0, recurse 0x4016f0, main 0x4014f0, __libc_start_call_main 0x401a10.
  const std::vector<BranchEntryIn> deep = {{0x401700, 0x4016c0, 0},
                                           {0x401705, 0x4016f0, 0},
                                           {0x401705, 0x4016f0, 0},
                                           {0x401530, 0x4016f0, 0},
                                           {0x401a40, 0x4014f0, 0}};
  const std::vector<BranchEntryIn> shallow = {{0x401530, 0x4016f0, 0}, {0x401a40, 0x4014f0, 0}};
  uint64_t time = 10;
  for (int i = 0; i < 6; ++i) {
    b.AddSample({.ip = 0x4016d0 + static_cast<uint64_t>(i),
                 .pid = 42,
                 .tid = 42,
                 .time = time++,
                 .period = 100003,
                 .callchain = {kContextUser, 0x4016d0 + uint64_t(i)},
                 .branches = deep});
  }
  for (int i = 0; i < 3; ++i) {
    b.AddSample({.ip = 0x401700,
                 .pid = 42,
                 .tid = 42,
                 .time = time++,
                 .period = 100003,
                 .callchain = {kContextUser, 0x401700},
                 .branches = shallow});
  }
  // A chain without PERF_CONTEXT_USER: resolved as recorded.
  b.AddSample({.ip = 0x401520,
               .pid = 42,
               .tid = 42,
               .time = time++,
               .period = 100003,
               .callchain = {0x401520, 0x401a40},
               .branches = shallow});
  return b.Build();
}

// `perf record -b -e cycles:u` of spin-fp's binary (PERF_SAMPLE_BRANCH_ANY): branches along a
// real path through its code (recurse's call, its jmp to leaf, leaf's loop), for script's
// brstackinsn, which reads the code between them. Samples: in the last block, on the last
// branch, after an aborted transaction, before the last target (a lost branch), a source in
// the middle of an instruction, and a kernel entry the ring filter cut.
std::vector<std::byte> AnyBranchRecording() {
  // PERF_SAMPLE_BRANCH_USER | PERF_SAMPLE_BRANCH_ANY.
  PerfDataBuilder b = SpinBranchRecording(
      kSampleIp | kSampleTid | kSampleTime | kSamplePeriod | kSampleBranchStack, 1 | 8);
  // Flags: mispred bit 0, predicted bit 1, in_tx bit 2, abort bit 3, cycles from bit 4.
  auto flags = [](uint64_t cycles, bool predicted, bool mispred = false, bool in_tx = false,
                  bool abort = false) {
    return (cycles << 4) | (predicted ? 2 : 0) | (mispred ? 1 : 0) | (in_tx ? 4 : 0) |
           (abort ? 8 : 0);
  };
  // Most recent first: leaf's loop twice, recurse's jmp to leaf, the call of recurse, the
  // outer recurse's jne.
  const std::vector<BranchEntryIn> path = {{0x4016ea, 0x4016e0, flags(3, true)},
                                           {0x4016ea, 0x4016e0, flags(5, true)},
                                           {0x4016f7, 0x4016c0, flags(2, true)},
                                           {0x401712, 0x4016f0, flags(7, false, true)},
                                           {0x4016f2, 0x401700, flags(1, false)}};
  std::vector<BranchEntryIn> aborted = path;
  aborted[0].flags = flags(4, false, false, true, true);
  std::vector<BranchEntryIn> mid_insn = path;
  mid_insn[1].from = 0x4016eb;
  std::vector<BranchEntryIn> from_kernel = path;
  from_kernel[2] = {0xffffffff81000100, 0x4016c0, flags(9, true)};
  from_kernel[3] = {0x401712, 0xffffffff81000000, flags(0, false)};
  struct Case {
    uint64_t ip;
    const std::vector<BranchEntryIn>* branches;
  };
  const Case cases[] = {{0x4016e7, &path}, {0x4016ea, &path},     {0x4016e7, &aborted},
                        {0x4016c3, &path}, {0x4016e4, &mid_insn}, {0x4016e4, &from_kernel}};
  uint64_t time = 10;
  for (const Case& c : cases) {
    SampleFields f = SpinSample(c.ip, time++);
    f.branches = *c.branches;
    b.AddSample(f);
  }
  return b.Build();
}

// `perf record -b -e cycles:u` (PERF_SAMPLE_BRANCH_ANY) of dwarf-cxx's binary, which has
// DWARF lines (g++ -O2 -g): paths through std::sort's __introsort_loop (inlined from
// libstdc++'s headers) and main's call of it, for script's brstackinsn with srcline and
// srccode (builtin-script.c ip__fprintf_sym() and print_srccode() in the blocks).
std::vector<std::byte> CxxBranchRecording() {
  EventAttr attr =
      SampleAttr(kSampleIp | kSampleTid | kSampleTime | kSamplePeriod | kSampleBranchStack);
  attr.type = 0;    // PERF_TYPE_HARDWARE
  attr.config = 0;  // cycles
  attr.sample_period = 100003;
  attr.flags |= uint64_t{1} << 5;   // exclude_kernel, as `-e cycles:u`
  attr.branch_sample_type = 1 | 8;  // PERF_SAMPLE_BRANCH_USER | PERF_SAMPLE_BRANCH_ANY
  PerfDataBuilder b;
  b.AddAttr(attr, {1});
  // `perf record -b` writes HEADER_BRANCH_STACK: report's branch mode by default.
  b.AddFeature(kFeatBranchStack, {});
  b.AddStringFeature(kFeatHostname, "builder");
  const std::string name = "/tmp/readperf-golden/dwarf_cxx";
  b.AddBuildIdFeature(name, {0xa5, 0x4e, 0x84, 0x9d, 0x92, 0xcd, 0x44, 0x5b, 0x2f, 0x34,
                             0xcd, 0x54, 0x74, 0x07, 0x98, 0x1c, 0x9e, 0x71, 0x22, 0xa7});
  b.AddComm(7, 7, "dwarf_cxx", {.pid = 7, .tid = 7, .time = 1});
  // The text segment as dwarf-cxx's recording mapped it: file offset and address 0xa000 at
  // 0x7fe01555d000, so that an address is 0x7fe015553000 + the ELF's.
  constexpr uint64_t kBase = 0x7fe015553000;
  b.AddMmap2(7, 7, kBase + 0xa000, 0x85000, 0xa000, name, {.pid = 7, .tid = 7, .time = 2});
  auto flags = [](uint64_t cycles, bool predicted) { return (cycles << 4) | (predicted ? 2 : 1); };
  auto at = [&](uint64_t a) { return kBase + a; };
  // Oldest last: the median-of-three's jae, its jb back, the partition's inner loop twice.
  const std::vector<BranchEntryIn> partition = {{at(0xaf95), at(0xaf88), flags(2, true)},
                                                {at(0xaf95), at(0xaf88), flags(3, true)},
                                                {at(0xb01d), at(0xaf63), flags(11, false)},
                                                {at(0xaf4d), at(0xb01b), flags(6, true)}};
  // main's fill loop twice, its call of __introsort_loop, the jae into the median's code.
  const std::vector<BranchEntryIn> call = {{at(0xaf4d), at(0xb01b), flags(5, true)},
                                           {at(0xaa39), at(0xaef0), flags(9, true)},
                                           {at(0xaa27), at(0xaa10), flags(4, true)},
                                           {at(0xaa27), at(0xaa10), flags(4, true)}};
  struct Case {
    uint64_t ip;
    const std::vector<BranchEntryIn>* branches;
  };
  const Case cases[] = {{at(0xaf8e), &partition}, {at(0xb01d), &call}, {at(0xaf92), &partition}};
  uint64_t time = 10;
  for (const Case& c : cases) {
    b.AddSample({.ip = c.ip,
                 .pid = 7,
                 .tid = 7,
                 .time = time++,
                 .period = 100003,
                 .branches = *c.branches});
  }
  return b.Build();
}

// `perf record -g -b -e cycles:u` of spin-fp's binary: frame-pointer call chains and
// PERF_SAMPLE_BRANCH_ANY stacks, for `report --branch-history` and `-g branch`
// (machine.c thread__resolve_callchain_sample() with callchain_param.branch_callstack): the
// chain entries a branch's call stands for are skipped ("Check for overlap into the
// callchain"), loops are cut (remove_loops()), and a branch whose ends are in the kernel is
// looked up in every cpumode.
std::vector<std::byte> BranchHistoryRecording() {
  PerfDataBuilder b = SpinBranchRecording(
      kSampleIp | kSampleTid | kSampleTime | kSamplePeriod | kSampleCallchain | kSampleBranchStack,
      1 | 8);
  // `perf record -b` writes HEADER_BRANCH_STACK (no body), which makes --branch-history count
  // the branches of each call-graph line (symbol_conf.show_branchflag_count).
  b.AddFeature(kFeatBranchStack, {});
  // perf always writes its hostname; a byte-swapped copy's reader (perf's and readperf's)
  // keeps the other features only when it finds that bit (header.c perf_file_header__read()).
  b.AddStringFeature(kFeatHostname, "builder");
  // The flags with a branch type (`-j any,save_type`): PERF_BR_* in bits 20-23, and for
  // PERF_BR_EXTEND_ABI (15) the new type in bits 26-29.
  enum : uint64_t { kCond = 1, kUncond = 2, kCall = 4, kRet = 6, kSysret = 8, kExtend = 15 };
  auto flags = [](uint64_t cycles, bool predicted, uint64_t type = 0, uint64_t new_type = 0) {
    return (cycles << 4) | (predicted ? 2 : 0) | (predicted ? 0 : 1) | (type << 20) |
           (new_type << 26);
  };
  // leaf 0x4016c0, recurse 0x4016f0 (calls itself at 0x401712, returns to 0x401717), main
  // 0x4014f0 (returns to 0x401522), __libc_start_call_main 0x401a10 (returns to 0x401a74).
  const std::vector<BranchEntryIn> leaf_loop = {{0x4016ea, 0x4016e0, flags(3, true, kCond)},
                                                {0x4016ea, 0x4016e0, flags(5, true, kCond)},
                                                {0x4016f7, 0x4016c0, flags(2, true, kUncond)},
                                                {0x401712, 0x4016f0, flags(7, false, kCall)},
                                                {0x4016f2, 0x401700, flags(1, false, kCond)}};
  // Just entered recurse: the calls that made its chain's return addresses.
  const std::vector<BranchEntryIn> calls = {{0x4016ed, 0x4016f0, flags(4, true, kRet)},
                                            {0x401712, 0x4016f0, flags(6, true, kCall)},
                                            {0x40151d, 0x4016f0, flags(9, true, kCall)},
                                            {0x401a6f, 0x4014f0, flags(12, false, kCall)}};
  // Two branches taking turns three times, then one more: a loop of two.
  const std::vector<BranchEntryIn> two_loop = {
      {0x4016ea, 0x4016e0, flags(1, true, kCond)},   {0x4016dc, 0x4016e4, flags(1, true, kCond)},
      {0x4016ea, 0x4016e0, flags(2, true, kCond)},   {0x4016dc, 0x4016e4, flags(2, true, kCond)},
      {0x4016ea, 0x4016e0, flags(3, true, kCond)},   {0x4016dc, 0x4016e4, flags(3, true, kCond)},
      {0x4016f7, 0x4016c0, flags(4, false, kUncond)}};
  // A syscall's return: the branch's source in the kernel (no map in any cpumode here); an
  // alignment fault's entry (PERF_BR_EXTEND_ABI, FAULT_ALGN).
  const std::vector<BranchEntryIn> from_kernel = {
      {0xffffffff81000100, 0x4016c0, flags(9, true, kSysret)},
      {0x401712, 0x4016f0, flags(2, true, kExtend, 0)}};
  const std::vector<uint64_t> deep = {0x401717, 0x401717, 0x401522, 0x401a74};
  struct Case {
    uint64_t ip;
    std::vector<uint64_t> chain;  // after PERF_CONTEXT_USER and the ip
    const std::vector<BranchEntryIn>* branches;
    bool kernel_part = false;
  };
  const std::vector<BranchEntryIn> none;
  const Case cases[] = {
      {0x4016e7, deep, &leaf_loop},
      {0x4016e4, deep, &leaf_loop},
      {0x4016f0, {0x401717, 0x401522, 0x401a74}, &calls},
      {0x4016e4, deep, &two_loop},
      {0x4016c3, {0x401717}, &leaf_loop},  // more branches than chain entries
      {0x4016c3, deep, &from_kernel, true},
      {0x401700, {0x401522, 0x401a74}, &none},
      {0x4016e7, deep, &leaf_loop},
  };
  uint64_t time = 10;
  for (const Case& c : cases) {
    std::vector<uint64_t> chain;
    if (c.kernel_part) chain = {kContextKernel, 0xffffffff81000100};
    chain.push_back(kContextUser);
    chain.push_back(c.ip);
    chain.insert(chain.end(), c.chain.begin(), c.chain.end());
    SampleFields f = SpinSample(c.ip, time++);
    f.callchain = chain;
    f.branches = *c.branches;
    b.AddSample(f);
  }
  return b.Build();
}

// `perf record --call-graph lbr` of spin-fp's binary on a PMU with 4 LBR registers
// (CPU_PMU_CAPS "branches=4") and PERF_SAMPLE_BRANCH_HW_INDEX, for `--stitch-lbr`: each
// stack's oldest entries are in the registers the previous stack's newest were, so perf
// appends that stack's older sources (machine.c has_stitched_lbr()); a second stitched
// sample in a row keeps the first's (lists), an unrelated stack drops them, the register
// index wraps, and a shorter previous stack stitches nothing.
std::vector<std::byte> LbrStitchRecording() {
  PerfDataBuilder b = SpinBranchRecording(
      kSampleIp | kSampleTid | kSampleTime | kSamplePeriod | kSampleCallchain | kSampleBranchStack,
      1 | kBranchSampleCallStack | kBranchSampleHwIndex);
  b.AddStringFeature(kFeatHostname, "builder");
  // header.c write_cpu_pmu_caps(): the number of capabilities, then name and value strings.
  ByteWriter caps;
  auto put_string = [&](std::string_view v) {
    uint32_t len = static_cast<uint32_t>((v.size() + 1 + 63) / 64 * 64);
    caps.u32(len).bytes(v.data(), v.size()).zeros(len - v.size());
  };
  caps.u32(1);
  put_string("branches");
  put_string("4");
  b.AddFeature(kFeatCpuPmuCaps, caps.take());
  // Calls (callstack mode records calls): __libc_start_call_main -> main -> recurse ->
  // recurse -> recurse -> leaf.
  const BranchEntryIn libc_main{0x401a6f, 0x4014f0, 0}, main_recurse{0x40151d, 0x4016f0, 0},
      recurse1{0x401712, 0x4016f0, 0}, recurse2{0x401712, 0x4016f0, 1 << 4},
      to_leaf{0x4016f7, 0x4016c0, 0}, other{0x401530, 0x4016f0, 0};
  struct Case {
    uint64_t ip;
    uint64_t hw_idx;
    std::vector<BranchEntryIn> branches;  // newest first
  };
  const Case cases[] = {
      {0x401700, 1, {recurse2, recurse1, main_recurse, libc_main}},
      // Two calls later (registers 2 and 3): its oldest two are the previous newest two.
      {0x4016e4, 3, {to_leaf, recurse2, recurse2, recurse1}},
      // One more (register 0, wrapped): stitched again, the earlier stitch kept.
      {0x4016e7, 0, {to_leaf, to_leaf, recurse2, recurse2}},
      // Unrelated: nothing stitched, the kept frames dropped.
      {0x401700, 2, {other, libc_main}},
      // Continues a shorter stack: nothing to stitch.
      {0x4016e4, 3, {to_leaf, other, libc_main, recurse1}},
  };
  uint64_t time = 10;
  for (const Case& c : cases) {
    SampleFields f = SpinSample(c.ip, time++);
    f.callchain = {kContextUser, c.ip};
    f.branches = c.branches;
    f.hw_idx = c.hw_idx;
    b.AddSample(f);
  }
  return b.Build();
}

// machine.c remove_loops(), worked by hand: a repeated run of sources is cut once, the scan
// going on after the cut; a run that reaches the end only shortens the stack.
TEST(BranchStack, RemoveLoopsCutsRepeatedRuns) {
  auto froms = [](const std::vector<BranchHop>& hops, size_t n) {
    std::vector<uint64_t> out;
    for (size_t i = 0; i < n; ++i) out.push_back(hops[i].from);
    return out;
  };
  auto hops_of = [](std::vector<uint64_t> from) {
    std::vector<BranchHop> hops;
    for (uint64_t f : from) hops.push_back({f, f + 0x100});
    return hops;
  };
  // a a b c: the second a is cut.
  std::vector<BranchHop> h = hops_of({0xa0, 0xa0, 0xb0, 0xc0});
  size_t n = remove_branch_loops(h, h.size());
  EXPECT_EQ(froms(h, n), (std::vector<uint64_t>{0xa0, 0xb0, 0xc0}));
  EXPECT_EQ(h[1].to, 0x1b0u);  // the hops moved whole
  // a b a b a b c: at i=2 the run "a b" repeats and is cut (a b a b c); the scan goes on at
  // i=3, where "b a" is not followed by "b a" but "b c": nothing more is cut.
  h = hops_of({0xa0, 0xb0, 0xa0, 0xb0, 0xa0, 0xb0, 0xc0});
  n = remove_branch_loops(h, h.size());
  EXPECT_EQ(froms(h, n), (std::vector<uint64_t>{0xa0, 0xb0, 0xa0, 0xb0, 0xc0}));
  // A run that reaches the end: a b a → the last a is dropped (nothing to move).
  h = hops_of({0xa0, 0xb0, 0xa0});
  n = remove_branch_loops(h, h.size());
  EXPECT_EQ(froms(h, n), (std::vector<uint64_t>{0xa0, 0xb0}));
  // No repeats: unchanged.
  h = hops_of({0xa0, 0xb0, 0xc0});
  EXPECT_EQ(remove_branch_loops(h, h.size()), 3u);
}

// callchain.c counts_str_build() on counters made by hand: what a branch's target and
// source print after their call-graph line.
TEST(BranchStack, CallGraphBranchCountsText) {
  auto text = [](const ChainBranchCounts& c) {
    std::string s;
    c.append_text(s);
    return s;
  };
  EXPECT_EQ(text(ChainBranchCounts{}), " (calltrace)");
  // A target reached by three conditional branches, forward across a 4 KiB boundary, one
  // predicted, one aborted; and once by a call from another 2 MiB area.
  constexpr uint64_t kCond = uint64_t{1} << 20, kCall = uint64_t{4} << 20;
  ChainBranchCounts to;
  to.add({.branch = true, .from = 0x400ff0, .flags = kCond | 2}, 0x401010, true);
  to.add({.branch = true, .from = 0x400ff0, .flags = kCond | 8}, 0x401010, false);
  to.add({.branch = true, .from = 0x400ff0, .flags = kCond}, 0x401010, false);
  to.add({.branch = true, .from = 0x900000, .flags = kCall | 2}, 0x401010, false);
  EXPECT_EQ(text(to), " (COND_FWD CALL CROSS_4K CROSS_2M predicted:50.0% abort:25.0%)");
  // All predicted, no type: nothing to say.
  ChainBranchCounts quiet;
  quiet.add({.branch = true, .from = 0x401000, .flags = 2}, 0x401010, true);
  EXPECT_EQ(text(quiet), "");
  // A source: average cycles over its branches; the iterations only once a second branch
  // counted a source (fill_node() leaves from_count at 0).
  ChainBranchCounts from;
  from.add({.branch = true, .flags = 7u << 4, .nr_loop_iter = 2, .iter_cycles = 30}, 0x401000,
           true);
  EXPECT_EQ(text(from), " (cycles:7)");
  from.add({.branch = true, .flags = 4u << 4, .nr_loop_iter = 1, .iter_cycles = 12}, 0x401000,
           false);
  EXPECT_EQ(text(from), " (cycles:5 iter:3 avg_cycles:14)");
  // A frame of the recorded chain that a branch also reached keeps its branch's counts.
  ChainBranchCounts mixed;
  mixed.add({}, 0x401000, true);
  EXPECT_EQ(text(mixed), " (calltrace)");
  mixed.add({.branch = true, .flags = 9u << 4}, 0x401000, false);
  EXPECT_EQ(text(mixed), " (cycles:9)");
}

// Branch mode's IPC column (a --sort naming "symbol" adds ipc_lbr): perf 6.1's algorithm
// (annotate.c __symbol__account_cycles(), annotation__compute_ipc()) on any-branch-cxx, whose
// code is dwarf-cxx's binary in the golden build-id cache. perf 6.1 itself segfaults there;
// perf 6.12 and 7.2 print the same IPC (1.79 for __introsort_loop, whose blocks do not
// overlap) but count as covered only each block's last instruction since their annotation
// lines carry the cycles (2.2%), and count main's loop block again under the longer one that
// covers it (1.62). By hand, perf 6.1's way: __introsort_loop's blocks b01b-b01d (2
// instructions, 22 cycles in two samples), af63-af95 (14, 6 in two: the shorter af88-af95
// to the same branch is dropped) and aef0-af4d (27, 5): 59 instructions in 33 cycles, 43 of
// its 136 instructions covered; main's aa10-aa39 (13 instructions, 9 cycles) covers the
// loop aa10-aa27, which then adds nothing: 13 of 188.
TEST(BranchStack, IpcColumnOfResolvedSymbols) {
  auto data = PerfData::open(std::string(READPERF_GOLDEN_DIR) + "/any-branch-cxx/perf.data");
  ASSERT_TRUE(data) << data.error().message();
  ReportSetup setup;
  setup.symbols.buildid_dir = std::string(READPERF_GOLDEN_DIR) + "/buildid";
  setup.hist.branch_mode = true;
  Result<SortSpec> keys = parse_sort_keys("symbol_from,symbol_to,ipc_lbr", true);
  ASSERT_TRUE(keys) << keys.error().message();
  setup.hist.sort = *keys;
  Result<ReportData> r = run_report_session(**data, setup);
  ASSERT_TRUE(r) << r.error().message();
  ASSERT_TRUE(r->hists[0] && r->branch_cycles);
  std::map<std::string, std::string> by_target;
  for (const HistEntry& e : r->hists[0]->entries()) {
    ASSERT_NE(e.sym, nullptr);
    by_target[std::string(e.sym->name.substr(0, 21))] =
        std::string(r->hists[0]->branch_cycles()->ipc_text(e.sym));
  }
  EXPECT_EQ(by_target["std::__introsort_loop"], "1.79  [ 31.6%]");
  EXPECT_EQ(by_target["main"], "1.44  [  6.9%]");
  // A symbol no branch with cycles ended in.
  EXPECT_EQ(r->branch_cycles->ipc_text(nullptr), "0.00  [  0.0%]");
}

// The committed files are the builder's: `READPERF_WRITE_LBR_GOLDEN=1`,
// `READPERF_WRITE_ANY_BRANCH_GOLDEN=1` and `READPERF_WRITE_BRANCH_HISTORY_GOLDEN=1` write
// them again.
TEST(BranchStack, GoldenRecordingsAreTheBuilders) {
  struct Golden {
    const char* folder;
    const char* write_env;
    std::vector<std::byte> bytes;
  };
  for (const Golden& g :
       {Golden{"lbr", "READPERF_WRITE_LBR_GOLDEN", LbrRecording()},
        Golden{"any-branch", "READPERF_WRITE_ANY_BRANCH_GOLDEN", AnyBranchRecording()},
        Golden{"any-branch-cxx", "READPERF_WRITE_ANY_BRANCH_CXX_GOLDEN", CxxBranchRecording()},
        Golden{"branch-history", "READPERF_WRITE_BRANCH_HISTORY_GOLDEN", BranchHistoryRecording()},
        Golden{"lbr-stitch", "READPERF_WRITE_LBR_STITCH_GOLDEN", LbrStitchRecording()}}) {
    std::string path = std::string(READPERF_GOLDEN_DIR) + "/" + g.folder + "/perf.data";
    EXPECT_EQ(SyncBuilderGolden(path, g.bytes, g.write_env), g.bytes) << g.folder;
  }
}

}  // namespace
}  // namespace readperf::testing
