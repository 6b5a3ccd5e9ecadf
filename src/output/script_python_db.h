// `script -s` with `perf_db_export_mode = True`: perf 6.1's db-export.c over the Python table
// handlers (trace-event-python.c python_export_*()): each evsel, machine, thread, comm,
// comm_thread, DSO, symbol and call path a sample reaches gets the next id of its kind and one
// call of the script's TABLE_table(...) the first time, then the sample its sample_table(...)
// row; branch_type_table(...) rows come first. Private to the Python engine.
#pragma once

#include <pybind11/pybind11.h>

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

namespace readperf {

struct Sample;
struct Evsel;
struct ResolvedSample;
struct Frame;
struct Thread;
struct Dso;
struct Symbol;
class Resolver;
class Machine;
class EventList;
struct SwitchEvent;

class PythonDbExport {
 public:
  // set_table_handlers(): the script's globals decide (perf_db_export_mode,
  // perf_db_export_callchains, perf_db_export_calls).
  // Returns false when the script does not ask for db-export mode.
  bool setup(const pybind11::dict& globals);
  // The recording's events, whose attrs decide machine->comm_exec with the exec COMMs
  // (session.c perf_session__set_comm_exec(), on each attr of a pipe).
  void set_events(const EventList* events) { events_ = events; }
  // perf_db_export_calls: the call/return processor asked for.
  bool export_calls() const { return export_calls_; }
  // db_export__branch_types().
  void branch_types();
  // db_export__sample().
  // `addr`: a page fault's addr resolved (addr_al), or null.
  void sample(const Sample& s, const Evsel& evsel, const std::string& event_name,
              const ResolvedSample& rs, Resolver& resolver, const Frame* addr);
  // db_export__switch(): the threads of a context switch (and, with a context_switch_table
  // handler, its row) when one of them is known and not the idle task.
  void context_switch(const SwitchEvent& e, const Sample& s, Machine& machine);

 private:
  struct CallPath {
    uint32_t parent;  // index into call_paths_; kNoParent for the root
    uint64_t sym_id;  // the symbol's db id, 0 for none
    uint64_t ip;
    uint64_t db_id = 0;
  };
  static constexpr uint32_t kNoParent = ~0u;

  pybind11::object handler(const pybind11::dict& globals, const char* name);
  // db_export__machine(): the host, once.
  void export_machine();
  // db_export__pid_tid(): a thread with a comm and its main thread exported; its id (0 for
  // none) and its process's exec comm id.
  void pid_tid(Machine& machine, int32_t pid, int32_t tid, uint64_t* thread, uint64_t* comm,
               bool* idle);
  void call(const pybind11::object& h, const pybind11::tuple& t);
  // The thread's id, 0 before it was exported.
  uint64_t exported_thread(const Thread* t) const;
  uint64_t thread_id(const Thread* t, const Thread* main_thread);
  void threads(const Thread* t, const Thread* main_thread, bool comm_exec, uint64_t* comm_id);
  uint64_t comm_id(const Thread* t, size_t index, bool* created);
  uint64_t dso_id(const Dso* dso);
  // A symbol's id; an inline frame's symbol is perf's own object per address and depth
  // (srcline.c new_inline_sym() for each inline_node of dso->inlined_nodes).
  uint64_t symbol_id(const Symbol* sym, const Dso* dso, uint64_t inline_addr = 0,
                     uint32_t inline_depth = 0);
  // db_ids_from_al(); `own_unknown`: a frame without a symbol gets a new "unknown" one even
  // where one was made.
  void ids_from_frame(const Frame& f, uint64_t* dso, uint64_t* sym, uint64_t* offset,
                      bool own_unknown = false);
  // db_ids_from_al(): the DSO and symbol of a frame, an "unknown" symbol made for one with
  // a map and none (inserted into its DSO, so later looks at that address find it).
  const Symbol* frame_symbol(const Frame& f, uint64_t addr, bool lookup_absolute);
  static std::unique_ptr<Symbol> unknown_symbol(uint64_t addr);
  uint32_t call_path(uint32_t parent, uint64_t sym_id, uint64_t ip);
  void export_call_path(uint32_t cp);

  // machine__thread_exec_comm(): the exec comm when the machine has exec COMMs, else the
  // current one.
  bool comm_exec(const Machine& machine) const;

  const EventList* events_ = nullptr;
  bool callchains_ = false;
  bool export_calls_ = false;
  pybind11::object evsel_h_, machine_h_, thread_h_, comm_h_, comm_thread_h_, dso_h_, symbol_h_,
      branch_type_h_, sample_h_, call_path_h_, context_switch_h_;
  uint64_t machine_id_ = 0;
  uint64_t last_thread_ = 0, last_comm_ = 0, last_comm_thread_ = 0, last_dso_ = 0, last_symbol_ = 0,
           last_sample_ = 0, last_call_path_ = 0, last_evsel_ = 0, last_context_switch_ = 0;
  std::vector<uint64_t> evsel_ids_;
  std::unordered_map<const Thread*, std::tuple<int32_t, int32_t, uint64_t>> thread_ids_;
  std::map<std::pair<const Thread*, size_t>, uint64_t> comm_ids_;
  std::unordered_map<const Dso*, uint64_t> dso_ids_;
  std::map<std::tuple<const Symbol*, uint64_t, uint32_t>, uint64_t> symbol_ids_;
  std::map<std::pair<const Dso*, uint64_t>, std::unique_ptr<Symbol>> unknown_symbols_;
  std::vector<std::unique_ptr<Symbol>> extra_unknown_symbols_;  // a second at an address
  std::vector<CallPath> call_paths_;
  std::map<std::tuple<uint32_t, uint64_t, uint64_t>, uint32_t> call_path_index_;
};

}  // namespace readperf
