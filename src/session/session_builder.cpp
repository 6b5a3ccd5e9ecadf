#include "readperf/session/session_builder.h"

#include "readperf/format/perf_abi.h"

namespace readperf {

void SessionBuilder::begin(const Features& features) {
  machine_.idle_thread();
  for (const BuildIdRecord& b : features.build_ids) {
    if (b.pid != -1) continue;
    BuildIdEvent e;
    e.misc = b.misc;
    e.pid = b.pid;
    e.build_id = Bytes(reinterpret_cast<const std::byte*>(b.build_id.data()), b.build_id.size());
    e.filename = b.filename;
    machine_.process_build_id(e);
  }
}

void SessionBuilder::on_user_record(const RecordView& r) {
  if (r.type != kRecordHeaderBuildId) return;
  ByteCursor c(r.bytes, order_);
  BuildIdEvent e;
  if (parse_build_id(c, e) && e.pid == -1) machine_.process_build_id(e);
}

Machine::ForkResult SessionBuilder::apply(const RecordView& r, const Sample& s) {
  switch (r.type) {
    case kRecordMmap:
    case kRecordMmap2: {
      MmapEvent e;
      if (parse_mmap(r, order_, e)) machine_.process_mmap(e, r.misc & kMiscCpumodeMask);
      break;
    }
    case kRecordComm: {
      CommEvent e;
      if (parse_comm(r, order_, e)) machine_.process_comm(e, s.time);
      break;
    }
    case kRecordFork: {
      TaskEvent e;
      if (parse_task(r, order_, e)) return machine_.process_fork(e, s.time);
      break;
    }
    case kRecordExit: {
      TaskEvent e;
      if (parse_task(r, order_, e)) machine_.process_exit(e);
      break;
    }
    case kRecordKsymbol: {
      KsymbolEvent e;
      if (parse_ksymbol(r, order_, e)) machine_.process_ksymbol(e);
      break;
    }
    case kRecordNamespaces: {
      // machine.c machine__process_namespaces_event() makes the thread known, and
      // thread__set_namespaces() makes these its namespaces from now on.
      ByteCursor c = r.body(order_);
      int32_t pid = c.s32();
      int32_t tid = c.s32();
      uint64_t nr = c.u64();
      if (!c.ok()) break;
      Thread* t = machine_.findnew_thread(pid, tid);
      // link_info[CGROUP_NS_INDEX] (6): perf copies nr_namespaces entries and reads the
      // seventh whatever nr says (heap garbage past a shorter record's); 0/0 here.
      constexpr uint64_t kCgroupNsIndex = 6;
      t->cgroup_ns_dev = t->cgroup_ns_ino = 0;
      if (nr > kCgroupNsIndex && c.remaining() >= (kCgroupNsIndex + 1) * 16) {
        c.skip(kCgroupNsIndex * 16);
        t->cgroup_ns_dev = c.u64();
        t->cgroup_ns_ino = c.u64();
      }
      break;
    }
    case kRecordCgroup: {
      // machine.c machine__process_cgroup_event(): cgroup__findnew(id, path).
      ByteCursor c = r.body(order_);
      uint64_t id = c.u64();
      std::string_view path = c.cstring();
      if (c.ok()) machine_.cgroups().findnew(id, path);
      break;
    }
    default:
      break;
  }
  return {};
}

}  // namespace readperf
