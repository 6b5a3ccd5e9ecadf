// Starts loading symbols on other threads as soon as the recording is open, from its header's
// build-id table (the binaries with samples, and the kernel):
// - the kernel's: /proc/kallsyms takes the kernel longer to print than the whole report takes
//   to read the samples. The first sample in the kernel then finds the table parsed
//   (kallsyms.h prefetch_kallsyms), identical to one loaded then;
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

inline void prefetch_symbols(const PerfData& pd, const SymbolConfig& cfg) {
  // A pipe states its features as records: nothing is known yet.
  if (pd.kind() == ContainerKind::kPipe) return;
  // Resolver::load_kernel() takes the kernel Dso's build-id, which header.c
  // __event_process_build_id() set from the host kernel's entry.
  BuildId kernel;
  std::vector<DsoRef> user;
  for (const BuildIdRecord& b : pd.features().build_ids) {
    uint16_t cpumode = b.misc & kMiscCpumodeMask;
    if (cpumode == kMiscKernel && b.filename == "[kernel.kallsyms]" && kernel.empty()) {
      kernel = BuildId::from_bytes(b.build_id);
    } else if (cpumode == kMiscUser && b.pid == -1) {
      user.push_back({b.filename, BuildId::from_bytes(b.build_id), dso_kind_for(b.filename)});
    }
  }
  prefetch_kallsyms(first_kallsyms_path(kernel, cfg));
  prefetch_from_debuginfod(user, cfg);
}

}  // namespace readperf::cli
