#include "readperf/output/tasks_printer.h"

#include <fmt/format.h>
#include <sys/mman.h>

#include <unordered_map>
#include <vector>

#include "readperf/format/perf_abi.h"
#include "readperf/session/machine.h"
#include "readperf/session/session_builder.h"

namespace readperf {

namespace {

// builtin-report.c tasks_setup(): only COMM, EXIT and FORK change the machine (and MMAP,
// MMAP2 for --mmaps); samples make no threads here.
class TasksSink : public EventSink {
 public:
  TasksSink(PerfData& pd, bool with_maps) : builder_(machine_, pd.order()), maps_(with_maps) {
    builder_.begin(pd.features());
  }

  void on_user_record(const RecordView& r) override { builder_.on_user_record(r); }

  void on_kernel_record(const RecordView& r, const Sample& s, const Evsel*) override {
    switch (r.type) {
      case kRecordComm:
      case kRecordExit:
      case kRecordFork:
        builder_.apply(r, s);
        break;
      case kRecordMmap:
      case kRecordMmap2:
        if (maps_) builder_.apply(r, s);
        break;
      default:
        break;
    }
  }

  const Machine& machine() const { return machine_; }

 private:
  Machine machine_;
  SessionBuilder builder_;
  bool maps_;
};

struct Task {
  const Thread* thread = nullptr;
  bool listed = false;
  std::vector<size_t> children;
};

class TaskTree {
 public:
  TaskTree(const Machine& machine, bool with_maps, OutBuffer& out)
      : with_maps_(with_maps), out_(out) {
    for (const Thread* t : machine.threads_in_perf_order()) {
      by_tid_.emplace(t->tid, tasks_.size());
      tasks_.push_back(Task{.thread = t, .listed = false, .children = {}});
    }
  }

  // tasks_list(): each task is linked under its parent, up the chain to a task with no
  // parent (ppid -1), which goes to the top list when first reached.
  Status build() {
    for (size_t i = 0; i < tasks_.size(); ++i) {
      if (tasks_[i].listed) continue;
      size_t at = i;
      while (true) {
        Task& t = tasks_[at];
        if (t.listed) break;
        if (t.thread->ppid == -1) {
          t.listed = true;
          top_.push_back(at);
          break;
        }
        // machine__find_thread(machine, -1, ppid).
        auto parent = by_tid_.find(t.thread->ppid);
        if (parent == by_tid_.end()) return make_error("Error: failed to process tasks");
        t.listed = true;
        tasks_[parent->second].children.push_back(at);
        at = parent->second;
      }
    }
    return {};
  }

  void print() {
    out_.print("# {:>8} {:>8} {:>8}  {}\n", "pid", "tid", "ppid", "comm");
    for (size_t i : top_) print_level(i, 0);
  }

 private:
  // task__print_level(): the line's width before the comm indents the maps.
  void print_level(size_t i, int level) {
    const Thread& t = *tasks_[i].thread;
    std::string head = fmt::format("  {:>8} {:>8} {:>8} |{:>{}}", t.pid, t.tid, t.ppid, "",
                                   static_cast<size_t>(level));
    out_.print("{}{}\n", head, t.comm_str());
    if (with_maps_ && t.maps) {
      // maps__fprintf_task().
      for (const auto& [start, m] : t.maps->entries()) {
        out_.print("{:>{}}  {:x}-{:x} {}{}{}{} {:08x} {} {}\n", "", head.size(), m.start, m.end,
                   m.prot & PROT_READ ? 'r' : '-', m.prot & PROT_WRITE ? 'w' : '-',
                   m.prot & PROT_EXEC ? 'x' : '-', m.flags & MAP_SHARED ? 's' : 'p', m.pgoff,
                   m.dso ? m.dso->ino : 0, m.dso ? m.dso->long_name : "");
      }
    }
    for (size_t c : tasks_[i].children) print_level(c, level + 1);
  }

  bool with_maps_;
  OutBuffer& out_;
  std::vector<Task> tasks_;
  std::unordered_map<int32_t, size_t> by_tid_;
  std::vector<size_t> top_;
};

}  // namespace

Status print_tasks(PerfData& pd, bool with_maps, OutBuffer& out) {
  TasksSink sink(pd, with_maps);
  PerfData::ProcessOptions po;
  po.decode_samples = false;
  if (Status st = pd.process(sink, po); !st) return st;
  TaskTree tree(sink.machine(), with_maps, out);
  if (Status st = tree.build(); !st) return st;
  tree.print();
  return {};
}

}  // namespace readperf
