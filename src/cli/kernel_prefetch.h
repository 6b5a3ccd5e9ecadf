// Starts loading the kernel's symbols on another thread as soon as the recording is open:
// the kernel's build-id is in its header (BUILD_ID feature), and /proc/kallsyms takes the
// kernel longer to print than the whole report takes to read the samples. The first sample
// in the kernel then finds the table parsed (kallsyms.h prefetch_kallsyms), identical to one
// loaded then.
#pragma once

#include "readperf/format/perf_abi.h"
#include "readperf/reader/perf_data.h"
#include "readperf/symbols/build_id.h"
#include "readperf/symbols/kallsyms.h"
#include "readperf/symbols/symbol_config.h"

namespace readperf::cli {

inline void prefetch_kernel_symbols(const PerfData& pd, const SymbolConfig& cfg) {
  // A pipe states its features as records: nothing is known yet.
  if (pd.kind() == ContainerKind::kPipe) return;
  // Resolver::load_kernel() takes the kernel Dso's build-id, which header.c
  // __event_process_build_id() set from the host kernel's entry.
  BuildId id;
  for (const BuildIdRecord& b : pd.features().build_ids) {
    if ((b.misc & kMiscCpumodeMask) == kMiscKernel && b.filename == "[kernel.kallsyms]") {
      id = BuildId::from_bytes(b.build_id);
      break;
    }
  }
  prefetch_kallsyms(first_kallsyms_path(id, cfg));
}

}  // namespace readperf::cli
