// `--itrace[=OPTS]` of report and script: what perf 6.1 synthesizes from an instruction trace
// (Intel PT, ARM CoreSight, ... in the recording's AUX area), parsed as
// util/auxtrace.c itrace_do_parse_synth_opts() parses it, so that the same strings are taken
// and refused ("Bad Instruction Tracing options '...'").
//
// readperf does not decode AUX area data: on a recording without it the options change only
// what perf's report and script change then (report: `g`/`G` make it read as a recording with
// call chains, `l`/`L` as one with branch stacks; see report_histograms.cpp).
//
//   Result<ItraceOptions> o = parse_itrace("i100usge");
//   if (o && o->callchain) ...
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "readperf/format/error.h"

namespace CLI {
class App;
class Option;
}  // namespace CLI

namespace readperf::cli {

struct ItraceOptions {
  bool set = false;          // --itrace or --no-itrace given
  bool dont_decode = false;  // --no-itrace
  bool instructions = false, branches = false, transactions = false, ptwrites = false;
  bool pwr_events = false, other_events = false, intr_events = false, errors = false;
  bool log = false, calls = false, returns = false;
  bool callchain = false, add_callchain = false;      // g, G
  bool last_branch = false, add_last_branch = false;  // l, L
  bool flc = false, llc = false, tlb = false, remote_access = false, mem = false;
  bool approx_ipc = false, timeless_decoding = false;
  int quick = 0;
  uint32_t error_plus_flags = 0, error_minus_flags = 0;
  uint32_t log_plus_flags = 0, log_minus_flags = 0;
  uint64_t period = 0;
  int period_type = 0;  // PERF_ITRACE_PERIOD_*: 0 instructions, 1 ticks, 2 nanoseconds
  uint32_t callchain_sz = 0;
  uint32_t last_branch_sz = 0;
  uint64_t initial_skip = 0;

  // `g` or `G`: call chains synthesized (or added to the samples), callchain_sz deep.
  bool synthesizes_callchains() const { return callchain || add_callchain; }
  // `l` or `L`: branch stacks synthesized (or added), last_branch_sz long.
  bool synthesizes_branch_stacks() const { return last_branch || add_last_branch; }

  // PERF_ITRACE_DEFAULT_CALLCHAIN_SZ and friends (auxtrace.h).
  static constexpr uint32_t kDefaultCallchainSize = 16;
  static constexpr uint32_t kMaxCallchainSize = 1024;
  static constexpr uint32_t kDefaultLastBranchSize = 64;
  static constexpr uint32_t kMaxLastBranchSize = 1024;
};

// itrace_do_parse_synth_opts() on `into`: `opts` as given after "--itrace=", none for a bare
// --itrace (perf's defaults: itrace_synth_opts__set_default()). It sets what it names and
// leaves the rest as earlier options set it, as perf's one synth_opts does. The error is
// perf's message.
Status parse_itrace(std::optional<std::string_view> opts, ItraceOptions& into);

// Adds `--itrace[=OPTS]` (perf's OPT_CALLBACK_OPTARG: the value is optional and given with
// '='; any number of times) and `--no-itrace` to `cmd`, each applied to `into` where it stands
// on the command line. A value parse_itrace() refuses is a usage error (perf's message, then
// the usage, 129).
void add_itrace_options(CLI::App& cmd, ItraceOptions& into);

}  // namespace readperf::cli
