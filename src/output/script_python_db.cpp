#include "script_python_db.h"

#include <fmt/format.h>

#include <vector>

#include "readperf/analysis/resolver.h"
#include "readperf/format/perf_abi.h"
#include "readperf/reader/event_list.h"
#include "readperf/reader/sample.h"
#include "readperf/reader/side_band.h"
#include "readperf/session/machine.h"
#include "readperf/session/map.h"
#include "readperf/session/thread.h"
#include "readperf/symbols/symbol_table.h"

namespace py = pybind11;

namespace readperf {

namespace {

// tuple_set_d64(): databases take signed 64-bit numbers, so u64s go as s64.
py::int_ d64(uint64_t v) { return py::int_(static_cast<int64_t>(v)); }
py::int_ s32(int64_t v) { return py::int_(static_cast<int32_t>(v)); }

bool truthy(const py::dict& globals, const char* name) {
  if (!globals.contains(name)) return false;
  return PyObject_IsTrue(py::object(globals[name]).ptr()) == 1;
}

// event.h PERF_IP_FLAG_*.
enum : uint32_t {
  kFlagBranch = 1u << 0,
  kFlagCall = 1u << 1,
  kFlagReturn = 1u << 2,
  kFlagConditional = 1u << 3,
  kFlagSyscallRet = 1u << 4,
  kFlagAsync = 1u << 5,
  kFlagInterrupt = 1u << 6,
  kFlagTxAbort = 1u << 7,
  kFlagTraceBegin = 1u << 8,
  kFlagTraceEnd = 1u << 9,
  kFlagVmEntry = 1u << 11,
  kFlagVmExit = 1u << 12,
};

// db-export.c branch_types[].
struct BranchType {
  uint32_t type;
  const char* name;
};
constexpr BranchType kBranchTypes[] = {
    {0, "no branch"},
    {kFlagBranch | kFlagCall, "call"},
    {kFlagBranch | kFlagReturn, "return"},
    {kFlagBranch | kFlagConditional, "conditional jump"},
    {kFlagBranch, "unconditional jump"},
    {kFlagBranch | kFlagCall | kFlagInterrupt, "software interrupt"},
    {kFlagBranch | kFlagReturn | kFlagInterrupt, "return from interrupt"},
    {kFlagBranch | kFlagCall | kFlagSyscallRet, "system call"},
    {kFlagBranch | kFlagReturn | kFlagSyscallRet, "return from system call"},
    {kFlagBranch | kFlagAsync, "asynchronous branch"},
    {kFlagBranch | kFlagCall | kFlagAsync | kFlagInterrupt, "hardware interrupt"},
    {kFlagBranch | kFlagTxAbort, "transaction abort"},
    {kFlagBranch | kFlagTraceBegin, "trace begin"},
    {kFlagBranch | kFlagTraceEnd, "trace end"},
    {kFlagBranch | kFlagCall | kFlagVmEntry, "vm entry"},
    {kFlagBranch | kFlagCall | kFlagVmExit, "vm exit"},
};

// thread.c thread__exec_comm() over a comm list kept oldest first: the newest exec comm, else
// the oldest (its second oldest for a main thread whose oldest has no start time: a
// synthesized fork's parent comm).
size_t exec_comm_index(const Thread& t) {
  for (size_t i = t.comms.size(); i-- > 0;) {
    if (t.comms[i].exec) return i;
  }
  if (t.comms.size() >= 2 && !t.comms[0].start && t.pid == t.tid) return 1;
  return 0;
}

// thread__main_thread(): itself, none without a pid, else the process's thread if known.
const Thread* main_thread_of(Machine& machine, const Thread* t) {
  if (t->pid == t->tid) return t;
  return t->pid == -1 ? nullptr : machine.find_thread(t->pid, t->pid);
}

}  // namespace

py::object PythonDbExport::handler(const py::dict& globals, const char* name) {
  if (!globals.contains(name)) return py::object();
  py::object h = globals[name];
  return PyCallable_Check(h.ptr()) ? h : py::object();
}

void PythonDbExport::call(const py::object& h, const py::tuple& t) {
  if (h) h(*t);
}

bool PythonDbExport::setup(const py::dict& globals) {
  if (!truthy(globals, "perf_db_export_mode")) return false;
  // perf_db_export_calls: a call/return processor whose thread stacks only samples with an
  // addr_al feed (db_export__sample(): page faults here, and the branch samples perf
  // synthesizes from AUX data, which readperf does not): without those its call path root
  // is the callchains' and nothing more is exported. Samples that would feed it are refused
  // (sample()).
  export_calls_ = truthy(globals, "perf_db_export_calls");
  callchains_ = truthy(globals, "perf_db_export_callchains");
  evsel_h_ = handler(globals, "evsel_table");
  machine_h_ = handler(globals, "machine_table");
  thread_h_ = handler(globals, "thread_table");
  comm_h_ = handler(globals, "comm_table");
  comm_thread_h_ = handler(globals, "comm_thread_table");
  dso_h_ = handler(globals, "dso_table");
  symbol_h_ = handler(globals, "symbol_table");
  branch_type_h_ = handler(globals, "branch_type_table");
  sample_h_ = handler(globals, "sample_table");
  call_path_h_ = handler(globals, "call_path_table");
  context_switch_h_ = handler(globals, "context_switch_table");
  call_paths_.push_back({kNoParent, 0, 0});  // call_path_root__new()'s root
  return true;
}

void PythonDbExport::branch_types() {
  for (const BranchType& b : kBranchTypes) {
    call(branch_type_h_, py::make_tuple(s32(b.type), b.name));
  }
  // Trace begin / end variants.
  for (const BranchType& b : kBranchTypes) {
    if (b.type == kFlagBranch || (b.type & (kFlagTraceBegin | kFlagTraceEnd))) continue;
    call(branch_type_h_,
         py::make_tuple(s32(b.type | kFlagTraceBegin), fmt::format("trace begin / {}", b.name)));
    call(branch_type_h_,
         py::make_tuple(s32(b.type | kFlagTraceEnd), fmt::format("{} / trace end", b.name)));
  }
}

uint64_t PythonDbExport::exported_thread(const Thread* t) const {
  // By address and ids: a thread removed and another made at its address is a new one.
  auto it = thread_ids_.find(t);
  if (it == thread_ids_.end() || std::get<0>(it->second) != t->pid ||
      std::get<1>(it->second) != t->tid) {
    return 0;
  }
  return std::get<2>(it->second);
}

uint64_t PythonDbExport::thread_id(const Thread* t, const Thread* main_thread) {
  if (uint64_t known = exported_thread(t)) return known;
  uint64_t id = ++last_thread_;
  thread_ids_[t] = {t->pid, t->tid, id};
  uint64_t main_id = main_thread ? thread_id(main_thread, main_thread) : 0;
  call(thread_h_,
       py::make_tuple(d64(id), d64(machine_id_), d64(main_id), s32(t->pid), s32(t->tid)));
  return id;
}

uint64_t PythonDbExport::comm_id(const Thread* t, size_t index, bool* created) {
  auto [it, fresh] = comm_ids_.try_emplace({t, index}, 0);
  *created = fresh;
  if (fresh) {
    it->second = ++last_comm_;
    const Comm& c = t->comms[index];
    call(comm_h_, py::make_tuple(d64(it->second), c.str, d64(thread_id(t, nullptr)), d64(c.start),
                                 s32(c.exec)));
  }
  return it->second;
}

// db_export__threads().
void PythonDbExport::threads(const Thread* t, const Thread* main_thread, bool comm_exec,
                             uint64_t* comm) {
  const Thread* comm_owner = nullptr;
  size_t comm_index = 0;
  if (main_thread) {
    thread_id(main_thread, main_thread);
    if (!main_thread->comms.empty()) {
      comm_index = comm_exec ? exec_comm_index(*main_thread) : main_thread->comms.size() - 1;
      comm_owner = main_thread;
      bool created = false;
      *comm = comm_id(main_thread, comm_index, &created);
      // db_export__exec_comm(): the comm's main thread, once.
      if (created) {
        call(comm_thread_h_, py::make_tuple(d64(++last_comm_thread_), d64(*comm),
                                            d64(thread_id(main_thread, main_thread))));
      }
    }
  }
  if (t != main_thread) {
    bool exported = exported_thread(t) != 0;
    uint64_t id = thread_id(t, main_thread);
    if (comm_owner && !exported) {
      call(comm_thread_h_, py::make_tuple(d64(++last_comm_thread_), d64(*comm), d64(id)));
    }
  }
  if (!t->comms.empty()) {
    bool created = false;
    comm_id(t, t->comms.size() - 1, &created);
  }
}

uint64_t PythonDbExport::dso_id(const Dso* dso) {
  auto [it, fresh] = dso_ids_.try_emplace(dso, 0);
  if (fresh) {
    it->second = ++last_dso_;
    std::string bid;
    for (uint8_t b : dso->build_id) fmt::format_to(std::back_inserter(bid), "{:02x}", b);
    call(dso_h_, py::make_tuple(d64(it->second), d64(machine_id_), dso->short_name,
                                dso->perf_long_name(), bid));
  }
  return it->second;
}

uint64_t PythonDbExport::symbol_id(const Symbol* sym, const Dso* dso, uint64_t inline_addr,
                                   uint32_t inline_depth) {
  auto [it, fresh] = symbol_ids_.try_emplace({sym, inline_addr, inline_depth}, 0);
  if (fresh) {
    it->second = ++last_symbol_;
    call(symbol_h_, py::make_tuple(d64(it->second), d64(dso ? dso_id(dso) : 0), d64(sym->start),
                                   d64(sym->end), s32(sym->binding), std::string(sym->name)));
  }
  return it->second;
}

// db_ids_from_al(): symbol__new(al->addr, 0, 0, 0, "unknown"), inserted into the DSO.
std::unique_ptr<Symbol> PythonDbExport::unknown_symbol(uint64_t addr) {
  auto sym = std::make_unique<Symbol>();
  sym->start = addr;
  sym->end = addr;
  sym->name = "unknown";
  sym->binding = 0;
  return sym;
}

const Symbol* PythonDbExport::frame_symbol(const Frame& f, uint64_t addr, bool lookup_absolute) {
  if (f.sym) return f.sym;
  // The symbol lookup by the map-relative address finds an "unknown" symbol made there.
  if (auto it = unknown_symbols_.find({f.dso, f.addr}); it != unknown_symbols_.end()) {
    return it->second.get();
  }
  // call_path_from_sample(): dso__find_symbol() by the frame's ip as it is.
  if (lookup_absolute) {
    if (auto it = unknown_symbols_.find({f.dso, f.ip}); it != unknown_symbols_.end()) {
      return it->second.get();
    }
  }
  std::unique_ptr<Symbol> sym = unknown_symbol(addr);
  const Symbol* out = sym.get();
  unknown_symbols_[{f.dso, addr}] = std::move(sym);
  return out;
}

uint32_t PythonDbExport::call_path(uint32_t parent, uint64_t sym_id, uint64_t ip) {
  // call_path__findnew(): a child per symbol, or per ip without one.
  if (sym_id) ip = 0;
  auto [it, fresh] =
      call_path_index_.try_emplace({parent, sym_id, ip}, static_cast<uint32_t>(call_paths_.size()));
  if (fresh) call_paths_.push_back({parent, sym_id, ip});
  return it->second;
}

void PythonDbExport::export_call_path(uint32_t cp) {
  if (call_paths_[cp].db_id) return;
  uint32_t parent = call_paths_[cp].parent;
  if (parent != kNoParent) export_call_path(parent);
  call_paths_[cp].db_id = ++last_call_path_;
  const CallPath& p = call_paths_[cp];
  uint64_t parent_id = parent != kNoParent ? call_paths_[parent].db_id : 0;
  call(call_path_h_, py::make_tuple(d64(p.db_id), d64(parent_id), d64(p.sym_id), d64(p.ip)));
}

bool PythonDbExport::comm_exec(const Machine& machine) const {
  return machine.comm_exec() || (events_ && events_->has_comm_exec());
}

void PythonDbExport::export_machine() {
  if (machine_id_) return;
  machine_id_ = 1;
  call(machine_h_, py::make_tuple(d64(machine_id_), s32(-1), std::string()));  // the host
}

void PythonDbExport::pid_tid(Machine& machine, int32_t pid, int32_t tid, uint64_t* thread,
                             uint64_t* comm, bool* idle) {
  const Thread* t = machine.find_thread(pid, tid);
  if (!t || !t->comm_set) return;
  *idle = t->pid == 0 && t->tid == 0;
  threads(t, main_thread_of(machine, t), comm_exec(machine), comm);
  *thread = exported_thread(t);
}

void PythonDbExport::context_switch(const SwitchEvent& e, const Sample& s, Machine& machine) {
  export_machine();
  uint64_t th_a = 0, th_b = 0, comm_a = 0, comm_b = 0;
  bool idle_a = false, idle_b = false;
  pid_tid(machine, s.pid, s.tid, &th_a, &comm_a, &idle_a);
  if (e.cpu_wide) pid_tid(machine, e.next_prev_pid, e.next_prev_tid, &th_b, &comm_b, &idle_b);
  // Not when both threads are unknown (not traced), or one is and the other is idle.
  if ((!th_a || idle_a) && (!th_b || idle_b)) return;
  uint64_t id = ++last_context_switch_;
  int flags = (e.out ? 1 : 0) | (e.out_preempt ? 2 : 0);
  uint64_t th_out = e.out ? th_a : th_b, th_in = e.out ? th_b : th_a;
  uint64_t comm_out = e.out ? comm_a : comm_b, comm_in = e.out ? comm_b : comm_a;
  call(context_switch_h_,
       py::make_tuple(d64(id), d64(machine_id_), d64(s.time), s32(static_cast<int32_t>(s.cpu)),
                      d64(th_out), d64(comm_out), d64(th_in), d64(comm_in), s32(flags)));
}

// db_ids_from_al(): a frame's DSO, symbol (an "unknown" one made where it has a map and no
// symbol) and offset in it.
void PythonDbExport::ids_from_frame(const Frame& f, uint64_t* dso, uint64_t* sym, uint64_t* offset,
                                    bool own_unknown) {
  if (!f.map || !f.dso) return;
  *dso = dso_id(f.dso);
  const Symbol* s = nullptr;
  if (own_unknown && !f.sym) {
    std::unique_ptr<Symbol> made = unknown_symbol(f.addr);
    s = made.get();
    // Inserted into the DSO: found at that address later, unless one was made there first.
    auto [it, fresh] = unknown_symbols_.try_emplace({f.dso, f.addr}, nullptr);
    (fresh ? it->second : extra_unknown_symbols_.emplace_back()) = std::move(made);
  } else {
    s = frame_symbol(f, f.addr, false);
  }
  *sym = symbol_id(s, f.dso);
  *offset = f.addr - s->start;
}

void PythonDbExport::sample(const Sample& s, const Evsel& evsel, const std::string& event_name,
                            const ResolvedSample& rs, Resolver& resolver, const Frame* addr) {
  if (!rs.thread) return;
  // db_export__evsel(), db_export__machine().
  if (evsel_ids_.size() <= evsel.index) evsel_ids_.resize(evsel.index + 1);
  uint64_t& evsel_id = evsel_ids_[evsel.index];
  if (!evsel_id) {
    evsel_id = ++last_evsel_;
    call(evsel_h_, py::make_tuple(d64(evsel_id), event_name));
  }
  export_machine();
  Machine& machine = resolver.machine();
  const Thread* t = rs.thread;
  const Thread* main_thread = main_thread_of(machine, t);
  uint64_t comm = 0;
  threads(t, main_thread, comm_exec(machine), &comm);
  uint64_t id = ++last_sample_;
  // db_ids_from_al() for the sample's own address.
  // builtin-script.c resolves a page fault's addr (thread__resolve()) before
  // db_export__sample() makes the sample's own "unknown" symbol: an addr without a symbol
  // then gets an "unknown" of its own even at the same address.
  bool addr_unknown = addr && addr->map && addr->dso && !addr->sym &&
                      !unknown_symbols_.count({addr->dso, addr->addr});
  uint64_t dso = 0, sym = 0, offset = 0;
  ids_from_frame(rs.self, &dso, &sym, &offset);
  // call_path_from_sample(): the chain from its root.
  uint64_t call_path_id = 0;
  if (callchains_ && s.has_callchain && !rs.callchain.empty()) {
    uint32_t current = 0;
    // Inline frames come leaf first before the frame they are inlined into, with its ip: an
    // inline frame's depth counts from the innermost.
    std::vector<uint32_t> depth(rs.callchain.size(), 0);
    for (size_t i = 0; i < rs.callchain.size(); ++i) {
      const Frame& f = rs.callchain[i];
      if (f.inlined && i > 0 && rs.callchain[i - 1].inlined && rs.callchain[i - 1].ip == f.ip) {
        depth[i] = depth[i - 1] + 1;
      }
    }
    for (size_t i = rs.callchain.size(); i-- > 0;) {
      const Frame& f = rs.callchain[i];
      uint64_t sym_id = 0;
      if (f.map && f.dso) {
        dso_id(f.dso);
        const Symbol* fsym = frame_symbol(f, f.ip, true);
        bool own = f.inlined && fsym && fsym->inlined;
        sym_id = symbol_id(fsym, f.dso, own ? f.addr + 1 : 0, own ? depth[i] : 0);
      } else if (f.sym) {
        sym_id = symbol_id(f.sym, nullptr);
      }
      current = call_path(current, sym_id, f.ip);
    }
    if (current != 0) {
      export_call_path(current);
      call_path_id = call_paths_[current].db_id;
    }
  }
  uint64_t addr_dso = 0, addr_sym = 0, addr_offset = 0;
  if (addr) ids_from_frame(*addr, &addr_dso, &addr_sym, &addr_offset, addr_unknown);
  uint64_t data_src = s.data_src_or_none();
  py::tuple row = py::make_tuple(
      d64(id), d64(evsel_id), d64(machine_id_), d64(thread_id(t, main_thread)), d64(comm), d64(dso),
      d64(sym), d64(offset), d64(s.ip), d64(s.time), s32(static_cast<int32_t>(s.cpu)),
      d64(addr_dso), d64(addr_sym), d64(addr_offset), d64(s.addr), d64(s.period), d64(s.weight),
      d64(s.transaction), d64(data_src), s32(0), s32(0), d64(call_path_id), d64(0), d64(0), s32(0));
  call(sample_h_, row);
}

}  // namespace readperf
