// perf's trace scripts: `script -l` lists them as builtin-script.c list_available_scripts()
// does (each SCRIPTS/LANG/bin/NAME-report file, in directory order, with the "# args:" and
// "# description:" lines it carries), and `script report NAME` / `script NAME.py` find them.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "readperf/format/error.h"
#include "readperf/output/out_buffer.h"

namespace readperf {

// The exec path perf's scripts live under: $PERF_EXEC_PATH, else Debian's perf's.
std::string perf_exec_path();

// Prints the list under `exec_path`/scripts; an error (perf's message, printed on standard
// output by perf) when that directory cannot be opened.
Status list_perf_scripts(const std::string& exec_path, OutBuffer& out);

// builtin-script.c get_script_path(): the first `exec_path`/scripts/LANG/bin/ROOT`suffix`
// ("-record", "-report") in directory order.
std::optional<std::string> find_perf_script(const std::string& exec_path, std::string_view root,
                                            std::string_view suffix);

// has_required_arg(): the arguments a report script requires (the '<' of its "# args:" line).
int script_required_args(const std::string& path);

// find_script(): `name` if readable, else `exec_path`/scripts/`lang_dir`/`name`.
std::optional<std::string> find_script_file(const std::string& exec_path, const std::string& name,
                                            std::string_view lang_dir);

}  // namespace readperf
