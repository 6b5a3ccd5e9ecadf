// A thread as perf tracks it (util/thread.c): its pid/tid, the comms it had over time, and
// the maps it shares with the rest of its process.
//
//   const Thread* t = machine.findnew_thread(pid, tid);
//   fmt::print("{}:{}\n", t->comm_str(), t->tid);   // "workload:1234", or ":1234" before any COMM
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "readperf/session/map.h"

namespace readperf {

struct Comm {
  std::string str;
  uint64_t start = 0;  // time it took effect (0: from the start)
  bool exec = false;
};

struct Thread {
  int32_t pid = -1;
  int32_t tid = -1;
  int32_t ppid = -1;
  // perf's thread->nsinfo pid, fixed when the thread is created (0 has none): anonymous
  // executable maps are named "/tmp/perf-<ns_pid>.map" after it.
  int32_t ns_pid = 0;
  bool comm_set = false;    // false while the comm is the default ":<tid>"
  bool dead = false;        // an EXIT was seen (the thread stays findable, as in perf)
  std::vector<Comm> comms;  // oldest first; back() is the current one
  std::shared_ptr<Maps> maps;
  // The cgroup namespace of the thread's latest PERF_RECORD_NAMESPACES (thread.c
  // thread__namespaces(), link_info[CGROUP_NS_INDEX]): `report --sort cgroup_id`. 0/0 before
  // any (perf's hist entry then has no namespaces), as for the idle thread's zeroed ones.
  uint64_t cgroup_ns_dev = 0;
  uint64_t cgroup_ns_ino = 0;

  // thread__comm_str(): the latest comm.
  const std::string& comm_str() const { return comms.back().str; }
  // The comm in effect at `time` (thread__comm_at_time without the exec refinements).
  const Comm& comm_at(uint64_t time) const;
  // ____thread__set_comm(): the first real comm replaces the default one.
  void set_comm(std::string_view str, uint64_t time, bool exec);
};

}  // namespace readperf
