// perf 6.1's Perl scripting engine (util/scripting-engines/trace-event-perl.c) over the
// script printer's samples, in an embedded perl (Debian's libperl-dev, the one perf links).
#include "readperf/output/script_perl.h"

#include <fmt/format.h>
#include <traceevent/event-parse.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <unordered_set>
#include <vector>

#include "readperf/analysis/resolver.h"
#include "readperf/format/perf_abi.h"
#include "readperf/output/script_list.h"
#include "readperf/output/trace_format.h"
#include "readperf/reader/perf_data.h"
#include "readperf/reader/record_swap.h"
#include "readperf/session/map.h"
#include "readperf/session/thread.h"
#include "script_perl_sample.h"
#include "script_trace_args.h"

// perl.h last: it defines many short macros.
#include <EXTERN.h>
#include <XSUB.h>
#include <perl.h>

namespace readperf {
namespace {

// What Perf::Trace::Context's functions read through the context the handlers are given
// (perf passes its scripting_context's address as an integer).
ScriptingContext g_context;

// The context argument as the XS typemap (T_PTR) reads it; anything but the context handed
// out reads as no sample (perf would dereference it).
const ScriptingContext* context_arg(pTHX_ SV* sv) {
  auto* c = INT2PTR(const ScriptingContext*, SvIV(sv));
  return c == &g_context ? c : nullptr;
}

int context_field(pTHX_ SV* sv, const char* name) {
  const ScriptingContext* c = context_arg(aTHX_ sv);
  return c ? c->common_field(name) : 0;
}

// Context.xs: common_pc(context), common_flags(context), common_lock_depth(context).
void context_function(pTHX_ CV* cv, const char* field) {
  dXSARGS;
  if (items != 1) croak_xs_usage(cv, "context");
  dXSTARG;
  IV value = context_field(aTHX_ ST(0), field);
  XSprePUSH;
  PUSHi(value);
  XSRETURN(1);
}
void xs_common_pc(pTHX_ CV* cv) { context_function(aTHX_ cv, "common_preempt_count"); }
void xs_common_flags(pTHX_ CV* cv) { context_function(aTHX_ cv, "common_flags"); }
void xs_common_lock_depth(pTHX_ CV* cv) { context_function(aTHX_ cv, "common_lock_depth"); }

// boot_Perf__Trace__Context(): what XSLoader::load('Perf::Trace::Context') runs (it finds
// the bootstrap already defined, as perf's xs_init() defines it).
void boot_context(pTHX_ CV* cv) {
  dXSARGS;
  PERL_UNUSED_VAR(cv);
  PERL_UNUSED_VAR(items);
  static const char kFile[] = __FILE__;
  newXS_flags("Perf::Trace::Context::common_pc", xs_common_pc, kFile, "$", 0);
  newXS_flags("Perf::Trace::Context::common_flags", xs_common_flags, kFile, "$", 0);
  newXS_flags("Perf::Trace::Context::common_lock_depth", xs_common_lock_depth, kFile, "$", 0);
  XSRETURN_YES;
}

}  // namespace
}  // namespace readperf

EXTERN_C void boot_DynaLoader(pTHX_ CV* cv);

namespace readperf {
namespace {

// xs_init(): the context module's bootstrap, and DynaLoader for the modules scripts load.
void xs_init(pTHX) {
  static const char kFile[] = __FILE__;
  dXSUB_SYS;
  PERL_UNUSED_CONTEXT;
  newXS("Perf::Trace::Context::bootstrap", boot_context, kFile);
  newXS("DynaLoader::boot_DynaLoader", boot_DynaLoader, kFile);
}

// A call of a Perl sub with arguments pushed by `push`, in perf's scalar context; its
// result is dropped.
template <class Push>
void call_sub(const char* name, Push&& push) {
  dTHX;
  dSP;
  ENTER;
  SAVETMPS;
  PUSHMARK(SP);
  push(SP);
  PUTBACK;
  int count = call_pv(name, G_SCALAR);
  SPAGAIN;
  SP -= count;
  PUTBACK;
  FREETMPS;
  LEAVE;
}

bool sub_defined(const char* name) {
  dTHX;
  return get_cv(name, 0) != nullptr;
}

SV* new_string(std::string_view s) {
  dTHX;
  return newSVpvn(s.data(), s.size());
}

class PerlEngine : public ScriptEngine {
 public:
  PerlEngine(std::string script, std::vector<std::string> args, PerlEngineOptions options)
      : script_(std::move(script)), args_(std::move(args)), options_(options) {}

