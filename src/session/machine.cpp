#include "readperf/session/machine.h"

#include <fmt/format.h>

#include <algorithm>

#include "readperf/format/perf_abi.h"

namespace readperf {

namespace {

constexpr std::string_view kKernelMmapName = "[kernel.kallsyms]";
constexpr std::string_view kVdsoName = "[vdso]";

// map.h is_anon_memory() / is_no_dso_memory().
bool is_anon_memory(std::string_view f) {
  return f == "//anon" || f.starts_with("/dev/zero") || f.starts_with("/anon_hugepage");
}
bool is_no_dso_memory(std::string_view f) {
  return f.starts_with("[stack") || f.starts_with("/SYSV") || f == "[heap]";
}

// dso.c __kmod_path__parse() m->kmod, for names that may be of the kernel or a module.
bool looks_like_module(std::string_view long_name) {
  size_t slash = long_name.rfind('/');
  std::string_view name = slash == std::string_view::npos ? long_name : long_name.substr(slash + 1);
  if (!name.empty() && name[0] == '[') {
    return !(name.starts_with("[kernel.kallsyms]") || name.starts_with("[guest.kernel.kallsyms") ||
             name.starts_with("[vdso]") || name.starts_with("[vdso32]") ||
             name.starts_with("[vdsox32]") || name.starts_with("[vsyscall]"));
  }
  return module_short_name(long_name).starts_with("[");
}

// dso.c dso__set_build_id().
void set_build_id(Dso& d, Bytes id) {
  d.build_id.assign(reinterpret_cast<const uint8_t*>(id.data()),
                    reinterpret_cast<const uint8_t*>(id.data()) + id.size());
}

}  // namespace

Machine::Machine() = default;

Thread* Machine::create_thread(int32_t pid, int32_t tid) {
  // thread.c thread__new(): the default comm is ":<tid>"; nsinfo is made from the pid.
  auto t = std::make_unique<Thread>();
  t->pid = pid;
  t->tid = tid;
  t->ns_pid = pid;
  t->comms.push_back(Comm{fmt::format(":{}", tid), 0, false});
  Thread* th = t.get();
  storage_.push_back(std::move(t));
  threads_[tid] = th;
  // thread.c thread__init_maps(): a process leader (or a thread of unknown process) has its
  // own maps; any other thread shares its leader's.
  if (pid == tid || pid == -1) {
    th->maps = std::make_shared<Maps>();
  } else {
    Thread* leader = findnew_thread(pid, pid);
    th->maps = leader->maps;
  }
  return th;
}

void Machine::update_thread_pid(Thread& t, int32_t pid) {
  // machine.c machine__update_thread_pid(): a thread first seen without its pid joins its
  // process once the pid is known.
  if (pid == t.pid || pid == -1 || t.pid != -1) return;
  t.pid = pid;
  if (t.pid == t.tid) return;
  Thread* leader = findnew_thread(pid, pid);
  if (t.maps == leader->maps) return;
  t.maps = leader->maps;
}

Thread* Machine::findnew_thread(int32_t pid, int32_t tid) {
  auto it = threads_.find(tid);
  if (it != threads_.end()) {
    update_thread_pid(*it->second, pid);
    return it->second;
  }
  return create_thread(pid, tid);
}

Thread* Machine::find_thread(int32_t pid, int32_t tid) {
  auto it = threads_.find(tid);
  if (it == threads_.end()) return nullptr;
  update_thread_pid(*it->second, pid);
  return it->second;
}

void Machine::remove_thread(Thread* t) {
  auto it = threads_.find(t->tid);
  if (it != threads_.end() && it->second == t) threads_.erase(it);
}

Thread* Machine::idle_thread() {
  Thread* t = findnew_thread(0, 0);
  t->set_comm("swapper", 0, false);
  return t;
}

void Machine::process_comm(const CommEvent& e, uint64_t time) {
  Thread* t = findnew_thread(e.pid, e.tid);
  if (e.exec) comm_exec_ = true;
  t->set_comm(e.comm, time, e.exec);
}

Machine::ForkResult Machine::process_fork(const TaskEvent& e, uint64_t time) {
  ForkResult result;
  Thread* thread = find_thread(e.pid, e.tid);
  Thread* parent = findnew_thread(e.ppid, e.ptid);
  // A thread under the parent's tid from another process: the fork that ended it was lost.
  if (parent->pid != e.ppid) {
    result = {true, parent->pid, parent->tid};
    remove_thread(parent);
    if (thread == parent) thread = nullptr;
    parent = findnew_thread(e.ppid, e.ptid);
  }
  if (thread) remove_thread(thread);
  thread = findnew_thread(e.pid, e.tid);
  // thread.c thread__fork(): the child starts with the parent's comm, and a new process with
  // a copy of the parent's maps, except for synthesized forks (PERF_RECORD_MISC_FORK_EXEC).
  if (parent->comm_set) thread->set_comm(parent->comm_str(), time, false);
  thread->ppid = parent->tid;
  bool do_maps_clone = !(e.misc & kMiscForkExec);
  if (thread->pid != parent->pid && thread->maps != parent->maps && do_maps_clone) {
    for (const auto& [start, map] : parent->maps->entries()) thread->maps->insert(map);
  }
  return result;
}

void Machine::process_exit(const TaskEvent& e) {
  if (Thread* t = find_thread(e.pid, e.tid)) t->dead = true;
}

Dso* Machine::vdso_dso() {
  // machine.c machine__findnew_vdso(): perf copies its own vdso to a temporary file; the
  // Dso is known by its short name "[vdso]".
  if (Dso* d = dsos_.find_short(kVdsoName)) return d;
  Dso* d = dsos_.findnew(kVdsoName);
  d->running_vdso_copy = true;
  return d;
}

void Machine::process_mmap(const MmapEvent& e, uint8_t cpumode) {
  if (cpumode == kMiscKernel || cpumode == kMiscGuestKernel) {
    process_kernel_mmap(e);
    return;
  }
  Thread* thread = findnew_thread(e.pid, e.tid);
  // map.c map__new().
  std::string_view filename = e.filename;
  bool anon = is_anon_memory(filename) || (e.flags & kMapHugetlb);
  bool no_dso = is_no_dso_memory(filename);
  std::string renamed;
  if ((anon || no_dso) && thread->ns_pid != 0 && (e.prot & kProtExec)) {
    renamed = fmt::format("/tmp/perf-{}.map", thread->ns_pid);
    filename = renamed;
  }
  Map m;
  m.start = e.start;
  m.end = e.start + e.len;
  m.pgoff = e.pgoff;
  m.prot = e.prot;
  m.flags = e.flags;
  m.identity = anon || no_dso;
  if (filename == kVdsoName) {
    m.pgoff = 0;
    m.dso = vdso_dso();
  } else {
    m.dso = dsos_.findnew(filename);
    // dsos.c __dsos__findnew_id(); an MMAP2 with a build-id carries no device and inode.
    Dso& d = *m.dso;
    bool empty = !d.maj && !d.min && !d.ino && !d.ino_generation;
    if (empty && e.is_mmap2 && !e.has_build_id) {
      d.maj = e.maj;
      d.min = e.min;
      d.ino = e.ino;
      d.ino_generation = e.ino_generation;
    }
  }
  if (e.has_build_id) set_build_id(*m.dso, e.build_id);
  thread->maps->insert_fixup(m);
}

const Map* Machine::vmlinux_map() const {
  if (!vmlinux_start_) return nullptr;
  auto it = kernel_maps_.entries().find(*vmlinux_start_);
  return it == kernel_maps_.entries().end() ? nullptr : &it->second;
}

void Machine::fixup_kernel_map(uint64_t start, uint64_t end) {
  const Map* vm = vmlinux_map();
  if (!vm) return;
  Map m = *vm;
  m.start = start;
  m.end = end;
  replace_kernel_map(m);
}

void Machine::remap_kernel_text(uint64_t start, uint64_t end, uint64_t pgoff) {
  const Map* vm = vmlinux_map();
  if (!vm) return;
  Map m = *vm;
  m.start = start;
  m.end = end;
  m.pgoff = pgoff;
  m.identity = false;
  replace_kernel_map(m);
}

void Machine::replace_kernel_map(const Map& m) {
  // maps__remove() and maps__insert(): "Ensure maps are correctly ordered".
  kernel_maps_.remove(*vmlinux_start_);
  kernel_maps_.insert(m);
  vmlinux_start_ = m.start;
}

Dso* Machine::add_kernel_section_map(const Dso& base, std::string_view section, uint64_t start,
                                     uint64_t end, uint64_t pgoff, bool identity) {
  std::string name = base.short_name + std::string(section);
  Dso* d = dsos_.findnew(name);
  d->short_name = name;
  d->space = base.space;
  // dso__process_kernel_symbol() gives the new Dso the base's long name (the kernel's before
  // the vmlinux's replaces it; a module's path).
  d->symsrc_name = base.long_name;
  Map m;
  m.start = start;
  m.end = end;
  m.pgoff = pgoff;
  m.identity = identity;
  m.dso = d;
  if (m.end == 0) {
    auto next = kernel_maps_.entries().upper_bound(start);
    m.end = next == kernel_maps_.entries().end() ? ~uint64_t{0} : next->first;
  }
  kernel_maps_.insert(m);
  return d;
}

void Machine::set_kernel_map_pgoff(const Dso* dso, uint64_t pgoff) {
  kernel_maps_.for_each_mutable([&](Map& m) {
    if (m.dso == dso) m.pgoff = pgoff;
  });
}

const Map* Machine::kernel_map_of(const Dso* dso) const {
  for (const auto& [start, m] : kernel_maps_.entries()) {
    if (m.dso == dso) return &m;
  }
  return nullptr;
}

void Machine::process_kernel_mmap(const MmapEvent& e) {
  // machine.c machine__process_kernel_mmap_event().
  std::string_view name = e.filename.substr(0, std::min<size_t>(e.filename.size(), 255));
  bool is_kernel_mmap = name.starts_with(kKernelMmapName.substr(0, kKernelMmapName.size() - 1));
  uint64_t end = e.start + e.len;
  if (!name.empty() && (name[0] == '/' || (!is_kernel_mmap && name[0] == '['))) {
    Map m;
    m.start = e.start;
    m.end = end;
    m.dso = dsos_.findnew_module(name);
    if (e.has_build_id) set_build_id(*m.dso, e.build_id);
    kernel_maps_.insert(m);
    return;
  }
  if (is_kernel_mmap) {
    // The kernel's Dso may already exist, from the build-id table.
    Dso* kernel = nullptr;
    for (const Dso& d : dsos_.all()) {
      if (d.space == DsoSpace::kUser || looks_like_module(d.long_name)) continue;
      kernel = const_cast<Dso*>(&d);
      break;
    }
    if (!kernel) kernel = dsos_.findnew(kKernelMmapName);
    kernel->space = DsoSpace::kKernel;
    // machine.c __machine__process_kernel_mmap_event(): a kernel the build-id table names by
    // a vmlinux path (perf record found one) is "[kernel.vmlinux]" in every view.
    if (kernel->long_name.find("vmlinux") != std::string::npos) {
      kernel->short_name = "[kernel.vmlinux]";
    }
    if (vmlinux_start_) kernel_maps_.remove(*vmlinux_start_);
    Map m;
    m.start = e.start;
    m.end = end;
    // machine__set_kernel_mmap(): a zero-sized synthesized kernel MMAP covers everything.
    if (e.start == 0 && end == 0) m.end = ~0ull;
    m.dso = kernel;
    m.identity = true;
    kernel_maps_.insert(m);
    vmlinux_start_ = m.start;
    // An MMAP2 with PERF_RECORD_MISC_MMAP_BUILD_ID names the kernel's build-id.
    if (e.has_build_id) set_build_id(*kernel, e.build_id);
    if (e.pgoff != 0) {
      size_t bracket = name.find(']');
      kernel_ref_ = KernelRef{std::string(name.substr(bracket + 1)), e.pgoff};
    }
    return;
  }
  if (name == "__entry_SYSCALL_64_trampoline") {
    // x86_64 page-table-isolation trampolines: extra maps of the kernel's Dso.
    const Map* vm = vmlinux_map();
    if (!vm) return;
    Map m;
    m.start = e.start;
    m.end = end;
    m.pgoff = e.pgoff;
    m.dso = vm->dso;
    kernel_maps_.insert(m);
  }
}

void Machine::process_ksymbol(const KsymbolEvent& e) {
  constexpr uint16_t kUnregister = 1;
  const Map* found = kernel_maps_.find(e.addr);
  if (e.flags & kUnregister) {
    const Map* vm = vmlinux_map();
    if (found && found != vm) kernel_maps_.remove(found->start);
    return;
  }
  if (found) return;
  Dso& d = standalone_dsos_.emplace_back();
  d.long_name = std::string(e.name);
  d.short_name = d.long_name;
  d.space = DsoSpace::kKernel;
  // map.c is_bpf_image(): trampolines and dispatchers get an empty long name.
  if (e.name.starts_with("bpf_trampoline_") || e.name.starts_with("bpf_dispatcher_")) {
    d.long_name.clear();
  }
  Map m;
  m.start = e.addr;
  m.end = e.addr + e.len;
  m.dso = &d;
  kernel_maps_.insert(m);
}

void Machine::process_build_id(const BuildIdEvent& e) {
  // header.c __event_process_build_id() (host machine only).
  uint8_t cpumode = e.misc & kMiscCpumodeMask;
  Dso* d = dsos_.findnew(e.filename);
  d->build_id.assign(reinterpret_cast<const uint8_t*>(e.build_id.data()),
                     reinterpret_cast<const uint8_t*>(e.build_id.data()) + e.build_id.size());
  if (cpumode == kMiscKernel || cpumode == kMiscGuestKernel) {
    d->space = cpumode == kMiscKernel ? DsoSpace::kKernel : DsoSpace::kKernelGuest;
    if (looks_like_module(e.filename)) {
      d->is_module = true;
      d->short_name = module_short_name(e.filename);
    }
  }
}

const Map* Machine::find_map(const Thread& t, uint8_t cpumode, uint64_t addr, char* level) const {
  // event.c thread__find_map() with perf's defaults (host only, no guests).
  if (cpumode == kMiscKernel) {
    *level = 'k';
    return kernel_maps_.find(addr);
  }
  if (cpumode == kMiscUser) {
    *level = '.';
    return t.maps->find(addr);
  }
  *level = 'H';
  return nullptr;
}

std::vector<const Thread*> Machine::threads_in_perf_order() const {
  std::vector<const Thread*> out;
  out.reserve(threads_.size());
  for (const auto& [tid, t] : threads_) out.push_back(t);
  auto bucket = [](int32_t tid) { return static_cast<uint32_t>(tid) % 256; };
  std::sort(out.begin(), out.end(), [&](const Thread* a, const Thread* b) {
    if (bucket(a->tid) != bucket(b->tid)) return bucket(a->tid) < bucket(b->tid);
    return a->tid < b->tid;
  });
  return out;
}

}  // namespace readperf
