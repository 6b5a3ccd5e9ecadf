// What `perf script -s SCRIPT` runs on the samples (builtin-script.c scripting_ops): started
// before the records are read, handed every sample the filters keep (instead of printing
// it), stopped after the last. readperf's are Python (script_python.h) and Perl (script_perl.h).
#pragma once

#include <cstdint>
#include <string>
#include <utility>

#include "readperf/format/byte_cursor.h"
#include "readperf/format/error.h"

namespace readperf {

class PerfData;
struct Sample;
struct Evsel;
struct ResolvedSample;
class Resolver;
class Machine;
struct SwitchEvent;
struct ThrottleEvent;
struct AuxtraceErrorEvent;

class ScriptEngine {
 public:
  virtual ~ScriptEngine() = default;
  // python_start_script(): the script's top level, then its trace_begin(). A failure sets
  // start_failed(): perf prints the engine's message as it is (the interpreter's own, or an
  // error without one) and exits 255.
  virtual Status start(PerfData& data) = 0;
  bool start_failed() const { return start_failed_; }
  // python_process_event(): one sample, resolved (its call chain too, when it has one and
  // call chains are in use) by `resolver`, which finds its branches' ends too.
  // `record` is the SAMPLE record as read (perl_process_event_generic() hands it on).
  virtual void process_sample(const Sample& s, const Evsel& evsel, const ResolvedSample& rs,
                              Resolver& resolver, Bytes record) = 0;
  // Whether the engine takes the records below (perf's Python engine does; its Perl engine
  // has none of these handlers, and perf prints what it prints without a script).
  virtual bool has_side_band_handlers() const { return true; }
  // python_process_switch(): a context switch record that -C keeps, with the thread it names
  // (`s`: its sample_id fields) found in `machine`.
  virtual void process_switch(const SwitchEvent& e, const Sample& s, Machine& machine) = 0;
  // python_process_throttle(): a THROTTLE or UNTHROTTLE record.
  virtual void process_throttle(const ThrottleEvent& e, const Sample& s) = 0;
  // python_process_auxtrace_error(): instead of perf's printed line.
  virtual void process_auxtrace_error(const AuxtraceErrorEvent& e) = 0;
  // python_process_stat(): one counter's value at a STAT_ROUND, as perf_stat_process_counter()
  // left it (cpu and thread -1 for the aggregate of AGGR_GLOBAL).
  virtual void process_stat(const Evsel& counter, int32_t cpu, int32_t thread, uint64_t time,
                            uint64_t val, uint64_t ena, uint64_t run) = 0;
  // python_process_stat_interval(): after a STAT_ROUND's counters.
  virtual void process_stat_interval(uint64_t time) = 0;
  // python_stop_script(): trace_end().
  virtual Status stop() = 0;

 protected:
  // start()'s failure, as start_failed() reports it.
  Status fail_start(std::string message) {
    start_failed_ = true;
    return make_error(std::move(message));
  }

 private:
  bool start_failed_ = false;
};

}  // namespace readperf
