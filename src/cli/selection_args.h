// perf's sample filters as command-line options, for the commands that are not perf's own
// (export, flamegraph): the same names and list syntax as `perf report` and `perf script`,
// turned into the SampleSelection every view and export applies.
#pragma once

#include <string>
#include <vector>

#include "readperf/analysis/sample_selection.h"
#include "readperf/format/error.h"

namespace CLI {
class App;
}  // namespace CLI

namespace readperf {
class PerfData;
}  // namespace readperf

namespace readperf::cli {

struct SelectionArgs {
  std::string comms, pids, tids, dsos, symbols, time, cpus;
};

// -c/--comms, --pid, --tid, -d/--dsos, -S/--symbols, --time, -C/--cpu.
void add_selection_options(CLI::App* app, SelectionArgs& args);

// strlist__new(): comma-separated, empty items dropped.
std::vector<std::string> split_list(const std::string& s);
// intlist__new(): numbers separated by commas or spaces; an error names the list.
Result<std::vector<int32_t>> parse_id_list(const std::string& s);

// The options as a SampleSelectionOptions (its views point into `args`).
Result<SampleSelectionOptions> selection_options(const SelectionArgs& args);
// The options parsed against the recording (--time's percent forms need its span); the
// errors are perf's.
Result<SampleSelection> parse_selection(const SelectionArgs& args, const PerfData& data);

}  // namespace readperf::cli
