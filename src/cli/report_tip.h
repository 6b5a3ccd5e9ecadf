// The "# (Tip: ...)" line perf's report prints after the histograms (builtin-report.c
// evlist__tty_browse_hists(): "#\n# (%s)\n#\n" with a random line of perf's tips.txt). readperf
// prints a tip of its own there, so that tools that cut perf's last three lines cut the same.
#pragma once

#include <string_view>

namespace readperf::cli {

// One of readperf's tips, picked at random as perf picks its own.
std::string_view random_tip();

}  // namespace readperf::cli
