// When a Machine changed for a process: a resolved sample stays valid, for another sample
// with the same thread, ip and call chain, until a record changes what its process's addresses
// resolve to (its maps, threads or comms) or the kernel's maps. Caches of resolved samples
// (the report's repeat keys, the record stream's) put epoch(pid) in their keys, so that what
// they hold from before a change is never found again.
//
//   MachineEpochs epochs;
//   epochs.note(record, order);                      // before the Machine applies it
//   if (builder.apply(record, s).removed_parent) epochs.change_all();
//   key.push_back(epochs.of(sample.pid));
#pragma once

#include <cstdint>
#include <unordered_map>

#include "readperf/reader/record.h"

namespace readperf {

class MachineEpochs {
 public:
  // Notes what `r` (a side-band record the Machine is about to apply) makes stale: its
  // process's samples, or every one for the kernel's maps and symbols.
  void note(const RecordView& r, ByteOrder order);
  // Everything is stale (a thread lost its parent: session_builder's removed_parent).
  void change_all() { ++global_; }
  // The Machine changed for process `pid`.
  void change(int32_t pid) {
    ++per_pid_[pid];
    last_pid_ = kNoPid;
  }
  // The epoch of `pid`'s samples: equal for two samples only when nothing changed between.
  uint64_t of(int32_t pid) {
    if (pid != last_pid_) {
      auto it = per_pid_.find(pid);
      last_ = it == per_pid_.end() ? 0 : it->second;
      last_pid_ = pid;
    }
    return (global_ << 32) | last_;
  }

 private:
  static constexpr int64_t kNoPid = INT64_MIN;
  std::unordered_map<int32_t, uint32_t> per_pid_;
  uint64_t global_ = 0;
  int64_t last_pid_ = kNoPid;
  uint64_t last_ = 0;
};

}  // namespace readperf
