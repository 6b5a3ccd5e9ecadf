// `script -g python`: perf 6.1's python_generate_script() (trace-event-python.c): a
// perf-script.py with a handler per tracepoint of the recording's tracing data (sorted by id),
// trace_begin(), trace_end(), trace_unhandled() and the helpers, written into the current
// directory.
#pragma once

#include <string>

#include "readperf/format/error.h"

namespace readperf {

class PerfData;

// Writes OUTFILE ("perf-script.py" as perf names it); the error names the file when it cannot
// be written.
Status generate_python_script(const PerfData& data, const std::string& outfile);
// perl_generate_script(): OUTFILE ("perf-script.pl"), a handler per tracepoint of the recording.
Status generate_perl_script(const PerfData& data, const std::string& outfile);

}  // namespace readperf
