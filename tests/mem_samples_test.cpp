// `perf mem record`-style samples (PERF_SAMPLE_ADDR, DATA_SRC, WEIGHT or WEIGHT_STRUCT,
// PHYS_ADDR) on raw events: tests/golden/mem/perf.data is the builder's (this VM has no
// memory-sampling PMU); the golden case and the options matrix (`mem` rows) hold perf 6.1's
// script, report, -D and report --mem-mode of it. Here: the committed file is MemRecording()'s.
#include <gtest/gtest.h>

#include <iterator>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "perf_data_builder.h"
#include "readperf/analysis/report_session.h"
#include "readperf/analysis/sort_keys.h"
#include "readperf/format/perf_abi.h"
#include "test_util.h"

#ifndef READPERF_GOLDEN_DIR
#error "READPERF_GOLDEN_DIR must name tests/golden"
#endif

namespace readperf::testing {
namespace {

// union perf_mem_data_src's fields (include/uapi/linux/perf_event.h PERF_MEM_*_SHIFT).
struct Src {
  uint64_t op = 0, lvl = 0, snoop = 0, lock = 0, dtlb = 0, lvl_num = 0, remote = 0, snoopx = 0,
           blk = 0, hops = 0;
  uint64_t value() const {
    return op | lvl << 5 | snoop << 19 | lock << 24 | dtlb << 26 | lvl_num << 33 | remote << 37 |
           snoopx << 38 | blk << 40 | hops << 43;
  }
};

// Values chosen to reach each branch of mem-events.c's decoders: short ones first, so that
// the padding of the later, longer ones grows (data_src__fprintf()'s static maxlen).
std::vector<uint64_t> DataSrcValues() {
  return {
      // PERF_MEM_NA: what the kernel reports where the PMU says nothing.
      Src{.op = 1, .lvl = 1, .snoop = 1, .lock = 1, .dtlb = 1}.value(),
      0,  // op "No", every other part "N/A"
      // A load hitting L1 (what `perf mem` shows most).
      Src{.op = 2,
          .lvl = 0x08 | 0x02,
          .snoop = 0x02,
          .lock = 0,
          .dtlb = 0x08 | 0x10 | 0x02,
          .blk = 1}
          .value(),
      // LFB both as a level bit and as lvl_num: "LFB/MAB or LFB/MAB hit".
      Src{.op = 2, .lvl = 0x10 | 0x02, .snoop = 0x02, .dtlb = 0x18 | 0x02, .lvl_num = 0x0c}.value(),
      // A remote store, hops instead of levels, snoopx, locked, blocked on data and address.
      Src{.op = 4,
          .lvl = 0x80 | 0x04,
          .snoop = 0x10,
          .lock = 2,
          .dtlb = 0x04 | 0x20,
          .lvl_num = 0x0d,
          .remote = 1,
          .snoopx = 1,
          .blk = 6,
          .hops = 2}
          .value(),
      // Prefetch, a numbered level without a name (L3), snoopx alone, walker and fault.
      Src{.op = 8, .dtlb = 0x20 | 0x40, .lvl_num = 3, .snoopx = 2, .blk = 2}.value(),
      // Exec from CXL, one hop, address blocked.
      Src{.op = 0x10, .lvl_num = 9, .blk = 4, .hops = 1}.value(),
      // Every level bit: longer than perf's 100-byte buffers, cut where perf cuts it.
      Src{.op = 2, .lvl = 0x3fff, .snoop = 0x1f, .dtlb = 0x7f, .lvl_num = 0x0e}.value(),
      // Every snoop and TLB bit with a short level: the text passes 99 bytes at the end.
      Src{.op = 0x1e, .lvl = 0x0e, .snoop = 0x1f, .lock = 3, .dtlb = 0x7f, .snoopx = 3, .blk = 7}
          .value(),
      Src{.op = 2, .lvl = 0x08 | 0x02, .snoop = 0x02, .dtlb = 0x08 | 0x10 | 0x02}.value(),
  };
}

// tests/golden/mem/perf.data: two raw events of one process running spin-fp's binary (its
// build-id in the golden cache), as `perf mem record` writes them: r1cd:pp (loads) with
// ADDR, DATA_SRC, WEIGHT, PHYS_ADDR, DATA_PAGE_SIZE and CODE_PAGE_SIZE, r82d0:pp (stores) with
// WEIGHT_STRUCT (the instruction latency in its second word). IDENTIFIER tells them apart.
std::vector<std::byte> MemRecording() {
  constexpr uint64_t kCommon = kSampleIdentifier | kSampleIp | kSampleTid | kSampleTime |
                               kSampleAddr | kSampleCpu | kSamplePeriod | kSampleDataSrc |
                               kSampleTransaction;
  EventAttr loads = SampleAttr(kCommon | kSampleWeight | kSamplePhysAddr | kSampleDataPageSize |
                               kSampleCodePageSize);
  loads.type = kTypeRaw;
  loads.config = 0x1cd;
  loads.sample_period = 4000;
  loads.flags |= uint64_t{2} << 15;  // precise_ip
  EventAttr stores = SampleAttr(kCommon | kSampleWeightStruct);
  stores.type = kTypeRaw;
  stores.config = 0x82d0;
  stores.sample_period = 4000;
  stores.flags |= uint64_t{2} << 15;
  PerfDataBuilder b;
  b.AddAttr(loads, {1}).AddAttr(stores, {2});
  const std::string name = "/tmp/gold/spin";
  b.AddBuildIdFeature(name, kSpinBuildId);
  const SampleFields sid = {.identifier = 1, .pid = 42, .tid = 42, .time = 1};
  b.AddComm(42, 42, "spin", sid);
  b.AddMmap2(42, 42, 0x401000, 0x79000, 0x1000, name,
             {.identifier = 1, .pid = 42, .tid = 42, .time = 2});
  // `perf mem record` records data maps too (-d): the binary's read-only data (spin's
  // .rodata, intel_02_known at 0x47a160) and the stack.
  b.AddDataMmap2(42, 42, 0x47a000, 0x28000, 0x7a000, name, 1, 2, false,
                 {.identifier = 1, .pid = 42, .tid = 42, .time = 3});
  b.AddDataMmap2(42, 42, 0x7ffd3c282000, 0x21000, 0, "[stack]", 3, 0x22, true,
                 {.identifier = 1, .pid = 42, .tid = 42, .time = 4});
  // A second process of the same binary, with its own stack at the same addresses (anonymous
  // memory: the dcacheline key tells processes apart there) and a shared file mapping
  // ("[s]" in the dcacheline column).
  const SampleFields sid43 = {.identifier = 1, .pid = 43, .tid = 43, .time = 5};
  b.AddComm(43, 43, "spin", sid43);
  b.AddMmap2(43, 43, 0x401000, 0x79000, 0x1000, name, sid43);
  b.AddDataMmap2(43, 43, 0x7ffd3c282000, 0x21000, 0, "[stack]", 3, 0x22, true, sid43);
  b.AddDataMmap2(43, 43, 0x7f1234560000, 0x2000, 0, "/dev/shm/readperf-buf", 3, 0x01, false, sid43);
  uint64_t time = 4'210'987'654'321;  // ns: 4210.987654321 s after boot
  // PERF_SAMPLE_TRANSACTION values (PERF_TXN_*: elision, transaction, sync, async, retry,
  // conflict, capacity write and read, the abort code above bit 32).
  const uint64_t kTxn[] = {0,           0x1 | 0x4,         0x2 | 0x8 | uint64_t{0x5} << 32,
                           0x10 | 0x20, 0x40 | 0x80 | 0x4, 0x1 | 0x2 | uint64_t{0xab} << 32};
  size_t txn = 0;
  // Loads at one address whose weights repeat: equal but for the weight, which the weight
  // keys group by (and a cache of repeated samples must tell apart). They come first: the
  // samples after them include data_src values whose texts overflow perf's 64-byte buffers
  // in `report --mem-mode` (sort.c hist_entry__lvl_snprintf(): perf 6.1 dies of it), which
  // the options matrix leaves out with --time.
  for (uint64_t weight : {100, 200, 100, 200, 100, 300}) {
    b.AddSample({.attr = 0,
                 .identifier = 1,
                 .ip = 0x4016c8,
                 .pid = 42,
                 .tid = 42,
                 .time = time += 250'123,
                 .addr = 0x47a120,
                 .cpu = 0,
                 .period = 4000,
                 .weight = weight,
                 .data_src = DataSrcValues()[2],
                 .transaction = kTxn[txn++ % std::size(kTxn)],
                 .data_page_size = 4096,
                 .code_page_size = 4096});
  }
  // Data addresses of the second process: its stack (the first's stack cache line), the
  // shared mapping, no map at all ("[X]"), and the binary's code (a function symbol).
  for (auto [pid, addr] : {std::pair<uint32_t, uint64_t>{43, 0x7ffd3c2a1e48},
                           {43, 0x7f1234560048},
                           {43, 0x10},
                           {42, 0x4016d0}}) {
    b.AddSample({.attr = 0,
                 .identifier = 1,
                 .ip = 0x4016c8,
                 .pid = pid,
                 .tid = pid,
                 .time = time += 1'000,
                 .addr = addr,
                 .cpu = 1,
                 .period = 4000,
                 .weight = 40 + addr % 7,
                 .data_src = DataSrcValues()[2],
                 .transaction = kTxn[txn++ % std::size(kTxn)],
                 .data_page_size = 4096,
                 .code_page_size = 4096});
  }
  int i = 0;
  for (uint64_t src : DataSrcValues()) {
    const bool store = i % 3 == 2;
    // leaf 0x4016c0 and recurse 0x4016f0 touch the stack and the binary's data.
    b.AddSample({.attr = store ? 1u : 0u,
                 .identifier = store ? 2u : 1u,
                 .ip = (i % 2 ? 0x4016f4 : 0x4016c8) + uint64_t(i),
                 .pid = 42,
                 .tid = 42,
                 .time = time += 250'123,
                 .addr = i % 2 ? 0x7ffd3c2a1e40 + 8 * uint64_t(i) : 0x47a120 + 64 * uint64_t(i),
                 .cpu = uint32_t(i % 2),
                 .period = 4000,
                 // WEIGHT_STRUCT: var1_dw the weight, var2_w the instruction latency.
                 .weight = store ? (static_cast<uint64_t>(7 + 3 * i) << 32 | uint64_t(30 + 100 * i))
                                 : uint64_t(12 + 57 * i),
                 .data_src = src,
                 .transaction = kTxn[txn++ % std::size(kTxn)],
                 .phys_addr = i % 2 ? 0x1a2b3c40 + uint64_t(i) : 0,
                 .data_page_size = 4096,
                 .code_page_size = i % 4 == 3 ? uint64_t{2} << 20 : 4096});
    ++i;
  }
  return b.Build();
}

// The committed file is the builder's: `READPERF_WRITE_MEM_GOLDEN=1` writes it again.
TEST(MemSamples, GoldenRecordingIsTheBuilders) {
  std::vector<std::byte> bytes = MemRecording();
  EXPECT_EQ(SyncBuilderGolden(std::string(READPERF_GOLDEN_DIR) + "/mem/perf.data", bytes,
                              "READPERF_WRITE_MEM_GOLDEN"),
            bytes);
}

// `report --hierarchy --mem-mode` (perf 6.1 segfaults there): every node of every level
// keeps the memory sample of the first entry it was made from, which the memory keys' columns
// read by the node's entry id.
TEST(MemSamples, HierarchyNodesKeepTheirMemorySamples) {
  auto data = PerfData::open(std::string(READPERF_GOLDEN_DIR) + "/mem/perf.data");
  ASSERT_TRUE(data) << data.error().message();
  SortingOptions sorting;
  sorting.default_order = kDefaultMemSortOrder;
  sorting.mem_mode = true;
  Result<SortSpec> spec = setup_sorting(sorting);
  ASSERT_TRUE(spec) << spec.error().message();
  ReportSetup setup;
  setup.symbols.buildid_dir = std::string(READPERF_GOLDEN_DIR) + "/buildid";
  setup.hist.sort = *spec;
  setup.hist.mem_mode = true;
  setup.hist.hierarchy = true;
  Result<ReportData> r = run_report_session(**data, setup);
  ASSERT_TRUE(r) << r.error().message();
  size_t checked = 0;
  for (const auto& h : r->hists) {
    if (!h || h->hierarchy().empty()) continue;
    // The nodes' entries come after the flat ones.
    const uint32_t first_node = h->hierarchy().front().entry;
    std::set<std::tuple<uint64_t, uint64_t, uint64_t>> flat;
    for (uint32_t id = 0; id < first_node; ++id) {
      const MemSample& m = h->mem(id);
      flat.insert({m.data_src, m.daddr.addr, m.iaddr.addr});
    }
    for (const HierarchyNode& node : h->hierarchy()) {
      const MemSample& m = h->mem(node.entry);
      EXPECT_TRUE(flat.count({m.data_src, m.daddr.addr, m.iaddr.addr})) << node.entry;
      ++checked;
    }
  }
  EXPECT_GT(checked, 10u);
}

}  // namespace
}  // namespace readperf::testing
