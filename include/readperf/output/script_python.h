// `script -s FILE.py [ARGS]`: perf 6.1's Python scripting engine
// (util/scripting-engines/trace-event-python.c) in an embedded interpreter. The script runs
// as __main__ with sys.argv = [FILE, ARGS...] and a `perf_trace_context` module; then
// trace_begin(), for each tracepoint sample the handler SYSTEM__EVENT(event_name, context,
// common_cpu, common_secs, common_nsecs, common_pid, common_comm, common_callchain, FIELDS...
// [, perf_sample_dict]) or trace_unhandled(event_name, context, fields_dict), for every other
// sample process_event(param_dict), and trace_end() at the end.
//
//   auto engine = make_python_engine("counts.py", {"--top", "5"});
//   config.engine = engine.get();
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "readperf/output/script_engine.h"

namespace readperf {

struct PythonEngineOptions {
  bool show_kernel_path = false;  // --show-kernel-path: DSOs by their long names
};

// One interpreter per process, as perf has: make one engine.
std::unique_ptr<ScriptEngine> make_python_engine(std::string script, std::vector<std::string> args,
                                                 PythonEngineOptions options = {});

}  // namespace readperf
