// perf's command-line conventions over CLI11: what perf.c handle_options() does with the
// options before the command, and what tools/lib/subcmd/parse-options.c does with a
// command's own options, applied to the arguments before CLI11 parses them.
//
//   readperf --debug verbose=1 report --dump -i perf.data
//     -> readperf report --verbose --dump-raw-trace -i perf.data
//
// - Long options may be cut to a unique prefix (`--dump` is `--dump-raw-trace`); a prefix
//   that two options share is an error (" Error: Ambiguous option: ...").
// - `--no-NAME` turns a flag off (`--NAME=false`) and drops an earlier value of an option.
// - Short options bundle (`-nv`) and take their value attached or as the next argument
//   (`-F,-time`, `-F -time`); a value given to a long option with `=` stays attached.
// - An unknown option, a missing value, `-h`, or any other error CLI11 finds prints
//   the command's usage in perf's layout on standard error and exits 129.
// - Global options (before the command): `--debug verbose=N` (each command's --verbose, N
//   times), `--debug NAME[=N]` for perf's other debug variables (accepted, no output), `-v`
//   (`--version`), `-q` (`--quiet`), and whatever options the root CLI11 app declares (--buildid-dir ...).
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace CLI {
class App;
}  // namespace CLI

namespace readperf::cli {

// The exit status of perf's usage_with_options() and of every option error.
inline constexpr int kUsageExit = 129;

// Rewrites `args` (argv[0] first) in place to what CLI11 parses with perf's meaning, then
// parses them with `app`. Returns the exit status when the command line was wrong or asked
// for help (the usage has been printed), nothing when the command should run.
std::optional<int> parse_perf_command_line(CLI::App& app, std::vector<std::string> args);

}  // namespace readperf::cli
