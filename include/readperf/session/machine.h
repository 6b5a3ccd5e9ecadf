// What a recording's records say about the machine it ran on, as perf's util/machine.c models
// it: the threads (COMM, FORK, EXIT, with pid/tid reuse), each process's maps over time (MMAP,
// MMAP2, inherited at FORK), the kernel's maps (the "[kernel.kallsyms]_text" MMAP, modules,
// KSYMBOL) and the Dsos behind them. Records must be applied in perf's delivery order.
//
//   Machine m;
//   m.idle_thread();                                   // perf registers "swapper" first
//   m.process_mmap(mmap_event, cpumode);
//   Thread* t = m.findnew_thread(sample.pid, sample.tid);
//   char level;
//   const Map* map = m.find_map(*t, sample.cpumode(), sample.ip, &level);
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "readperf/session/cgroups.h"
#include "readperf/session/dso.h"
#include "readperf/session/events.h"
#include "readperf/session/map.h"
#include "readperf/session/thread.h"

namespace readperf {

class Machine {
 public:
  Machine();
  Machine(const Machine&) = delete;
  Machine& operator=(const Machine&) = delete;

  // machine__findnew_thread(): the thread of `tid`, created if unknown. A known thread whose
  // pid was unknown (-1) learns it here and joins its process's maps.
  Thread* findnew_thread(int32_t pid, int32_t tid);
  // machine__find_thread(): the same without creating.
  Thread* find_thread(int32_t pid, int32_t tid);
  // machine__idle_thread(): thread 0/0, named "swapper".
  Thread* idle_thread();

  // machine__process_comm_event().
  void process_comm(const CommEvent& e, uint64_t time);
  // machine__process_fork_event(). When a thread already known under the parent's tid
  // belonged to another process, perf drops it and says so; the result tells which.
  struct ForkResult {
    bool removed_parent = false;
    int32_t removed_pid = 0;
    int32_t removed_tid = 0;
  };
  ForkResult process_fork(const TaskEvent& e, uint64_t time);
  // machine__process_exit_event().
  void process_exit(const TaskEvent& e);
  // machine__process_mmap_event() / machine__process_mmap2_event(); `cpumode` is the
  // record's misc & 7 (kernel and guest-kernel maps go to the kernel's maps).
  void process_mmap(const MmapEvent& e, uint8_t cpumode);
  // machine__process_ksymbol().
  void process_ksymbol(const KsymbolEvent& e);
  // __event_process_build_id(): a build-id table entry names a Dso before any MMAP does.
  void process_build_id(const BuildIdEvent& e);
  // machine.c machine__process_cgroup_event(): the cgroup paths of the session (perf_env's).
  CgroupTable& cgroups() { return cgroups_; }
  const CgroupTable& cgroups() const { return cgroups_; }

  // thread__find_map(): the map of `addr` for a sample of `cpumode`. `level` gets perf's
  // al->level: 'k' kernel, '.' user, 'H' for cpumodes perf does not resolve (no map then).
  const Map* find_map(const Thread& t, uint8_t cpumode, uint64_t addr, char* level) const;

  Maps& kernel_maps() { return kernel_maps_; }
  const Maps& kernel_maps() const { return kernel_maps_; }
  const Map* vmlinux_map() const;
  // map.c map__fixup_start/end after the kernel's symbols are loaded: the kernel map then
  // spans its first symbol's start to its last symbol's end.
  void fixup_kernel_map(uint64_t start, uint64_t end);
  // symbol-elf.c dso__process_kernel_symbol() reading a vmlinux: the kernel map becomes its
  // .text section, [start, end) at file offset `pgoff` (map__map_ip(), no longer identity).
  void remap_kernel_text(uint64_t start, uint64_t end, uint64_t pgoff);
  // ... and another section holding symbols gets a kernel map of its own, [start, end) at
  // `pgoff` (or identity), whose new Dso is named `base`'s short name + `section`
  // ("[kernel.kallsyms].init.text", "[ext4].init.text"). An `end` of 0 reaches the next
  // kernel map (maps__fixup_end()).
  Dso* add_kernel_section_map(const Dso& base, std::string_view section, uint64_t start,
                              uint64_t end, uint64_t pgoff, bool identity);
  // A kernel module read from its .ko: its maps now look symbols up at ip - start + `pgoff`
  // (.text's file offset). Changed in place: Map pointers stay valid.
  void set_kernel_map_pgoff(const Dso* dso, uint64_t pgoff);
  // The first kernel map (in address order) of `dso`, or null.
  const Map* kernel_map_of(const Dso* dso) const;
  // The kernel MMAP's reference symbol: the name after "[kernel.kallsyms]" ("_text") and the
  // record's pgoff, its address at record time (machine.c map__set_kallsyms_ref_reloc_sym;
  // perf ignores a zero pgoff, written when kptr_restrict hid the address).
  struct KernelRef {
    std::string name;
    uint64_t addr = 0;
  };
  const std::optional<KernelRef>& kernel_ref() const { return kernel_ref_; }
  DsoTable& dsos() { return dsos_; }
  bool comm_exec() const { return comm_exec_; }
  size_t thread_count() const { return threads_.size(); }
  // The threads perf's machine->threads holds, in its walk order: 256 buckets by tid modulo
  // 256 (THREADS__TABLE_BITS), each a tree by tid.
  std::vector<const Thread*> threads_in_perf_order() const;

 private:
  Thread* create_thread(int32_t pid, int32_t tid);
  void update_thread_pid(Thread& t, int32_t pid);
  void remove_thread(Thread* t);
  void process_kernel_mmap(const MmapEvent& e);
  // The kernel map becomes `m` (its bounds or mapping changed), kept in address order.
  void replace_kernel_map(const Map& m);
  Dso* vdso_dso();

  std::unordered_map<int32_t, Thread*> threads_;  // by tid
  std::deque<std::unique_ptr<Thread>> storage_;   // every thread ever made (stable pointers)
  Maps kernel_maps_;
  std::optional<uint64_t> vmlinux_start_;  // start of the kernel map in kernel_maps_
  std::optional<KernelRef> kernel_ref_;
  DsoTable dsos_;
  std::deque<Dso> standalone_dsos_;  // KSYMBOL dsos, which perf keeps outside machine->dsos
  bool comm_exec_ = false;
  CgroupTable cgroups_;
};

}  // namespace readperf
