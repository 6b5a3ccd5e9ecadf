// What `perf script -s SCRIPT` runs on the samples (builtin-script.c scripting_ops): started
// before the records are read, handed every sample the filters keep (instead of printing
// it), stopped after the last. readperf's is Python (script_python.h).
#pragma once

#include <cstdint>

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
  // python_start_script(): the script's top level, then its trace_begin().
  virtual Status start(PerfData& data) = 0;
  // python_process_event(): one sample, resolved (its call chain too, when it has one and
  // call chains are in use) by `resolver`, which finds its branches' ends too.
  virtual void process_sample(const Sample& s, const Evsel& evsel, const ResolvedSample& rs,
                              Resolver& resolver) = 0;
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
};

}  // namespace readperf
