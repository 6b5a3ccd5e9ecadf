// The sort keys of `report --sort transaction|cgroup|cgroup_id|addr` (perf 6.1 util/sort.c):
// the transaction flags' text, the cgroup names PERF_RECORD_CGROUP gives, the cgroup namespace
// PERF_RECORD_NAMESPACES gives a thread, and the entries they make.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "perf_data_builder.h"
#include "readperf/analysis/hist.h"
#include "readperf/analysis/report_session.h"
#include "readperf/analysis/sort_keys.h"
#include "readperf/format/perf_abi.h"
#include "readperf/output/report_printer.h"
#include "readperf/reader/perf_data.h"
#include "readperf/session/cgroups.h"

namespace readperf {
namespace {

using testing::ByteWriter;
using testing::PerfDataBuilder;
using testing::SampleAttr;
using testing::SampleFields;

TEST(CgroupTable, FirstPathOfAnIdStays) {
  // cgroup.c __cgroup__findnew(): an id found is returned as it is.
  CgroupTable t;
  t.findnew(25, "/readperf-a");
  t.findnew(25, "/renamed");
  t.findnew(63, "/readperf-b");
  ASSERT_NE(t.find(25), nullptr);
  EXPECT_EQ(*t.find(25), "/readperf-a");
  EXPECT_EQ(*t.find(63), "/readperf-b");
  EXPECT_EQ(t.find(7), nullptr);
  EXPECT_EQ(t.size(), 2u);
}

TEST(CgroupTable, NamesAsTheReportPrintsThem) {
  // sort.c hist_entry__cgroup_snprintf(): "N/A" without a cgroup, "unknown" for an id no
  // record named.
  CgroupTable t;
  t.findnew(1, "/");
  EXPECT_EQ(t.name(0), "N/A");
  EXPECT_EQ(t.name(1), "/");
  EXPECT_EQ(t.name(2), "unknown");
}

TEST(TransactionText, FlagsAsSortCPrintsThem) {
  // sort.c hist_entry__transaction_snprintf(): txbits[]'s names in table order, "NEITHER "
  // when neither SYNC nor ASYNC is set, ":" and the abort code in hex.
  EXPECT_EQ(transaction_text(0), "");
  EXPECT_EQ(transaction_text(0x1 | 0x4), "EL SYNC ");
  EXPECT_EQ(transaction_text(0x2 | 0x8 | uint64_t{0x5} << 32), "TX ASYNC :5");
  EXPECT_EQ(transaction_text(0x10 | 0x20), "RETRY CON NEITHER ");
  EXPECT_EQ(transaction_text(0x40 | 0x80 | 0x4), "SYNC CAP-WRITE CAP-READ ");
  EXPECT_EQ(transaction_text(0x1 | 0x2 | uint64_t{0xab} << 32), "EL TX NEITHER :ab");
  // A bit txbits[] does not name is still a transaction without SYNC or ASYNC.
  EXPECT_EQ(transaction_text(0x100), "NEITHER ");
  // The abort code alone.
  EXPECT_EQ(transaction_text(uint64_t{0xffffffff} << 32), "NEITHER :ffffffff");
  EXPECT_EQ(transaction_text(~uint64_t{0}),
            "EL TX SYNC ASYNC RETRY CON CAP-WRITE CAP-READ :ffffffff");
  // hist_entry__transaction_len(): EL, ASYNC, RETRY, CON, CAP-READ and ":XX ".
  EXPECT_EQ(transaction_len(), 32u);
}

TEST(SortKeys, CgroupPrefixesFollowPerfsTableOrder) {
  // common_sort_dimensions[]: "cgroup" comes before "cgroup_id", so "cg" is cgroup.
  auto spec = parse_sort_keys("cg,cgroup_,trans,addr");
  ASSERT_TRUE(spec) << spec.error().message();
  EXPECT_EQ(spec->keys, (std::vector<SortKey>{SortKey::kCgroup, SortKey::kCgroupId,
                                              SortKey::kTransaction, SortKey::kAddr}));
  EXPECT_EQ(sort_key_header(SortKey::kTransaction), "Transaction                ");
  EXPECT_EQ(sort_key_header(SortKey::kCgroupId), "cgroup id (dev/inode)");
}

// A PERF_RECORD_NAMESPACES body: pid, tid, nr_namespaces and nr (dev, inode) pairs, the
// cgroup namespace's (index 6) given.
void NamespacesBody(ByteWriter& w, uint32_t pid, uint32_t tid, uint64_t nr, uint64_t dev,
                    uint64_t ino) {
  w.u32(pid);
  w.u32(tid);
  w.u64(nr);
  for (uint64_t i = 0; i < nr; ++i) {
    w.u64(i == 6 ? dev : 4);
    w.u64(i == 6 ? ino : 0xeffffff0 + i);
  }
}

struct Texts {
  std::vector<std::string> first, second;
  std::vector<uint64_t> periods;
};

Texts Report(const std::vector<std::byte>& bytes, const char* keys, SortKey a, SortKey b,
             bool children = false) {
  Texts out;
  auto data = PerfData::open_bytes(bytes);
  EXPECT_TRUE(data) << data.error().message();
  if (!data) return out;
  ReportSetup setup;
  setup.hist.sort = *parse_sort_keys(keys);
  setup.hist.children = children;
  Result<ReportData> r = run_report_session(**data, setup);
  EXPECT_TRUE(r) << r.error().message();
  if (!r) return out;
  const Hists* h = r->hists.empty() ? nullptr : r->hists[0].get();
  EXPECT_NE(h, nullptr);
  if (!h) return out;
  out.first = report_key_texts(*h, a, {});
  out.second = report_key_texts(*h, b, {});
  for (uint32_t id : h->order())
    out.periods.push_back(children ? h->entry(id).acc_period : h->entry(id).period);
  return out;
}

std::vector<std::byte> CgroupRecording() {
  PerfDataBuilder b;
  b.AddAttr(SampleAttr(kSampleIp | kSampleTid | kSampleTime | kSamplePeriod | kSampleCallchain |
                       kSampleCgroup),
            {});
  b.AddComm(7, 7, "a", {.pid = 7, .tid = 7, .time = 1});
  b.AddComm(8, 8, "b", {.pid = 8, .tid = 8, .time = 1});
  // Synthesized cgroups, and an id named twice: the first path stays.
  b.AddCgroup(1, "/", {.pid = 7, .tid = 7, .time = 2});
  b.AddCgroup(25, "/readperf-a", {.pid = 7, .tid = 7, .time = 2});
  b.AddCgroup(25, "/later", {.pid = 7, .tid = 7, .time = 3});
  // Thread 7 in the initial cgroup namespace; thread 8's record is cut short of the cgroup
  // namespace (0/0x0, as before any record).
  b.AddKernelRecord(kRecordNamespaces, 0,
                    [](ByteWriter& w) { NamespacesBody(w, 7, 7, 7, 4, 0xeffffffb); },
                    {.pid = 7, .tid = 7, .time = 4});
  b.AddKernelRecord(kRecordNamespaces, 0, [](ByteWriter& w) { NamespacesBody(w, 8, 8, 3, 0, 0); },
                    {.pid = 8, .tid = 8, .time = 4});
  uint64_t time = 10;
  // Recursion: the same frame twice in the chain.
  auto sample = [&](uint32_t tid, uint64_t cgroup) {
    SampleFields f{.ip = 0x1000, .pid = tid, .tid = tid, .time = time++, .period = 100};
    f.callchain = {0x1000, 0x2000, 0x2000, 0x3000};
    f.cgroup = cgroup;
    b.AddSample(f);
  };
  for (uint64_t cg : {25, 25, 1, 99}) sample(7, cg);
  sample(8, 0);
  // Thread 7 moves to another cgroup namespace (unshare(CLONE_NEWCGROUP)).
  b.AddKernelRecord(kRecordNamespaces, 0,
                    [](ByteWriter& w) { NamespacesBody(w, 7, 7, 7, 4, 0xf0000152); },
                    {.pid = 7, .tid = 7, .time = time++});
  sample(7, 25);
  b.AddFinishedRound();
  return b.Build();
}

TEST(CgroupKeys, EntriesByCgroupAndNamespace) {
  Texts t = Report(CgroupRecording(), "cgroup,cgroup_id", SortKey::kCgroup, SortKey::kCgroupId);
  // Equal overheads in the order of sort__cgroup_cmp() (right's id minus left's: the lower id
  // first), then sort__cgroup_id_cmp().
  EXPECT_EQ(t.first,
            (std::vector<std::string>{"/readperf-a", "N/A", "/", "/readperf-a", "unknown"}));
  EXPECT_EQ(t.second, (std::vector<std::string>{"4/0xeffffffb", "0/0x0", "4/0xeffffffb",
                                                "4/0xf0000152", "4/0xeffffffb"}));
  EXPECT_EQ(t.periods, (std::vector<uint64_t>{200, 100, 100, 100, 100}));
}

TEST(CgroupKeys, ChildrenCountRecursionTwiceUnderACgroup) {
  // hist.c iter_add_next_cumulative_entry()'s he_tmp has no cgroup: with a cgroup key and a
  // sample in a cgroup, no frame is found in he_cache, and the recursive frame counts twice;
  // the sample without a cgroup (thread 8) counts it once.
  Texts t = Report(CgroupRecording(), "cgroup,comm", SortKey::kCgroup, SortKey::kComm, true);
  ASSERT_EQ(t.first.size(), t.periods.size());
  uint64_t a = 0, na = 0;
  for (size_t i = 0; i < t.first.size(); ++i) {
    if (t.first[i] == "/readperf-a") a += t.periods[i];
    if (t.first[i] == "N/A") na += t.periods[i];
  }
  // Every frame of a sample is the sample's entry under these keys. /readperf-a: 3 samples,
  // each counted for itself and its 4 frames (no duplicate check); N/A: once.
  EXPECT_EQ(a, 3u * 100 * 5);
  EXPECT_EQ(na, 100u);
}

TEST(CgroupKeys, TransactionAndAddress) {
  PerfDataBuilder b;
  b.AddAttr(SampleAttr(kSampleIp | kSampleTid | kSampleTime | kSamplePeriod | kSampleTransaction),
            {});
  b.AddComm(7, 7, "a", {.pid = 7, .tid = 7, .time = 1});
  uint64_t time = 10;
  auto sample = [&](uint64_t ip, uint64_t period, uint64_t transaction) {
    SampleFields f{.ip = ip, .pid = 7, .tid = 7, .time = time++, .period = period};
    f.transaction = transaction;
    b.AddSample(f);
  };
  sample(0x1000, 300, 0x2 | 0x8 | uint64_t{0x5} << 32);
  sample(0x2000, 200, 0x1 | 0x4);
  sample(0x1000, 100, 0);
  sample(0, 50, 0);
  b.AddFinishedRound();
  Texts t = Report(b.Build(), "transaction,addr", SortKey::kTransaction, SortKey::kAddr);
  EXPECT_EQ(t.first, (std::vector<std::string>{"TX ASYNC :5", "EL SYNC", "", ""}));
  // "%-#*llx": 0x and hex, but a bare 0 for 0.
  EXPECT_EQ(t.second, (std::vector<std::string>{"0x1000", "0x2000", "0x1000", "0"}));
  EXPECT_EQ(t.periods, (std::vector<uint64_t>{300, 200, 100, 50}));
}

}  // namespace
}  // namespace readperf
