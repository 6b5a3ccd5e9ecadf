// perf 6.1's Python scripting engine (util/scripting-engines/trace-event-python.c) over the
// script printer's samples, in an interpreter embedded with pybind11.
#include "readperf/output/script_python.h"

#include <fmt/format.h>
#include <pybind11/embed.h>
#include <traceevent/event-parse.h>

#include <bit>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "dump_internal.h"
#include "readperf/analysis/resolver.h"
#include "readperf/format/perf_abi.h"
#include "readperf/output/mem_info.h"
#include "readperf/output/script_list.h"
#include "readperf/output/trace_format.h"
#include "readperf/reader/event_name.h"
#include "readperf/reader/perf_data.h"
#include "readperf/reader/record_swap.h"
#include "readperf/reader/side_band.h"
#include "readperf/session/map.h"
#include "readperf/session/thread.h"
#include "script_python_db.h"
#include "script_python_sample.h"
#include "script_python_side_band.h"
#include "script_trace_args.h"

namespace py = pybind11;

namespace readperf {
namespace {

// What perf_trace_context's functions read through the context capsule.
ScriptingContext g_context;

int common_field(const char* name) { return g_context.common_field(name); }

}  // namespace
}  // namespace readperf

// util/scripting-engines/../../scripts/python/Perf-Trace-Util/Context.c: the module scripts
// import (`from perf_trace_context import *`).
PYBIND11_EMBEDDED_MODULE(perf_trace_context, m) {
  using readperf::common_field;
  m.def("common_pc", [](py::object) { return common_field("common_preempt_count"); });
  m.def("common_flags", [](py::object) { return common_field("common_flags"); });
  m.def("common_lock_depth", [](py::object) { return common_field("common_lock_depth"); });
}

namespace readperf {
namespace {

// print_binary.c is_printable_array(): NUL-terminated, printable or space up to the first
// NUL.
bool is_printable_array(const char* p, size_t len) {
  if (!p || !len || p[len - 1] != 0) return false;
  --len;
  for (size_t i = 0; i < len && p[i]; ++i) {
    unsigned char c = static_cast<unsigned char>(p[i]);
    if (!std::isprint(c) && !std::isspace(c)) return false;
  }
  return true;
}

constexpr const char* kCallsRefused =
    "script -s: perf_db_export_calls on page-fault samples (perf's call/return processor of "
    "their thread stacks) is not supported yet";

class PythonEngine : public ScriptEngine {
 public:
  PythonEngine(std::string script, std::vector<std::string> args, PythonEngineOptions options)
      : script_(std::move(script)), args_(std::move(args)), options_(options) {}

  ~PythonEngine() override {
    // The Python objects go before the interpreter.
    main_ = py::object();
    handlers_.clear();
  }

  Status start(PerfData& data) override {
    if (data.tracing_data()) {
      if (auto tf = TraceFormatter::create(*data.tracing_data())) trace_ = std::move(*tf);
    }
    if (data.features().arch) dict_.set_arch(std::string(normalize_arch(*data.features().arch)));
    std::FILE* fp = std::fopen(script_.c_str(), "r");
    if (!fp) {
      return fail_start(
          fmt::format("Can't open python script \"{}\": {}", script_, std::strerror(errno)));
    }
    std::fclose(fp);
    // cmd_script(): PERF_EXEC_PATH for the scripts (perf's own find Perf-Trace-Util under
    // it): perf_exec_path()'s default when it is not set.
    setenv("PERF_EXEC_PATH", perf_exec_path().c_str(), /*overwrite=*/0);
    interpreter_.emplace(/*init_signal_handlers=*/true);
    py::list argv;
    argv.append(script_);
    for (const std::string& a : args_) argv.append(a);
    py::module_::import("sys").attr("argv") = argv;
    main_ = py::module_::import("__main__").attr("__dict__");
    globals()["__file__"] = script_;
    // PyRun_SimpleFile(): the script's top level as __main__; an exception is printed and
    // the script fails.
    try {
      py::eval_file(script_, globals());
    } catch (py::error_already_set& e) {
      e.restore();
      PyErr_Print();
      return fail_start(fmt::format("Error running python script {}", script_));
    }
    // run_start_sub(): trace_begin() if the script has one.
    if (!call_if_defined("trace_begin")) {
      return fail_start(fmt::format("Error starting python script {}", script_));
    }
    // set_table_handlers(), then db_export__branch_types() in db-export mode.
    try {
      db_mode_ = db_.setup(globals());
      db_.set_events(&data.events());
      if (db_mode_ && db_.export_calls()) {
        for (size_t i = 0; i < data.events().size(); ++i) {
          if (resolves_addr(data.events()[i].attr)) return make_error(kCallsRefused);
        }
      }
      if (db_mode_) db_.branch_types();
    } catch (py::error_already_set& e) {
      e.restore();
      PyErr_Print();
      return fail_start(fmt::format("Error starting python script {}", script_));
    }
    return {};
  }

