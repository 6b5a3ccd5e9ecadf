// The words after `script`'s options when no -s names a script (builtin-script.c
// cmd_script()): `report NAME [ARGS]` runs perf's NAME-report shell script with readperf as
// its `perf`; `NAME.py [ARGS]` runs that script (found in the working directory or among
// perf's own) as -s would; `record NAME` and the live `NAME` form record, which readperf
// leaves to perf.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace readperf::cli {

// `words`: the arguments after the options. Returns the exit status when the words were
// handled (or wrong), nothing when they name a script to run: `script` is then set and
// `words` are its arguments.
std::optional<int> launch_script_words(std::string& script, std::vector<std::string>& words);

// What -s names (builtin-script.c parse_scriptname()): the script and its engine's folder
// under perf's scripts ("perl", "python").
struct ScriptSpec {
  std::string script;
  std::string dir;
};
// `LANG:SCRIPT` (perf's spec names Perl, pl, Python, py, in any case) or SCRIPT by its
// extension. An error prints perf's message and the usage and gives perf's exit status.
std::variant<ScriptSpec, int> parse_script_spec(const std::string& arg);

// script_spec__find(): the folder of perf's scripts of a language name or extension ("perl",
// "python"), case ignored; null for the others.
const char* script_engine_dir(std::string_view spec);

// `-s lang`: perf's list of script languages (on stderr).
void print_script_languages();

}  // namespace readperf::cli
