// The words after `script`'s options when no -s names a script (builtin-script.c
// cmd_script()): `report NAME [ARGS]` runs perf's NAME-report shell script with readperf as
// its `perf`; `NAME.py [ARGS]` runs that script (found in the working directory or among
// perf's own) as -s would; `record NAME` and the live `NAME` form record, which readperf
// leaves to perf.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace readperf::cli {

// `words`: the arguments after the options. Returns the exit status when the words were
// handled (or wrong), nothing when they name a script to run: `script` is then set and
// `words` are its arguments.
std::optional<int> launch_script_words(std::string& script, std::vector<std::string>& words);

}  // namespace readperf::cli