  ~PerlEngine() override {
    if (perl_) {
      // perl_stop_script() destructs the interpreter; an engine that failed to start or
      // never stopped frees it here.
      destroy();
    }
  }

  Status start(PerfData& data) override {
    if (data.tracing_data()) {
      if (auto tf = TraceFormatter::create(*data.tracing_data())) trace_ = std::move(*tf);
    }
    // cmd_script(): PERF_EXEC_PATH for the scripts (perf's own find Perf-Trace-Util under
    // it): perf_exec_path()'s default when it is not set.
    setenv("PERF_EXEC_PATH", perf_exec_path().c_str(), /*overwrite=*/0);
    // perl_start_script(): argv is "", the script, its arguments.
    argv_storage_ = {std::string(), script_};
    argv_storage_.insert(argv_storage_.end(), args_.begin(), args_.end());
    for (std::string& a : argv_storage_) argv_.push_back(a.data());
    argv_.push_back(nullptr);
    static bool sys_init = false;
    if (!sys_init) {
      // perlembed: once per process, before the first interpreter.
      int argc = static_cast<int>(argv_.size()) - 1;
      char** argv = argv_.data();
      char** env = nullptr;
      PERL_SYS_INIT3(&argc, &argv, &env);
      sys_init = true;
    }
    perl_ = perl_alloc();
    perl_construct(perl_);
    PERL_SET_CONTEXT(perl_);
    // perl's own message (a compile error, a die at the top level) is what perf prints; it
    // adds nothing.
    bool failed =
        perl_parse(perl_, xs_init, static_cast<int>(argv_.size()) - 1, argv_.data(), nullptr) ||
        perl_run(perl_);
    if (!failed) {
      dTHX;
      failed = SvTRUE(ERRSV);
    }
    if (failed) {
      // perf frees the interpreter without destructing it: what the script printed before
      // failing stays in perl's buffers, unwritten.
      perl_free(perl_);
      perl_ = nullptr;
      return fail_start("");
    }
    // run_start_sub().
    if (sub_defined("main::trace_begin")) call_void("main::trace_begin");
    return {};
  }

  void process_sample(const Sample& s, const Evsel& evsel, const ResolvedSample& rs,
                      Resolver& /*resolver*/, Bytes record) override {
    // perl_process_event(): the tracepoint handler, then process_event() for every sample.
    chain_ = s.has_callchain && !rs.callchain.empty();
    if (evsel.attr.type == kTypeTracepoint) process_tracepoint(s, evsel, rs);
    process_event_generic(s, evsel, record);
  }

  // trace-event-perl.c has none of the side-band, throttle or stat handlers
  // (has_side_band_handlers()).
  void process_switch(const SwitchEvent&, const Sample&, Machine&) override {}
  void process_throttle(const ThrottleEvent&, const Sample&) override {}
  void process_auxtrace_error(const AuxtraceErrorEvent&) override {}
  void process_stat(const Evsel&, int32_t, int32_t, uint64_t, uint64_t, uint64_t,
                    uint64_t) override {}
  void process_stat_interval(uint64_t) override {}
  bool has_side_band_handlers() const override { return false; }

  Status stop() override {
    // perl_stop_script(): trace_end(), then the interpreter's END blocks and destruction.
    if (sub_defined("main::trace_end")) call_void("main::trace_end");
    std::fflush(stdout);
    destroy();
    return {};
  }

 private:
  void destroy() {
    PERL_SET_CONTEXT(perl_);
    perl_destruct(perl_);
    perl_free(perl_);
    perl_ = nullptr;
  }

  static void call_void(const char* name) {
    dTHX;
    dSP;
    PUSHMARK(SP);
    call_pv(name, G_DISCARD | G_NOARGS);
  }

