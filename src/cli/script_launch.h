// The words after `script`'s options when no -s names a script (builtin-script.c
// cmd_script()): `report NAME [ARGS]` runs perf's NAME-report shell script with readperf as
// its `perf`; `NAME.py [ARGS]` runs that script (found in the working directory or among
// perf's own) as -s would; `record NAME` and the live `NAME` form record, which readperf
// leaves to perf.
#pragma once

#include <optional>

#include "script_command.h"

namespace readperf::cli {

// Returns the exit status when the words were handled (or wrong), nothing when `o` now names
// the script to run (o.script and o.script_args updated).
std::optional<int> launch_script_words(ScriptOptions& o);

}  // namespace readperf::cli
