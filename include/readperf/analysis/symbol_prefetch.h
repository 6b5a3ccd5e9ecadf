// Starts loading symbols on other threads as soon as the recording is open, from its header's
// build-id table (the binaries with samples, and the kernel):
// - the kernel's, when samples may fall there (may_sample_kernel): /proc/kallsyms takes the
//   kernel longer to print than the whole report takes to read the samples. The first sample in
//   the kernel then finds the table parsed (kallsyms.h prefetch_kallsyms), identical to one
//   loaded then;
// - from debuginfod (when a server is set), every binary and debug file no local file has, in
//   parallel (dso_loader.h prefetch_from_debuginfod): the first sample in each then finds it
//   fetched.
#pragma once

#include "readperf/reader/perf_data.h"
#include "readperf/symbols/symbol_config.h"

namespace readperf {

// Whether a sample may fall in the kernel, so that its table is worth reading before the
// first one: perf record's build-id table lists the DSOs samples hit (build-id.c
// build_id__mark_dso_hit), the kernel among them when it was; a recording without that table
// (perf stat record, --no-buildid) may have kernel samples when some event samples and counts
// in the kernel, unless it was recorded on another kernel (OSRELEASE), whose samples the
// running kernel's table would not describe. A guess only: a kernel sample still loads the
// table it needs when it comes.
bool may_sample_kernel(const PerfData& pd, bool kernel_listed, const SymbolConfig& cfg);

// Starts the loads above for `pd` (nothing for a pipe, whose features come as records).
void prefetch_symbols(const PerfData& pd, const SymbolConfig& cfg);

}  // namespace readperf