  // perl_process_callchain(): a reference to a list of {ip, sym {start, end, binding, name},
  // dso} hashes, leaf first; empty without a call chain in use.
  SV* callchain(const ResolvedSample& rs) const {
    dTHX;
    AV* list = newAV();
    if (chain_) {
      for (const Frame& f : rs.callchain) {
        HV* elem = newHV();
        hv_stores(elem, "ip", newSVuv(f.ip));
        if (f.sym) {
          HV* sym = newHV();
          hv_stores(sym, "start", newSVuv(f.sym->start));
          hv_stores(sym, "end", newSVuv(f.sym->end));
          hv_stores(sym, "binding", newSVuv(f.sym->binding));
          hv_stores(sym, "name", new_string(f.sym->name));
          hv_stores(elem, "sym", newRV_noinc(reinterpret_cast<SV*>(sym)));
        }
        if (f.map) hv_stores(elem, "dso", new_string(f.dso_name(options_.show_kernel_path)));
        av_push(list, newRV_noinc(reinterpret_cast<SV*>(elem)));
      }
    }
    return newRV_noinc(reinterpret_cast<SV*>(list));
  }

  // define_flag_value() and friends: the script's sub, when it has one.
  static void define(const char* sub, std::initializer_list<SV*> args) {
    if (!sub_defined(sub)) {
      dTHX;
      for (SV* sv : args) SvREFCNT_dec(sv);
      return;
    }
    call_sub(sub, [&](SV**& sp) {
      dTHX;
      for (SV* sv : args) XPUSHs(sv_2mortal(sv));
    });
  }

  // The print format's __print_flags() and __print_symbolic() tables (and its atoms) handed
  // to the script's define_flag_field(), define_flag_value(), define_symbolic_field() and
  // define_symbolic_value() (Perf::Trace::Core's flag_str() and symbol_str() read them).
  class Tables : public PrintFormatTables {
   public:
    explicit Tables(const std::string& ev) : ev_(ev) {}
    void flag_field(const std::string& field, const char* delim) override {
      define("main::define_flag_field", {new_string(ev_), new_string(field), new_string(delim)});
    }
    void flag_value(const std::string& field, unsigned long long value, const char* str) override {
      dTHX;
      define("main::define_flag_value",
             {new_string(ev_), new_string(field), newSVuv(value), new_string(str)});
    }
    void symbolic_field(const std::string& field) override {
      define("main::define_symbolic_field", {new_string(ev_), new_string(field)});
    }
    void symbolic_value(const std::string& field, unsigned long long value,
                        const char* str) override {
      dTHX;
      define("main::define_symbolic_value",
             {new_string(ev_), new_string(field), newSVuv(value), new_string(str)});
    }

   private:
    const std::string& ev_;
  };

  // A field's value as perf_process_tracepoint() pushes it: a string up to its NUL, else
  // read_size() of the field (0 for a size other than 1, 2, 4, 8; a signed field's value
  // is not sign-extended).
  SV* field_value(tep_format_field* f, const Sample& s) const {
    dTHX;
    const char* data = reinterpret_cast<const char*>(s.raw.data());
    size_t size = s.raw.size();
    if (f->flags & TEP_FIELD_IS_STRING) {
      size_t offset = static_cast<size_t>(f->offset);
      if (f->flags & TEP_FIELD_IS_DYNAMIC) {
        uint32_t word = 0;
        if (offset + sizeof(word) <= size) std::memcpy(&word, data + offset, sizeof(word));
        offset = word & 0xffff;
        if (f->flags & TEP_FIELD_IS_RELATIVE) offset += f->offset + f->size;
      }
      if (offset >= size) return newSVpvs("");
      return newSVpvn(data + offset, strnlen(data + offset, size - offset));
    }
    unsigned long long val = 0;
    if (static_cast<size_t>(f->offset) + f->size <= size) {
      val = tep_read_number(tep_, data + f->offset, f->size);
    }
    if (f->flags & TEP_FIELD_IS_SIGNED) return newSViv(static_cast<IV>(val));
    return newSVuv(static_cast<UV>(val));
  }

