// `script`'s side-band records (builtin-script.c __cmd_script()'s tool handlers): applied to
// the Machine, handed to a script engine, and printed (print_event_with_time()) when their
// --show-*-events asks; AUXTRACE_ERROR records (process_auxtrace_error()).
#include "readperf/format/perf_abi.h"
#include "readperf/output/script_engine.h"
#include "readperf/reader/side_band.h"
#include "script_sink.h"

namespace readperf {

using namespace script;  // NOLINT: the field names

ScriptEngine* side_band_engine(const ScriptConfig& cfg) {
  return cfg.engine && cfg.engine->has_side_band_handlers() ? cfg.engine : nullptr;
}

// builtin-script.c process_auxtrace_error(): the script's, else
// perf_event__process_auxtrace_error() prints it (auxtrace.c
// perf_event__fprintf_auxtrace_error()).
void ScriptSink::on_auxtrace_error(const RecordView& r) {
  AuxtraceErrorEvent e;
  if (!parse_auxtrace_error(r, pd_.order(), e)) return;
  if (ScriptEngine* engine = side_band_engine(cfg_)) {
    engine->process_auxtrace_error(e);
    return;
  }
  print_auxtrace_error(*out_, e);
}

// builtin-script.c __cmd_script(): the tool's handlers of side-band records, which
// print them (print_event_with_time) when their --show-*-events asks.
void ScriptSink::on_side_band(const RecordView& r, const Sample& s) {
  ByteOrder order = pd_.order();
  switch (r.type) {
    case kRecordComm: {
      builder_.apply(r, s);
      CommEvent e;
      if (cfg_.show_task_events && parse_comm(r, order, e)) print_side_band(r, s, e.pid, e.tid, 0);
      return;
    }
    case kRecordFork: {
      Machine::ForkResult fr = builder_.apply(r, s);
      if (dumper_ && fr.removed_parent) {
        out_->print("removing erroneous parent thread {}/{}\n", fr.removed_pid, fr.removed_tid);
      }
      TaskEvent e;
      if (cfg_.show_task_events && parse_task(r, order, e))
        print_side_band(r, s, e.pid, e.tid, e.time);
      return;
    }
    case kRecordExit: {
      // process_exit_event(): printed before the exit is applied.
      TaskEvent e;
      if (cfg_.show_task_events && parse_task(r, order, e))
        print_side_band(r, s, e.pid, e.tid, e.time);
      builder_.apply(r, s);
      return;
    }
    case kRecordMmap:
    case kRecordMmap2: {
      builder_.apply(r, s);
      MmapEvent e;
      if (cfg_.show_mmap_events && parse_mmap(r, order, e)) print_side_band(r, s, e.pid, e.tid, 0);
      return;
    }
    case kRecordNamespaces: {
      builder_.apply(r, s);
      if (!cfg_.show_namespace_events) return;
      ByteCursor c = r.body(order);
      int32_t pid = c.s32();
      int32_t tid = c.s32();
      print_side_band(r, s, pid, tid, 0);
      return;
    }
    case kRecordSwitch:
    case kRecordSwitchCpuWide: {
      builder_.apply(r, s);
      // process_switch_event(): the script's before the printed line.
      SwitchEvent e;
      if (ScriptEngine* engine = side_band_engine(cfg_);
          engine && !filters_.skip_cpu(s.cpu) && parse_switch(r, order, e)) {
        engine->process_switch(e, s, machine_);
      }
      if (cfg_.show_switch_events) print_side_band(r, s, s.pid, s.tid, 0);
      return;
    }
    case kRecordThrottle:
    case kRecordUnthrottle: {
      // process_throttle_event(): only a script sees them.
      ThrottleEvent e;
      if (ScriptEngine* engine = side_band_engine(cfg_); engine && parse_throttle(r, order, e)) {
        engine->process_throttle(e, s);
      }
      return;
    }
    case kRecordCgroup:
      builder_.apply(r, s);
      if (cfg_.show_cgroup_events) print_side_band(r, s, s.pid, s.tid, 0);
      return;
    case kRecordLost:
      if (cfg_.show_lost_events) print_side_band(r, s, s.pid, s.tid, 0);
      return;
    case kRecordKsymbol:
      builder_.apply(r, s);
      if (cfg_.show_bpf_events || cfg_.show_text_poke_events) {
        print_side_band(r, s, s.pid, s.tid, 0);
      }
      return;
    case kRecordBpfEvent:
      if (cfg_.show_bpf_events) print_side_band(r, s, s.pid, s.tid, 0);
      return;
    case kRecordTextPoke:
      if (cfg_.show_text_poke_events) print_side_band(r, s, s.pid, s.tid, 0);
      return;
    default:
      builder_.apply(r, s);
      return;
  }
}

// builtin-script.c print_event_with_time(): the line start of the record's event (its
// sample_id, or for an event without sample_id_all the record's own pid/tid and `time`
// on cpu 0), then the record as perf_event__fprintf() describes it.
void ScriptSink::print_side_band(const RecordView& r, const Sample& sample, int32_t pid,
                                 int32_t tid, uint64_t time) {
  const Evsel* evsel = pd_.events().evsel_for_sample_id(sample.id);
  Sample s = sample;
  s.misc = r.misc;
  if (evsel && !evsel->attr.sample_id_all()) {
    s.cpu = 0;
    s.time = time;
    s.pid = pid;
    s.tid = tid;
  }
  if (filters_.skip_cpu(s.cpu)) return;
  if (evsel) {
    Thread* t = tid != -1 ? machine_.findnew_thread(pid, tid) : nullptr;
    // Both arms string_views: `t ? t->comm_str() : ":-1"` would be a temporary std::string.
    std::string_view comm = t ? std::string_view(t->comm_str()) : std::string_view(":-1");
    const TypeOutput& o = table_.of(evsel->attr);
    start_.print(*out_, s, comm, o.fields, comm_unpadded(*evsel, o.fields), r.type);
  }
  print_record_text(*out_, r, pd_.order(), s);
}

}  // namespace readperf
