// The session model against perf's rules (util/machine.c, thread.c, maps.c): threads and
// their comms, pid/tid reuse, maps over time and across FORK, the kernel's maps.
#include <gtest/gtest.h>

#include "readperf/format/perf_abi.h"
#include "readperf/session/machine.h"

namespace readperf {
namespace {

MmapEvent UserMmap(int32_t pid, int32_t tid, uint64_t start, uint64_t len, std::string_view file,
                   uint64_t pgoff = 0) {
  MmapEvent e;
  e.is_mmap2 = true;
  e.pid = pid;
  e.tid = tid;
  e.start = start;
  e.len = len;
  e.pgoff = pgoff;
  e.prot = kProtRead | kProtExec;
  e.filename = file;
  return e;
}

std::string DsoAt(Machine& m, int32_t pid, int32_t tid, uint8_t cpumode, uint64_t addr) {
  Thread* t = m.findnew_thread(pid, tid);
  char level = 0;
  const Map* map = m.find_map(*t, cpumode, addr, &level);
  if (map) return map->dso->long_name;
  return level == 'H' ? "[hypervisor]" : "<not found>";
}

TEST(Machine, NewThreadIsNamedAfterItsTid) {
  Machine m;
  Thread* t = m.findnew_thread(10, 11);
  EXPECT_EQ(t->comm_str(), ":11");
  EXPECT_FALSE(t->comm_set);
  EXPECT_EQ(m.findnew_thread(10, 11), t);
}

TEST(Machine, IdleThreadIsSwapper) {
  Machine m;
  m.idle_thread();
  EXPECT_EQ(m.findnew_thread(0, 0)->comm_str(), "swapper");
}

TEST(Machine, CommOverridesDefaultThenStacks) {
  Machine m;
  m.process_comm(CommEvent{5, 5, "perf-exec", false}, 100);
  Thread* t = m.find_thread(5, 5);
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(t->comms.size(), 1u);
  m.process_comm(CommEvent{5, 5, "workload", true}, 200);
  EXPECT_EQ(t->comm_str(), "workload");
  EXPECT_EQ(t->comms.size(), 2u);
  EXPECT_EQ(t->comm_at(150).str, "perf-exec");
  EXPECT_EQ(t->comm_at(250).str, "workload");
  EXPECT_TRUE(m.comm_exec());
}

TEST(Machine, ThreadsShareTheirLeadersMaps) {
  Machine m;
  m.process_mmap(UserMmap(7, 7, 0x1000, 0x1000, "/bin/a"), kMiscUser);
  EXPECT_EQ(DsoAt(m, 7, 8, kMiscUser, 0x1800), "/bin/a");
  // A map added through a thread is seen by the whole process.
  m.process_mmap(UserMmap(7, 8, 0x5000, 0x1000, "/lib/b.so"), kMiscUser);
  EXPECT_EQ(DsoAt(m, 7, 7, kMiscUser, 0x5000), "/lib/b.so");
  EXPECT_EQ(DsoAt(m, 7, 7, kMiscUser, 0x9000), "<not found>");
}

TEST(Machine, ThreadOfUnknownPidJoinsItsProcessLater) {
  Machine m;
  m.process_mmap(UserMmap(3, 3, 0x1000, 0x1000, "/bin/x"), kMiscUser);
  Thread* t = m.findnew_thread(-1, 4);
  EXPECT_EQ(t->pid, -1);
  EXPECT_EQ(DsoAt(m, -1, 4, kMiscUser, 0x1000), "<not found>");
  m.findnew_thread(3, 4);
  EXPECT_EQ(t->pid, 3);
  EXPECT_EQ(DsoAt(m, 3, 4, kMiscUser, 0x1000), "/bin/x");
}

TEST(Machine, LaterMapsCutOlderOnes) {
  Machine m;
  m.process_mmap(UserMmap(1, 1, 0x1000, 0x3000, "/old", 0x100), kMiscUser);
  m.process_mmap(UserMmap(1, 1, 0x2000, 0x1000, "/new"), kMiscUser);
  EXPECT_EQ(DsoAt(m, 1, 1, kMiscUser, 0x1fff), "/old");
  EXPECT_EQ(DsoAt(m, 1, 1, kMiscUser, 0x2000), "/new");
  EXPECT_EQ(DsoAt(m, 1, 1, kMiscUser, 0x3000), "/old");
  Thread* t = m.find_thread(1, 1);
  const Map* after = t->maps->find(0x3000);
  ASSERT_NE(after, nullptr);
  EXPECT_EQ(after->start, 0x3000u);
  EXPECT_EQ(after->pgoff, 0x100u + 0x2000u);  // the tail keeps its file offset
  EXPECT_EQ(t->maps->size(), 3u);
}

TEST(Machine, ForkCopiesCommAndMapsOfANewProcess) {
  Machine m;
  m.process_comm(CommEvent{1, 1, "parent", false}, 10);
  m.process_mmap(UserMmap(1, 1, 0x1000, 0x1000, "/bin/p"), kMiscUser);
  Machine::ForkResult r = m.process_fork(TaskEvent{2, 1, 2, 1, 20, 0}, 20);
  EXPECT_FALSE(r.removed_parent);
  Thread* child = m.find_thread(2, 2);
  ASSERT_NE(child, nullptr);
  EXPECT_EQ(child->comm_str(), "parent");
  EXPECT_EQ(child->ppid, 1);
  EXPECT_EQ(DsoAt(m, 2, 2, kMiscUser, 0x1000), "/bin/p");
  // The copy is the child's own: the parent's later maps do not reach it.
  m.process_mmap(UserMmap(1, 1, 0x8000, 0x1000, "/lib/late.so"), kMiscUser);
  EXPECT_EQ(DsoAt(m, 2, 2, kMiscUser, 0x8000), "<not found>");
}

// Map::id is perf's `struct map` identity, which report --children compares (hist.c
// hists__findnew_entry()): threads of a process share their maps, a forked process has copies
// (maps__clone()), and the pieces left of a cut map are new maps (maps__fixup_overlappings()).
TEST(Machine, MapIdsFollowPerfsMapStructs) {
  Machine m;
  m.process_mmap(UserMmap(1, 1, 0x1000, 0x3000, "/bin/p"), kMiscUser);
  m.findnew_thread(1, 5);
  auto id_at = [&](int32_t pid, int32_t tid, uint64_t addr) {
    const Map* map = m.find_thread(pid, tid)->maps->find(addr);
    return map ? map->id : 0u;
  };
  const uint32_t first = id_at(1, 1, 0x1000);
  EXPECT_NE(first, 0u);
  EXPECT_EQ(id_at(1, 5, 0x1000), first);
  m.process_fork(TaskEvent{2, 1, 2, 1, 20, 0}, 20);
  const uint32_t copy = id_at(2, 2, 0x1000);
  EXPECT_NE(copy, 0u);
  EXPECT_NE(copy, first);
  m.process_mmap(UserMmap(1, 1, 0x2000, 0x1000, "/lib/new.so"), kMiscUser);
  const uint32_t before = id_at(1, 1, 0x1000), cut = id_at(1, 1, 0x2000),
                 after = id_at(1, 1, 0x3000);
  EXPECT_NE(before, first);
  EXPECT_NE(after, first);
  EXPECT_NE(before, after);
  EXPECT_NE(cut, before);
  EXPECT_EQ(id_at(2, 2, 0x1000), copy);  // the child's copy is untouched
}

TEST(Machine, SynthesizedForkDoesNotCopyMaps) {
  Machine m;
  m.process_mmap(UserMmap(1, 1, 0x1000, 0x1000, "/bin/p"), kMiscUser);
  m.process_fork(TaskEvent{2, 1, 2, 1, 0, kMiscForkExec}, 0);
  EXPECT_EQ(DsoAt(m, 2, 2, kMiscUser, 0x1000), "<not found>");
}

TEST(Machine, ForkReplacesAReusedTid) {
  Machine m;
  m.process_comm(CommEvent{9, 9, "old", false}, 1);
  m.process_exit(TaskEvent{9, 1, 9, 1, 2, 0});
  EXPECT_TRUE(m.find_thread(9, 9)->dead);
  m.process_fork(TaskEvent{9, 1, 9, 1, 3, 0}, 3);
  Thread* t = m.find_thread(9, 9);
  EXPECT_FALSE(t->dead);
  EXPECT_EQ(t->comm_str(), ":9");
}

TEST(Machine, ForkDropsAParentOfAnotherProcess) {
  Machine m;
  m.findnew_thread(50, 51);  // tid 51 known as a thread of process 50
  Machine::ForkResult r = m.process_fork(TaskEvent{60, 51, 60, 51, 5, 0}, 5);
  EXPECT_TRUE(r.removed_parent);
  EXPECT_EQ(r.removed_pid, 50);
  EXPECT_EQ(r.removed_tid, 51);
  EXPECT_EQ(m.find_thread(51, 51)->pid, 51);
}

TEST(Machine, AnonymousExecutableMapsAreNamedAfterThePid) {
  Machine m;
  m.process_mmap(UserMmap(42, 42, 0x1000, 0x1000, "//anon"), kMiscUser);
  EXPECT_EQ(DsoAt(m, 42, 42, kMiscUser, 0x1000), "/tmp/perf-42.map");
}

TEST(Machine, KernelMapsFromTheKernelMmapAndModules) {
  Machine m;
  MmapEvent k = UserMmap(-1, 0, 0xffffffff81000000, 0x1000000, "[kernel.kallsyms]_text");
  m.process_mmap(k, kMiscKernel);
  MmapEvent mod =
      UserMmap(-1, 0, 0xffffffffc0000000, 0x5000, "/lib/modules/6.1/kernel/fs/ext4-x.ko");
  m.process_mmap(mod, kMiscKernel);
  EXPECT_EQ(DsoAt(m, 1, 1, kMiscKernel, 0xffffffff81000010), "[kernel.kallsyms]");
  EXPECT_EQ(DsoAt(m, 1, 1, kMiscKernel, 0xffffffffc0000010),
            "/lib/modules/6.1/kernel/fs/ext4-x.ko");
  EXPECT_EQ(m.dsos().find("/lib/modules/6.1/kernel/fs/ext4-x.ko")->short_name, "[ext4_x]");
  EXPECT_EQ(DsoAt(m, 1, 1, kMiscUser, 0xffffffff81000010), "<not found>");
  EXPECT_EQ(DsoAt(m, 1, 1, kMiscHypervisor, 0x10), "[hypervisor]");
}

TEST(Machine, VdsoKeepsItsName) {
  Machine m;
  m.process_mmap(UserMmap(1, 1, 0x7000, 0x2000, "[vdso]", 0x55), kMiscUser);
  Thread* t = m.find_thread(1, 1);
  const Map* map = t->maps->find(0x7000);
  ASSERT_NE(map, nullptr);
  EXPECT_EQ(map->dso->long_name, "[vdso]");
  EXPECT_EQ(map->pgoff, 0u);
}

TEST(ModuleShortName, FollowsKmodPathParse) {
  EXPECT_EQ(module_short_name("/lib/modules/x/kernel/net/nf_nat-ipv4.ko"), "[nf_nat_ipv4]");
  EXPECT_EQ(module_short_name("/lib/modules/x/a.ko.xz"), "[a]");
  EXPECT_EQ(module_short_name("/lib/modules/x/a-b.ko.gz"), "[a_b]");
  // dso.c compressions[]: gz and xz only, so a .ko.zst is no module to perf 6.1.
  EXPECT_EQ(module_short_name("/lib/modules/x/a.ko.zst"), "a.ko.zst");
  EXPECT_EQ(module_short_name("[bpf_prog]"), "[bpf_prog]");
  EXPECT_EQ(module_short_name("/usr/lib/libc.so.6"), "libc.so.6");
}

}  // namespace
}  // namespace readperf
