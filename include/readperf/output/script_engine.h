// What `perf script -s SCRIPT` runs on the samples (builtin-script.c scripting_ops): started
// before the records are read, handed every sample the filters keep (instead of printing
// it), stopped after the last. readperf's is Python (script_python.h).
#pragma once

#include "readperf/format/error.h"

namespace readperf {

class PerfData;
struct Sample;
struct Evsel;
struct ResolvedSample;
class Resolver;

class ScriptEngine {
 public:
  virtual ~ScriptEngine() = default;
  // python_start_script(): the script's top level, then its trace_begin().
  virtual Status start(PerfData& data) = 0;
  // python_process_event(): one sample, resolved (its call chain too, when it has one and
  // call chains are in use) by `resolver`, which finds its branches' ends too.
  virtual void process_sample(const Sample& s, const Evsel& evsel, const ResolvedSample& rs,
                              Resolver& resolver) = 0;
  // python_stop_script(): trace_end().
  virtual Status stop() = 0;
};

}  // namespace readperf