  void process_sample(const Sample& s, const Evsel& evsel, const ResolvedSample& rs,
                      Resolver& resolver, Bytes /*record*/) override {
    dict_.set_resolver(&resolver);
    // builtin-script.c process_sample_event(): a page fault's addr resolved as well
    // (thread__resolve()).
    addr_frame_.reset();
    if (resolves_addr(evsel.attr) && rs.thread) {
      if (db_mode_ && db_.export_calls() && !failed_) {
        // thread_stack__process() for the sample: readperf has no call/return processor.
        std::fprintf(stderr, "%s\n", kCallsRefused);
        failed_ = true;
      }
      addr_frame_ = resolver.resolve_addr_fb(*rs.thread, s.cpumode(), s.addr);
    }
    guarded([&] {
      if (evsel.attr.type == kTypeTracepoint) {
        process_tracepoint(s, evsel, rs);
      } else if (db_mode_) {
        db_.sample(s, evsel, event_name_of(evsel), rs, resolver,
                   addr_frame_ ? &*addr_frame_ : nullptr);
      } else {
        process_general(s, evsel, rs);
      }
    });
  }

  // python_process_switch(): the context switch table in db-export mode, else the
  // script's context_switch().
  void process_switch(const SwitchEvent& e, const Sample& s, Machine& machine) override {
    guarded([&] {
      if (db_mode_) {
        db_.context_switch(e, s, machine);
      } else if (py::object h = handler("context_switch")) {
        h(*context_switch_args(e, s));
      }
    });
  }

  void process_throttle(const ThrottleEvent& e, const Sample& s) override {
    guarded([&] {
      if (py::object h = handler(e.throttle ? "throttle" : "unthrottle")) h(*throttle_args(e, s));
    });
  }

  void process_auxtrace_error(const AuxtraceErrorEvent& e) override {
    guarded([&] {
      if (py::object h = handler("auxtrace_error")) h(*auxtrace_error_args(e));
    });
  }

  void process_stat(const Evsel& counter, int32_t cpu, int32_t thread, uint64_t time, uint64_t val,
                    uint64_t ena, uint64_t run) override {
    guarded([&] {
      std::string name = stat_handler_name(event_name_of(counter));
      if (py::object h = handler(name.c_str())) h(*stat_args(cpu, thread, time, val, ena, run));
    });
  }

  void process_stat_interval(uint64_t time) override {
    guarded([&] {
      if (py::object h = handler("stat__interval")) h(time);
    });
  }

  Status stop() override {
    if (failed_) return make_error("python script failed");
    if (!call_if_defined("trace_end")) return make_error("python script failed");
    std::fflush(stdout);
    py::module_::import("sys").attr("stdout").attr("flush")();
    return {};
  }

 private:
  py::dict globals() const { return py::reinterpret_borrow<py::dict>(main_); }

  // builtin-script.c process_sample_event(): the samples whose addr is resolved (addr_al).
  static bool resolves_addr(const EventAttr& a) {
    return (a.sample_type & kSampleAddr) && a.addr_correlates_sym();
  }

  // call_object(): a handler that raises has perf print the exception and stop; readperf
  // calls no handler after it and fails at the end.
  template <class F>
  void guarded(F&& f) {
    if (failed_) return;
    try {
      f();
    } catch (py::error_already_set& e) {
      e.restore();
      PyErr_Print();
      failed_ = true;
    }
  }

  // get_handler(): a callable of the script's globals (none for a name that is not one).
  py::object handler(const char* name) {
    auto it = handlers_.find(name);
    if (it != handlers_.end()) return it->second;
    py::object h;
    if (globals().contains(name)) {
      py::object o = globals()[name];
      if (PyCallable_Check(o.ptr())) h = o;
    }
    handlers_.emplace(name, h);
    return h;
  }

  bool call_if_defined(const char* name) {
    py::object h = handler(name);
    if (!h || !PyCallable_Check(h.ptr())) return true;
    try {
      h();
    } catch (py::error_already_set& e) {
      e.restore();
      PyErr_Print();
      return false;
    }
    return true;
  }

