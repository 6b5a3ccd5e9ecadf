// Long text views typed in a terminal go through a pager, as perf's and git's do
// (tools/lib/subcmd/pager.c setup_pager()): report, script, -D and header output.
#pragma once

#include <string>

namespace readperf::cli {

// When standard output is a terminal, starts the pager and points standard output at it:
// $READPERF_PAGER, else $PAGER, else `less -FRSX` (quits at once when the output fits on one
// screen, keeps colours, chops long lines, leaves the text on the screen). An empty pager or
// `cat` means none. Nothing happens when standard output is a pipe or a file, or when the
// pager cannot be started. Standard error stays on the terminal: warnings and the progress
// line are not paged. At exit (and on SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE) readperf
// closes its output and waits for the pager, so the shell's prompt comes back after it.
void start_pager();

// subcmd's force_pager() then setup_pager(): `command` (run by sh -c) gets standard output
// whether it is a terminal or not (perf script --xed pipes its output into xed this way).
void start_forced_pager(const std::string& command);

// Whether start_pager() started one: standard output goes to the terminal through it.
bool pager_in_use();

}  // namespace readperf::cli
