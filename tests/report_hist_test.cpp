// The report's analysis (sort keys, histograms, call trees) and its --stdio printer, on
// hand-made threads, DSOs and symbols.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "perf_data_builder.h"
#include "readperf/analysis/call_tree.h"
#include "readperf/analysis/hist.h"
#include "readperf/analysis/repeat_cache.h"
#include "readperf/analysis/report_session.h"
#include "readperf/analysis/sort_keys.h"
#include "readperf/format/perf_abi.h"
#include "readperf/output/report_printer.h"
#include "readperf/reader/perf_data.h"
#include "readperf/session/dso.h"
#include "readperf/session/thread.h"
#include "readperf/symbols/symbol_table.h"

namespace readperf {
namespace {

Thread make_thread(int32_t tid, const char* comm) {
  Thread t;
  t.pid = tid;
  t.tid = tid;
  t.comms.push_back(Comm{comm, 0, false});
  t.comm_set = true;
  return t;
}

Dso make_dso(const char* name) {
  Dso d;
  d.long_name = std::string("/usr/lib/") + name;
  d.short_name = name;
  return d;
}

HistFrame frame(const Dso* dso, int32_t order, const Symbol* sym, uint64_t ip, char level = '.') {
  HistFrame f;
  f.chain.ip = ip;
  f.chain.dso = dso;
  f.chain.sym = sym;
  f.chain.dso_order = order;
  f.addr = ip;
  f.level = level;
  return f;
}

std::string print_to_string(const Hists& h, const ReportPrintOptions& po) {
  char* buf = nullptr;
  size_t len = 0;
  FILE* f = open_memstream(&buf, &len);
  {
    OutBuffer out(f);
    ReportSection s{"cpu-clock", &h};
    print_report(std::span<const ReportSection>(&s, 1), 0, po, out);
  }
  fclose(f);
  std::string text(buf, len);
  free(buf);
  return text;
}

class ReportHistTest : public ::testing::Test {
 protected:
  Thread work = make_thread(10, "workload");
  Thread exe = make_thread(11, "exe");
  Dso app = make_dso("app");
  Dso libm = make_dso("libm.so.6");
  Symbol main_{0x100, 0x200, "main", kBindGlobal, kTypeFunc};
  Symbol loop_{0x200, 0x300, "loop", kBindGlobal, kTypeFunc};
  Symbol leaf_{0x300, 0x400, "leaf", kBindGlobal, kTypeFunc};
  Symbol sin_{0x1000, 0x1100, "__sin_fma", kBindGlobal, kTypeFunc};