  const std::string& event_name_of(const Evsel& evsel) { return names_.of(evsel); }

  // get_perf_sample_dict() with the current sample's addr_al.
  py::dict sample_dict(const Sample& s, const Evsel& evsel, const ResolvedSample& rs,
                       py::list chain) {
    return dict_.build(s, evsel, event_name_of(evsel), rs, std::move(chain),
                       addr_frame_ ? &*addr_frame_ : nullptr);
  }

  bool has_chain(const Sample& s, const ResolvedSample& rs) const {
    return s.has_callchain && !rs.callchain.empty();
  }

  // python_process_general_event(): process_event(param_dict), if the script has one.
  void process_general(const Sample& s, const Evsel& evsel, const ResolvedSample& rs) {
    py::object h = handler("process_event");
    if (!h) return;
    h(sample_dict(s, evsel, rs, dict_.callchain(rs, has_chain(s, rs))));
  }

  // get_field_numeric_entry(): a number, or a list of them for an array, signed as the
  // field is.
  py::object numeric(tep_format_field* f, const char* data) {
    bool array = f->flags & TEP_FIELD_IS_ARRAY;
    unsigned n = array ? static_cast<unsigned>(f->arraylen) : 1;
    unsigned item =
        array && f->arraylen ? static_cast<unsigned>(f->size) / n : static_cast<unsigned>(f->size);
    py::list list;
    py::object obj = py::int_(0);
    for (unsigned i = 0; i < n; ++i) {
      unsigned long long v = tep_read_number(tep_, data + f->offset + i * item, item);
      if (f->flags & TEP_FIELD_IS_SIGNED) {
        // read_size() is unsigned: the signed value as a long of its width.
        long long sv = static_cast<long long>(v);
        if (item == 1) sv = static_cast<int8_t>(v);
        if (item == 2) sv = static_cast<int16_t>(v);
        if (item == 4) sv = static_cast<int32_t>(v);
        obj = py::int_(sv);
      } else {
        obj = py::int_(v);
      }
      if (array) list.append(obj);
    }
    return array ? py::object(list) : obj;
  }

  // try_call_object(): the script's function if it has one (Core.py's define_*).
  void try_call(const char* name, const py::tuple& args) {
    py::object h = handler(name);
    if (h && PyCallable_Check(h.ptr())) h(*args);
  }

  // define_value(), define_field(): the print format's __print_flags() and
  // __print_symbolic() tables handed to define_flag_field(), define_flag_value(),
  // define_symbolic_field() and define_symbolic_value(), for flag_str() and symbol_str().
  class Tables : public PrintFormatTables {
   public:
    Tables(PythonEngine& engine, const std::string& ev) : engine_(engine), ev_(ev) {}
    void flag_field(const std::string& field, const char* delim) override {
      engine_.try_call("define_flag_field", py::make_tuple(ev_, field, std::string(delim)));
    }
    void flag_value(const std::string& field, unsigned long long value, const char* str) override {
      engine_.try_call(
          "define_flag_value",
          py::make_tuple(ev_, field, py::int_(static_cast<long>(value)), std::string(str)));
    }
    void symbolic_field(const std::string& field) override {
      engine_.try_call("define_symbolic_field", py::make_tuple(ev_, field));
    }
    void symbolic_value(const std::string& field, unsigned long long value,
                        const char* str) override {
      engine_.try_call(
          "define_symbolic_value",
          py::make_tuple(ev_, field, py::int_(static_cast<long>(value)), std::string(str)));
    }

   private:
    PythonEngine& engine_;
    const std::string& ev_;
  };

