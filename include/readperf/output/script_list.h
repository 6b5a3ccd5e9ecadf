// `script -l`: the trace scripts perf installs, as builtin-script.c list_available_scripts()
// lists them: each SCRIPTS/LANG/bin/NAME-report file, in directory order, with the
// "# args:" and "# description:" lines it carries.
#pragma once

#include <string>

#include "readperf/format/error.h"
#include "readperf/output/out_buffer.h"

namespace readperf {

// The exec path perf's scripts live under: $PERF_EXEC_PATH, else Debian's perf's.
std::string perf_exec_path();

// Prints the list under `exec_path`/scripts; an error (perf's message, printed on standard
// output by perf) when that directory cannot be opened.
Status list_perf_scripts(const std::string& exec_path, OutBuffer& out);

}  // namespace readperf