  HistConfig config(bool children, bool callchain) {
    HistConfig c;
    c.sort = *parse_sort_keys("comm,dso,sym");
    c.children = children;
    c.use_callchain = callchain;
    c.caller_order = children;
    return c;
  }
};

TEST(SortKeysTest, PrefixesAndDuplicates) {
  Result<SortSpec> s = parse_sort_keys("comm,dso,sym");
  ASSERT_TRUE(s);
  EXPECT_EQ(s->keys, (std::vector<SortKey>{SortKey::kComm, SortKey::kDso, SortKey::kSymbol}));
  s = parse_sort_keys("s,SYM p d,dso");  // "s" is "symbol", as in perf's table order
  ASSERT_TRUE(s);
  EXPECT_EQ(s->keys, (std::vector<SortKey>{SortKey::kSymbol, SortKey::kPid, SortKey::kDso}));
  EXPECT_FALSE(parse_sort_keys("nonsense"));
  // an output field as a sort key: its column (perf's hpp dimension)
  Result<SortSpec> guest = setup_sorting({.sort_order = "overhead_guest_sys"});
  ASSERT_TRUE(guest);
  EXPECT_NE(std::find(guest->columns.begin(), guest->columns.end(),
                      HistField{.hpp = HppField::kOverheadGuestSys}),
            guest->columns.end());
  // "weight" is itself, "lo" local_weight; p_stage_cyc given whole is dropped (x86's perf),
  // its prefix is a key.
  s = parse_sort_keys("weight,lo,p_stage_cyc,local_p_stage_cyc,p_stage");
  ASSERT_TRUE(s);
  EXPECT_EQ(s->keys,
            (std::vector<SortKey>{SortKey::kWeight, SortKey::kLocalWeight, SortKey::kPStageCyc}));
  EXPECT_EQ(sort_key_header(SortKey::kDso), "Shared Object");
  // The memory keys are --mem-mode's only ("Invalid", as perf's -EINVAL), after the common
  // and branch ones in perf's tables.
  EXPECT_FALSE(parse_sort_keys("mem"));
  s = parse_sort_keys("mem,symbol_d,locked,dso_d,loc", false, true);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->keys, (std::vector<SortKey>{SortKey::kMem, SortKey::kSymbolDaddr, SortKey::kLocked,
                                           SortKey::kDsoDaddr,
                                           SortKey::kLocalWeight}));  // "loc": common first
}

// sort.c setup_sorting(): which fields sort the output and which print, in what order.
TEST(SortKeysTest, SetupSortingLikePerf) {
  auto sort_of = [](HppField h) { return HistField{h}; };
  auto key = [](SortKey k) { return HistField{HppField::kSortKey, k}; };
  // The default with children: both overheads prefixed, Self named so.
  Result<SortSpec> s = setup_sorting({.cumulate = true});
  ASSERT_TRUE(s);
  EXPECT_EQ(s->sort_list, (std::vector<HistField>{sort_of(HppField::kOverheadChildren),
                                                  sort_of(HppField::kOverhead), key(SortKey::kComm),
                                                  key(SortKey::kDso), key(SortKey::kSymbol)}));
  EXPECT_TRUE(s->overhead_is_self);
  EXPECT_TRUE(s->dso_sorted);
  // --fields alone: those fields in that order, and the output sorted by them in turn.
  s = setup_sorting({.field_order = "sym,overhead", .cumulate = true});
  ASSERT_TRUE(s);
  EXPECT_EQ(s->columns,
            (std::vector<HistField>{key(SortKey::kSymbol), sort_of(HppField::kOverhead)}));
  EXPECT_EQ(s->sort_list, s->columns);
  EXPECT_EQ(s->keys, (std::vector<SortKey>{SortKey::kSymbol}));
  EXPECT_FALSE(s->overhead_is_self);
  // "+period": the default columns, then Period; period also sorts, after the keys.
  s = setup_sorting({.field_order = "+period"});
  ASSERT_TRUE(s);
  EXPECT_EQ(s->columns.back(), key(SortKey::kSymbol));
  EXPECT_EQ(s->columns[1], sort_of(HppField::kPeriod));
  EXPECT_EQ(s->sort_list.back(), sort_of(HppField::kPeriod));
  // A sort order that names overhead gets no second one; -n appends Samples.
  s = setup_sorting({.sort_order = "sym,overhead", .show_nr_samples = true});
  ASSERT_TRUE(s);
  EXPECT_EQ(s->sort_list,
            (std::vector<HistField>{key(SortKey::kSymbol), sort_of(HppField::kOverhead),
                                    sort_of(HppField::kSamples)}));
  EXPECT_FALSE(setup_sorting({.sort_order = "nonsense"}));
  EXPECT_FALSE(setup_sorting({.field_order = "+"}));
  EXPECT_EQ(setup_sorting({.field_order = "bogus"}).error().message(),
            "Unknown --fields key: `bogus'");
}

TEST(CallTreeTest, SharedPrefixesSplitAndSum) {
  Dso d = make_dso("app");
  Symbol a{0x10, 0x20, "a", kBindGlobal, kTypeFunc};
  Symbol b{0x20, 0x30, "b", kBindGlobal, kTypeFunc};
  Symbol c{0x30, 0x40, "c", kBindGlobal, kTypeFunc};
  auto f = [&](const Symbol* s, uint64_t ip) { return ChainFrame{ip, &d, s, 0}; };
  CallTree t;
  CallTree::NodeId root = t.new_root();
  std::vector<ChainFrame> abc = {f(&a, 0x11), f(&b, 0x21), f(&c, 0x31)};
  std::vector<ChainFrame> ab = {f(&a, 0x12), f(&b, 0x22)};  // other ips, same functions
  std::vector<ChainFrame> ac = {f(&a, 0x13), f(&c, 0x32)};
  CallTree::NodeId end = t.append(root, abc, 5);
  t.append(root, ab, 3);
  t.append(root, ac, 3);
  t.bump(end, 1);
  t.finish();
  std::vector<CallTree::NodeId> kids;
  auto top = t.sorted_children(root, 0, kids);
  ASSERT_EQ(top.size(), 1u);
  CallTree::NodeId na = top[0];
  EXPECT_EQ(t.node(na).cumul, 12u);
  EXPECT_EQ(t.compressed_end(na), na);  // branches after "a"
  std::vector<CallTree::NodeId> below;
  auto second = t.sorted_children(na, 0, below);
  ASSERT_EQ(second.size(), 2u);
  EXPECT_EQ(t.node(second[0]).frame.sym, &b);  // 9 before 3
  EXPECT_EQ(t.node(second[0]).cumul, 9u);
  EXPECT_EQ(t.node(second[0]).hit, 3u);  // "a b" ends there: not compressed with "c"
  EXPECT_EQ(t.compressed_end(second[0]), second[0]);
  // The minimum hit hides the smaller branch.
  EXPECT_EQ(t.sorted_children(na, 4, below).size(), 1u);
}

TEST(CallTreeTest, TiesKeepPerfsRbTreeOrder) {
  Dso d = make_dso("app");
  Symbol x{0x10, 0x20, "x", kBindGlobal, kTypeFunc};
  Symbol y{0x20, 0x30, "y", kBindGlobal, kTypeFunc};
  CallTree t;
  CallTree::NodeId root = t.new_root();
  std::vector<ChainFrame> cx = {ChainFrame{0x10, &d, &x, 0}};
  std::vector<ChainFrame> cy = {ChainFrame{0x20, &d, &y, 0}};
  t.append(root, cx, 1);
  t.append(root, cy, 1);
  t.finish();
  std::vector<CallTree::NodeId> kids;
  auto top = t.sorted_children(root, 0, kids);
  ASSERT_EQ(top.size(), 2u);
  // Equal hits: higher symbol start first (append_chain_children sends greater keys left).
  EXPECT_EQ(t.node(top[0]).frame.sym, &y);
}

// One-frame chains below one root, each frame at its symbol's start + 0x10, to see which
// node each ends at.
struct OneFrameChains {
  Dso dso = make_dso("app");
  CallTree tree;
  CallTree::NodeId root = tree.new_root();
  CallTree::NodeId add(const Symbol& s) {
    std::vector<ChainFrame> chain = {ChainFrame{s.start + 0x10, &dso, &s, 0}};
    return tree.append(root, chain, 1);
  }
  size_t nr_children() {
    tree.finish();
    std::vector<CallTree::NodeId> kids;
    return tree.sorted_children(root, 0, kids).size();
  }
};

// callchain.c match_chain(): an inline frame is compared by name with any frame, a real one
// by symbol start with another real one, and append_chain_children() follows that down the
// children's rb-tree. An inline "f" meeting a real "f" is the same node...
TEST(CallTreeTest, InlineFrameMeetsRealFrameOfItsNameOnItsPath) {
  Symbol f{0x100, 0x180, "f", kBindGlobal, kTypeFunc};
  Symbol f_inline{0x200, 0x280, "f", kBindGlobal, kTypeFunc, /*inlined=*/true};
  OneFrameChains c;
  CallTree::NodeId real = c.add(f);
  EXPECT_EQ(c.add(f_inline), real);
  EXPECT_EQ(c.nr_children(), 1u);
  EXPECT_EQ(c.tree.node(real).frame.sym, &f);  // the first frame names the node
}

// ...but only when the search passes it: with real "m" (start 0x100) at the root of the tree
// and real "f" (0x300) to its left, an inline "f" compares with "m" by name, goes right and
// becomes a node of its own, as in perf.
TEST(CallTreeTest, InlineFrameMissesRealFrameOffItsPath) {
  Symbol m{0x100, 0x180, "m", kBindGlobal, kTypeFunc};
  Symbol f{0x300, 0x380, "f", kBindGlobal, kTypeFunc};
  Symbol f_inline{0x500, 0x580, "f", kBindGlobal, kTypeFunc, /*inlined=*/true};
  OneFrameChains c;
  c.add(m);
  CallTree::NodeId real = c.add(f);
  EXPECT_NE(c.add(f_inline), real);
  EXPECT_EQ(c.nr_children(), 3u);
}

TEST_F(ReportHistTest, NoChildrenGroupsAndOrders) {
  Hists h(config(false, false));
  HistSample s;
  s.thread = &work;
  s.comm = "workload";
  s.period = 10;
  s.self = frame(&app, 0, &loop_, 0x250);
  h.add(s);
  s.self = frame(&app, 0, &loop_, 0x260);  // same symbol: same entry
  h.add(s);
  s.self = frame(&libm, 1, &sin_, 0x1010);
  h.add(s);
  s.thread = &exe;
  s.comm = "exe";
  h.add(s);  // same period as workload's sin: comm breaks the tie
  s.self = frame(nullptr, -1, nullptr, 0x1234, 'k');
  s.period = 5;
  h.add(s);
  h.finish();
  ASSERT_EQ(h.entries().size(), 4u);
  EXPECT_EQ(h.total_period(), 45u);
  EXPECT_EQ(h.nr_samples(), 5u);
  std::vector<std::string> order;
  for (uint32_t id : h.order()) {
    const HistEntry& e = h.entry(id);
    order.push_back(std::string(h.comm_name(e.comm)) + "/" +
                    (e.sym ? std::string(e.sym->name) : "?"));
  }
  EXPECT_EQ(order, (std::vector<std::string>{"workload/loop", "exe/__sin_fma", "workload/__sin_fma",
                                             "exe/?"}));

  ReportPrintOptions po;
  EXPECT_EQ(print_to_string(h, po),
            "#\n"
            "# Total Lost Samples: 0\n"
            "#\n"
            "# Samples: 5  of event 'cpu-clock'\n"
            "# Event count (approx.): 45\n"
            "#\n"
            "# Overhead  Command   Shared Object     Symbol                \n"
            "# ........  ........  ................  ......................\n"
            "#\n"
            "    44.44%  workload  app               [.] loop\n"
            "    22.22%  exe       libm.so.6         [.] __sin_fma\n"
            "    22.22%  workload  libm.so.6         [.] __sin_fma\n"
            "    11.11%  exe       [unknown]         [k] 0x0000000000001234\n"
            "\n\n");
  po.percent_limit = 20;
  EXPECT_EQ(print_to_string(h, po).find("[unknown]  "), std::string::npos);
}

TEST_F(ReportHistTest, ChildrenCountRecursionOnceAndPrintGraphs) {
  Hists h(config(true, true));
  HistSample s;
  s.thread = &work;
  s.comm = "workload";
  s.period = 1;
  // Caller order: main -> loop -> loop -> leaf.
  std::vector<HistFrame> chain = {frame(&app, 0, &main_, 0x150), frame(&app, 0, &loop_, 0x210),
                                  frame(&app, 0, &loop_, 0x220), frame(&app, 0, &leaf_, 0x310)};
  s.self = chain.back();
  s.chain = chain;
  std::vector<uint32_t> plan;
  h.add(s, &plan);
  h.replay(plan, 1);  // a second identical sample
  std::vector<HistFrame> chain2 = {frame(&app, 0, &main_, 0x150), frame(&app, 0, &loop_, 0x210)};
  s.self = chain2.back();
  s.chain = chain2;
  h.add(s);
  h.finish();
  uint64_t main_acc = 0, loop_acc = 0, loop_self = 0, leaf_self = 0;
  for (const HistEntry& e : h.entries()) {
    if (e.sym == &main_) main_acc = e.acc_period;
    if (e.sym == &loop_) loop_acc = e.acc_period, loop_self = e.period;
    if (e.sym == &leaf_) leaf_self = e.period;
  }
  EXPECT_EQ(main_acc, 3u);
  EXPECT_EQ(loop_acc, 3u);  // recursion counted once per sample
  EXPECT_EQ(loop_self, 1u);
  EXPECT_EQ(leaf_self, 2u);
  // Equal Children: the deeper entry (main) first, "caller above callee".
  EXPECT_EQ(h.entry(h.order()[0]).sym, &main_);

  std::string text = print_to_string(h, ReportPrintOptions{});
  EXPECT_NE(text.find("# Children      Self  Command   Shared Object  Symbol  \n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("   100.00%     0.00%  workload  app            [.] main\n"
                      "            |\n"
                      "            ---main\n"
                      "               loop\n"
                      "               |          \n"
                      "                --66.67%--loop\n"
                      "                          leaf\n"
                      "\n"
                      "   100.00%    33.33%  workload  app            [.] loop\n"
                      "            |          \n"
                      "            |--66.67%--loop\n"
                      "            |          loop\n"
                      "            |          leaf\n"
                      "            |          \n"
                      "             --33.33%--main\n"
                      "                       loop\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("    66.67%    66.67%  workload  app            [.] leaf\n"
                      "            |\n"
                      "            ---main\n"
                      "               loop\n"
                      "               loop\n"
                      "               leaf\n"),
            std::string::npos)
      << text;
}

// sort.c _hist_entry__sym_snprintf(): a data symbol (STT_OBJECT) prints "name+0xOFF" with
// OFF = he->ip - map->unmap_ip(map, sym->start). A call-chain entry's ip is an address, so
// its offset is from the symbol's address, not the huge difference between an address and a
// map-relative start.
TEST_F(ReportHistTest, DataSymbolInACallChainCountsFromItsAddress) {
  Symbol type_{0x1000, 0x1100, "PyFunction_Type", kBindGlobal, kTypeObject};
  Hists h(config(true, true));
  HistSample s;
  s.thread = &work;
  s.comm = "workload";
  s.period = 1;
  // The library is mapped at 0x7f0000000000: addresses are 0x7f0000000000 above the symbols'.
  HistFrame data = frame(&libm, 1, &type_, 0x7f0000001010);
  data.addr = 0x1010;
  data.sym_addr = 0x1010;
  HistFrame leaf = frame(&app, 0, &leaf_, 0x310);
  leaf.sym_addr = 0x310;
  std::vector<HistFrame> chain = {data, leaf};
  s.self = leaf;
  s.chain = chain;
  h.add(s);
  h.finish();
  std::string text = print_to_string(h, ReportPrintOptions{});
  EXPECT_NE(text.find("[.] PyFunction_Type+0x10\n"), std::string::npos) << text;
}

// thread.c ____thread__set_comm(): a thread's first COMM renames its ":tid" comm in place, so
// the entries made before it print the real name, and merge at collapse with the entries of
// that name (their call chains merged: callchain_merge()).
TEST_F(ReportHistTest, PlaceholderCommsTakeTheNameTheThreadGetsLater) {
  Thread early;  // seen before its COMM (no FORK, no synthesized comm)
  early.pid = early.tid = 77;
  early.comms.push_back(Comm{":77", 0, false});
  Thread other = make_thread(78, "ls");
  HistConfig c = config(false, true);
  Hists h(c);
  auto add = [&](Thread& t, std::string_view comm, std::vector<HistFrame> chain, uint64_t p) {
    HistSample s;
    s.thread = &t;
    s.comm = comm;
    s.placeholder_comm = !t.comm_set;
    s.period = p;
    s.self = chain.front();
    s.chain = chain;
    h.add(s);
  };
  // Callee order: leaf first.
  add(early, ":77", {frame(&app, 0, &leaf_, 0x310), frame(&app, 0, &main_, 0x150)}, 1);
  add(other, "ls", {frame(&app, 0, &leaf_, 0x310), frame(&app, 0, &loop_, 0x210)}, 2);
  early.set_comm("ls", 100, true);
  add(early, "ls", {frame(&app, 0, &leaf_, 0x320), frame(&app, 0, &main_, 0x160)}, 4);
  h.finish();
  ASSERT_EQ(h.order().size(), 1u);
  const HistEntry& e = h.entry(h.order()[0]);
  EXPECT_EQ(h.comm_name(e.comm), "ls");
  EXPECT_EQ(e.period, 7u);
  EXPECT_EQ(e.nr_events, 3u);
  std::string text = print_to_string(h, ReportPrintOptions{});
  EXPECT_EQ(text.find(":77"), std::string::npos) << text;
  // Both chains under the one entry: leaf, then main (1 + 4 of 7) and loop (2).
  EXPECT_NE(text.find("   100.00%  ls       app            [.] leaf\n"
                      "            |\n"
                      "            ---leaf\n"
                      "               |          \n"
                      "               |--71.43%--main\n"
                      "               |          \n"
                      "                --28.57%--loop\n"),
            std::string::npos)
      << text;
}

// RepeatCache defers hits and replays each key's samples at once: the histogram must come out
// as if each had been replayed on its own.
TEST_F(ReportHistTest, ReplayOfManySamplesEqualsEachReplayed) {
  auto build = [&](bool batched) {
    auto h = std::make_unique<Hists>(config(true, true));
    HistSample s;
    s.thread = &work;
    s.comm = "workload";
    s.period = 1;
    std::vector<HistFrame> chain = {frame(&app, 0, &main_, 0x150), frame(&app, 0, &loop_, 0x210),
                                    frame(&app, 0, &leaf_, 0x310)};
    s.self = chain.back();
    s.chain = chain;
    std::vector<uint32_t> plan;
    h->add(s, &plan);
    if (batched) {
      h->replay(plan, 2 + 3 + 5, 3);
    } else {
      for (uint64_t period : {2, 3, 5}) h->replay(plan, period);
    }
    h->finish();
    return h;
  };
  std::unique_ptr<Hists> one_by_one = build(false), batched = build(true);
  ASSERT_EQ(one_by_one->entries().size(), batched->entries().size());
  for (size_t i = 0; i < batched->entries().size(); ++i) {
    const HistEntry& a = one_by_one->entries()[i];
    const HistEntry& b = batched->entries()[i];
    EXPECT_EQ(a.period, b.period);
    EXPECT_EQ(a.nr_events, b.nr_events);
    EXPECT_EQ(a.acc_period, b.acc_period);
    EXPECT_EQ(a.acc_events, b.acc_events);
  }
  EXPECT_EQ(batched->entries()[0].nr_events, 4u);
  ASSERT_EQ(one_by_one->tree().size(), batched->tree().size());
  for (CallTree::NodeId n = 0; n < batched->tree().size(); ++n) {
    EXPECT_EQ(one_by_one->tree().node(n).hit, batched->tree().node(n).hit);
    EXPECT_EQ(one_by_one->tree().node(n).count, batched->tree().node(n).count);
  }
  ReportPrintOptions po;
  po.chain_value = ChainValue::kCount;  // the call-graph nodes print their sample counts
  EXPECT_EQ(print_to_string(*one_by_one, po), print_to_string(*batched, po));
}

// Two keys sharing a prefix, with their plans.
class RepeatCacheTest : public ::testing::Test {
 protected:
  static void NoReplay(std::span<const uint32_t>, uint64_t, uint64_t) {}
  void SetUp() override {
    c.insert(RepeatCache::hash(k1), p1, NoReplay);
    c.insert(RepeatCache::hash(k2), p2, NoReplay);
  }
  size_t Slot(const std::vector<uint64_t>& k) { return c.find_slot(RepeatCache::hash(k)); }
  RepeatCache c;
  std::vector<uint64_t> k1 = {1, 2, 3}, k2 = {1, 2, 4};
  std::vector<uint32_t> p1 = {7, 0}, p2 = {8, 0, 9};
};

TEST_F(RepeatCacheTest, DeferredHitsDrainOncePerKey) {
  ASSERT_NE(Slot(k1), RepeatCache::kNone);
  ASSERT_NE(Slot(k2), RepeatCache::kNone);
  c.defer(Slot(k1), 5);
  c.defer(Slot(k1), 7);
  c.defer(Slot(k2), 3);
  using Replay = std::tuple<uint32_t, uint64_t, uint64_t>;  // plan's first word, period, count
  std::vector<Replay> got;
  auto collect = [&](std::span<const uint32_t> plan, uint64_t period, uint64_t count) {
    got.emplace_back(plan[0], period, count);
  };
  c.drain(collect);
  std::sort(got.begin(), got.end());
  EXPECT_EQ(got, (std::vector<Replay>{{7, 12, 2}, {8, 3, 1}}));
  got.clear();
  c.drain(collect);  // drained: nothing twice
  EXPECT_TRUE(got.empty());
  std::vector<uint64_t> k3 = {9};
  c.insert(RepeatCache::hash(k3), p1, NoReplay);  // a key added after a drain defers anew
  c.defer(Slot(k3), 4);
  c.drain(collect);
  EXPECT_EQ(got, (std::vector<Replay>{{7, 4, 1}}));
}

TEST_F(RepeatCacheTest, StartingOverReplaysWhatWasDeferred) {
  c.defer(Slot(k1), 5);
  // A plan past the bound on stored plan words (8 Mi): the next insert starts over.
  std::vector<uint64_t> k_huge = {5};
  std::vector<uint32_t> huge((size_t{8} << 20) + 1, 3);
  c.insert(RepeatCache::hash(k_huge), huge, NoReplay);
  std::vector<std::tuple<uint32_t, uint64_t, uint64_t>> got;
  std::vector<uint64_t> k3 = {9};
  c.insert(RepeatCache::hash(k3), p1,
           [&](std::span<const uint32_t> plan, uint64_t period, uint64_t count) {
             got.emplace_back(plan[0], period, count);
           });
  EXPECT_EQ(got, (std::vector<std::tuple<uint32_t, uint64_t, uint64_t>>{{7, 5, 1}}));
  EXPECT_EQ(Slot(k1), RepeatCache::kNone);
  EXPECT_NE(Slot(k3), RepeatCache::kNone);
}

// Hashes that collide in part (the same table slot and tag, or the same low half) are other
// keys, and enough keys to grow the table several times over: each still finds its own plan.
TEST_F(RepeatCacheTest, PartlyCollidingHashesAndGrowthKeepEveryKey) {
  const RepeatCache::Hash a{0x1234567800000042, 1}, b{0x1234567800000042, 2},
      d{0x1234567800000042 ^ (uint64_t{1} << 40), 1};
  c.insert(a, std::vector<uint32_t>{1}, NoReplay);
  c.insert(b, std::vector<uint32_t>{2}, NoReplay);  // the same low half
  c.insert(d, std::vector<uint32_t>{3}, NoReplay);  // the same slot, another tag
  for (uint32_t i = 0; i < 20000; ++i) {
    std::vector<uint64_t> k = {1000 + i, i};
    c.insert(RepeatCache::hash(k), std::vector<uint32_t>{10 + i}, NoReplay);
  }
  EXPECT_EQ(c.find(a)[0], 1u);
  EXPECT_EQ(c.find(b)[0], 2u);
  EXPECT_EQ(c.find(d)[0], 3u);
  EXPECT_TRUE(c.find(RepeatCache::Hash{0x1234567800000042, 3}).empty());
  for (uint32_t i = 0; i < 20000; i += 997) {
    std::vector<uint64_t> k = {1000 + i, i};
    ASSERT_EQ(c.find(RepeatCache::hash(k))[0], 10 + i);
  }
  EXPECT_EQ(c.find(RepeatCache::hash(k1))[0], 7u);
  // Keys that differ in one word hash apart.
  EXPECT_NE(RepeatCache::hash(k1), RepeatCache::hash(k2));
}

TEST_F(RepeatCacheTest, FindsWhatWasInserted) {
  auto f1 = c.find(RepeatCache::hash(k1));
  ASSERT_EQ(f1.size(), 2u);
  EXPECT_EQ(f1[0], 7u);
  EXPECT_EQ(c.find(RepeatCache::hash(k2)).size(), 3u);
  c.clear();
  EXPECT_TRUE(c.find(RepeatCache::hash(k1)).empty());
}

// Issue #16: samples at garbage user addresses (no map, no symbol) of equal period tie in
// every sort key but sort__sym_cmp(), which compares their ips as (int64_t)(right - left):
// that wraps for addresses 2^63 or more apart, so the "order" is no order and perf prints
// the entries as its rb-trees (entries_in, then the collapsed tree, comm being a sort key)
// end up holding them. The expected order is what perf 6.1 printed for this very file
// (`perf report --stdio --no-children --sort comm,dso,sym`, and the same with `--sort sym`, of
// these samples written to a file).
TEST(ReportSortTiesTest, UnresolvedAddressesInPerfsTreeOrder) {
  const std::vector<uint64_t> ips = {
      0x391b72d93cc40302, 0xc8e3726b5cc40302, 0x00005608aaebc2a8, 0x8000000000000123,
      0x0000000000001000, 0xf000000000000000, 0x7fffffffffff0000, 0xc8e3726b5cc40000,
      0x391b72d93cc40000, 0x4000000000000000,
  };
  readperf::testing::PerfDataBuilder b;
  b.AddAttr(readperf::testing::SampleAttr(kSampleIp | kSampleTid | kSampleTime | kSamplePeriod),
            {});
  b.AddComm(7, 7, "garbage", {.pid = 7, .tid = 7, .time = 1});
  uint64_t time = 10;
  for (uint64_t ip : ips)
    b.AddSample({.ip = ip, .pid = 7, .tid = 7, .time = time++, .period = 1000});
  b.AddFinishedRound();
  const std::vector<uint64_t> perf_order = {
      0xc8e3726b5cc40000, 0xc8e3726b5cc40302, 0xf000000000000000, 0x0000000000001000,
      0x00005608aaebc2a8, 0x391b72d93cc40000, 0x391b72d93cc40302, 0x4000000000000000,
      0x7fffffffffff0000, 0x8000000000000123,
  };
  const std::vector<std::byte> bytes = b.Build();
  for (const char* keys : {"comm,dso,sym", "sym"}) {
    SCOPED_TRACE(keys);
    auto data = PerfData::open_bytes(bytes);
    ASSERT_TRUE(data) << data.error().message();
    ReportSetup setup;
    setup.hist.sort = *parse_sort_keys(keys);
    Result<ReportData> r = run_report_session(**data, setup);
    ASSERT_TRUE(r) << r.error().message();
    const Hists* h = nullptr;
    for (const auto& hist : r->hists) {
      if (hist) h = hist.get();
    }
    ASSERT_NE(h, nullptr);
    std::vector<uint64_t> order;
    for (uint32_t id : h->order()) order.push_back(h->entry(id).ip);
    EXPECT_EQ(order, perf_order);
  }
}

}  // namespace
}  // namespace readperf