  // python_process_tracepoint().
  void process_tracepoint(const Sample& s, const Evsel& evsel, const ResolvedSample& rs) {
    tep_event* event = trace_ ? trace_->find_event(evsel.attr.config) : nullptr;
    if (!event) return;
    tep_ = event->tep;
    std::string name = fmt::format("{}__{}", event->system, event->name);
    // The first sample of each event defines its flag and symbol tables.
    if (defined_events_.insert(event->id).second) {
      Tables tables(*this, name);
      define_event_symbols(event->print_fmt.args, PrintArgWalk::kPython, field_name_, tables);
    }
    py::object h = handler(name.c_str());
    bool unhandled = !h;
    if (unhandled) {
      h = handler("trace_unhandled");
      if (!h) return;
    }
    const char* data = reinterpret_cast<const char*>(s.raw.data());
    g_context = {event, data, s.raw.size()};
    int pid = g_context.common_field("common_pid");  // raw_field_value() as an int
    uint64_t secs = s.time / 1000000000ull;
    uint64_t nsecs = s.time - secs * 1000000000ull;
    py::capsule context(&g_context, "perf_trace_context");
    py::list chain = dict_.callchain(rs, has_chain(s, rs));
    py::list args;
    py::dict dict;
    args.append(name);
    args.append(context);
    if (!unhandled) {
      args.append(py::int_(static_cast<int32_t>(s.cpu)));
      args.append(py::int_(secs));
      args.append(py::int_(nsecs));
      args.append(py::int_(pid));
      args.append(std::string(rs.comm));
      args.append(chain);
    } else {
      dict["common_cpu"] = py::int_(static_cast<int32_t>(s.cpu));
      dict["common_s"] = py::int_(secs);
      dict["common_ns"] = py::int_(nsecs);
      dict["common_pid"] = py::int_(pid);
      dict["common_comm"] = std::string(rs.comm);
      dict["common_callchain"] = chain;
    }
    for (tep_format_field* f = event->format.fields; f; f = f->next) {
      py::object obj;
      if (f->flags & TEP_FIELD_IS_ARRAY) {
        unsigned offset = static_cast<unsigned>(f->offset);
        unsigned len = static_cast<unsigned>(f->size);
        if (f->flags & TEP_FIELD_IS_DYNAMIC) {
          unsigned long long v = static_cast<size_t>(f->offset) + f->size <= s.raw.size()
                                     ? tep_read_number(tep_, data + offset, len)
                                     : 0;
          offset = static_cast<unsigned>(v & 0xffff);
          len = static_cast<unsigned>(v >> 16) & 0xffff;
          if (f->flags & TEP_FIELD_IS_RELATIVE) offset += f->offset + f->size;
        }
        if (offset > s.raw.size()) offset = static_cast<unsigned>(s.raw.size());
        if (offset + len > s.raw.size()) len = static_cast<unsigned>(s.raw.size() - offset);
        // A string field that is not printable becomes bytes for good (perf clears the
        // field's TEP_FIELD_IS_STRING).
        if ((f->flags & TEP_FIELD_IS_STRING) && is_printable_array(data + offset, len)) {
          obj = py::str(std::string(data + offset, strnlen(data + offset, len)));
        } else {
          obj =
              py::reinterpret_steal<py::object>(PyByteArray_FromStringAndSize(data + offset, len));
          f->flags &= ~TEP_FIELD_IS_STRING;
        }
      } else if (static_cast<size_t>(f->offset) + f->size <= s.raw.size()) {
        obj = numeric(f, data);
      } else {
        obj = py::int_(0);
      }
      if (!unhandled) {
        args.append(obj);
      } else {
        dict[f->name] = obj;
      }
    }
    if (unhandled) args.append(dict);
    // A handler taking one argument more gets the perf_sample dict as well.
    py::object code = py::getattr(h, "__code__", py::none());
    if (!code.is_none() && py::cast<size_t>(code.attr("co_argcount")) == py::len(args) + 1) {
      args.append(sample_dict(s, evsel, rs, chain));
    }
    h(*py::tuple(args));
  }

  std::string script_;
  std::vector<std::string> args_;
  PythonEngineOptions options_;
  std::unique_ptr<TraceFormatter> trace_;
  tep_handle* tep_ = nullptr;
  std::optional<py::scoped_interpreter> interpreter_;
  py::object main_;  // __main__'s globals, once the interpreter runs
  std::unordered_map<std::string, py::object> handlers_;
  EventNames names_;
  bool failed_ = false;
  bool db_mode_ = false;  // perf_db_export_mode: the samples go to the table handlers
  std::unordered_set<int> defined_events_;  // events_defined: their symbols are defined
  std::string field_name_;                  // cur_field_name of define_event_symbols()
  PythonDbExport db_;
  std::optional<Frame> addr_frame_;  // the current sample's addr_al, for a page fault
  PythonSampleDict dict_{options_.show_kernel_path};
};

}  // namespace

std::unique_ptr<ScriptEngine> make_python_engine(std::string script, std::vector<std::string> args,
                                                 PythonEngineOptions options) {
  return std::make_unique<PythonEngine>(std::move(script), std::move(args), options);
}

}  // namespace readperf