  // perl_process_tracepoint(): SYSTEM::EVENT(event_name, context, common_cpu, common_secs,
  // common_nsecs, common_pid, common_comm, common_callchain, FIELDS...), or
  // trace_unhandled() with the same arguments.
  void process_tracepoint(const Sample& s, const Evsel& evsel, const ResolvedSample& rs) {
    tep_event* event = trace_ ? trace_->find_event(evsel.attr.config) : nullptr;
    if (!event) return;
    tep_ = event->tep;
    const char* data = reinterpret_cast<const char*>(s.raw.data());
    g_context = {event, data, s.raw.size()};
    int pid = g_context.common_field("common_pid");  // raw_field_value() as an int
    std::string handler = fmt::format("{}::{}", event->system, event->name);
    // The first sample of each event defines its flag and symbol tables.
    if (defined_events_.insert(event->id).second) {
      Tables tables(handler);
      define_event_symbols(event->print_fmt.args, PrintArgWalk::kPerl, field_name_, tables);
    }
    const char* sub = handler.c_str();
    if (!sub_defined(sub)) {
      // perf pushes the second argument list of trace_unhandled() without a PUTBACK: the
      // sub gets the handler's arguments.
      if (!sub_defined("main::trace_unhandled")) return;
      sub = "main::trace_unhandled";
    }
    uint64_t secs = s.time / 1000000000ull;
    uint64_t nsecs = s.time - secs * 1000000000ull;
    call_sub(sub, [&](SV**& sp) {
      dTHX;
      XPUSHs(sv_2mortal(new_string(handler)));
      XPUSHs(sv_2mortal(newSViv(PTR2IV(&g_context))));
      XPUSHs(sv_2mortal(newSVuv(s.cpu)));
      XPUSHs(sv_2mortal(newSVuv(secs)));
      XPUSHs(sv_2mortal(newSVuv(nsecs)));
      XPUSHs(sv_2mortal(newSViv(pid)));
      XPUSHs(sv_2mortal(new_string(rs.comm)));
      XPUSHs(sv_2mortal(callchain(rs)));
      for (tep_format_field* f = event->format.fields; f; f = f->next) {
        XPUSHs(sv_2mortal(field_value(f, s)));
      }
    });
  }

  // perl_process_event_generic(): process_event(event, attr, sample, raw_data), the
  // record, perf_event_attr and struct perf_sample as perf holds them, packed.
  void process_event_generic(const Sample& s, const Evsel& evsel, Bytes record) {
    if (!sub_defined("process_event")) return;
    attr_bytes_.clear();
    write_attr(evsel.attr, kPerf61AttrSize, ByteOrder::kNative, attr_bytes_);
    PerfSample61 packed = pack_perf_sample(s, evsel.attr);
    call_sub("process_event", [&](SV**& sp) {
      dTHX;
      XPUSHs(sv_2mortal(newSVpvn(reinterpret_cast<const char*>(record.data()), record.size())));
      XPUSHs(sv_2mortal(
          newSVpvn(reinterpret_cast<const char*>(attr_bytes_.data()), attr_bytes_.size())));
      XPUSHs(sv_2mortal(newSVpvn(reinterpret_cast<const char*>(&packed), sizeof(packed))));
      XPUSHs(sv_2mortal(newSVpvn(reinterpret_cast<const char*>(s.raw.data()), s.raw.size())));
    });
  }

  std::string script_;
  std::vector<std::string> args_;
  PerlEngineOptions options_;
  std::vector<std::string> argv_storage_;
  std::vector<char*> argv_;
  PerlInterpreter* perl_ = nullptr;
  std::unique_ptr<TraceFormatter> trace_;
  tep_handle* tep_ = nullptr;
  bool chain_ = false;                      // the current sample's call chain is in use
  std::unordered_set<int> defined_events_;  // events_defined
  std::string field_name_;                  // cur_field_name of define_event_symbols()
  std::vector<std::byte> attr_bytes_;
};

}  // namespace

std::unique_ptr<ScriptEngine> make_perl_engine(std::string script, std::vector<std::string> args,
                                               PerlEngineOptions options) {
  return std::make_unique<PerlEngine>(std::move(script), std::move(args), options);
}

}  // namespace readperf
