// `script -s FILE.pl [ARGS]`: perf 6.1's Perl scripting engine
// (util/scripting-engines/trace-event-perl.c) in an embedded perl. The script runs with @ARGV =
// ARGS (and $0 = FILE) and a Perf::Trace::Context module built in; then trace_begin(), for each
// tracepoint sample SYSTEM::EVENT($event_name, $context, $common_cpu, $common_secs,
// $common_nsecs, $common_pid, $common_comm, $common_callchain, FIELDS...) or
// trace_unhandled() with the same arguments, for every sample process_event($event, $attr,
// $sample, $raw_data) (packed bytes), and trace_end() at the end.
//
//   auto engine = make_perl_engine("rw-by-pid.pl", {});
//   config.engine = engine.get();
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "readperf/output/script_engine.h"

namespace readperf {

struct PerlEngineOptions {
  bool show_kernel_path = false;  // --show-kernel-path: DSOs by their long names
};

std::unique_ptr<ScriptEngine> make_perl_engine(std::string script, std::vector<std::string> args,
                                               PerlEngineOptions options = {});

}  // namespace readperf
