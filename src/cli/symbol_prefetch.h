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

#include "readperf/format/perf_abi.h"
#include "readperf/reader/perf_data.h"
#include "readperf/symbols/build_id.h"
#include "readperf/symbols/dso_loader.h"
#include "readperf/symbols/kallsyms.h"
#include "readperf/symbols/symbol_cache.h"
#include "readperf/symbols/symbol_config.h"

namespace readperf::cli {

// Whether a sample may fall in the kernel, so that its table is worth reading before the
// first one: perf record's build-id table lists the DSOs samples hit (build-id.c
// build_id__mark_dso_hit), the kernel among them when it was; a recording without that table
// (perf stat record, --no-buildid) may have kernel samples when some event samples and counts
// in the kernel, unless it was recorded on another kernel (OSRELEASE), whose samples the
// running kernel's table would not describe. A guess only: a kernel sample still loads the
// table it needs when it comes.
inline bool may_sample_kernel(const PerfData& pd, bool kernel_listed, const SymbolConfig& cfg) {
  if (kernel_listed) return true;
  if (pd.header().features.test(kFeatBuildId)) return false;
  if (const auto& recorded = pd.features().os_release; recorded && !recorded->empty()) {
    std::string running = running_kernel_release(cfg);
    if (!running.empty() && running != *recorded) return false;
  }
  for (size_t i = 0; i < pd.events().size(); ++i) {
    const EventAttr& a = pd.events()[i].attr;
    if (a.sample_period != 0 && !a.exclude_kernel()) return true;
  }
  return false;
}

inline void prefetch_symbols(const PerfData& pd, const SymbolConfig& cfg) {
  // A pipe states its features as records: nothing is known yet.
  if (pd.kind() == ContainerKind::kPipe) return;
  // Resolver::load_kernel() takes the kernel Dso's build-id, which header.c
  // __event_process_build_id() set from the host kernel's entry.
  BuildId kernel;
  bool kernel_listed = false;  // the kernel or a module
  std::vector<DsoRef> user;
  for (const BuildIdRecord& b : pd.features().build_ids) {
    uint16_t cpumode = b.misc & kMiscCpumodeMask;
    kernel_listed |= cpumode == kMiscKernel;
    if (cpumode == kMiscKernel && b.filename == "[kernel.kallsyms]" && kernel.empty()) {
      kernel = BuildId::from_bytes(b.build_id);
    } else if (cpumode == kMiscUser && b.pid == -1) {
      user.push_back({b.filename, BuildId::from_bytes(b.build_id), dso_kind_for(b.filename)});
    }
  }
  if (may_sample_kernel(pd, kernel_listed, cfg))
    prefetch_kallsyms(first_kallsyms_path(kernel, cfg));
  prefetch_from_debuginfod(user, cfg);
}

}  // namespace readperf::cli
