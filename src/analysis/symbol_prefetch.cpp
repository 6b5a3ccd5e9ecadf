// The symbol prefetch (symbol_prefetch.h): the kernel's table and debuginfod's files started
// on other threads from the header's build-id table.
#include "readperf/analysis/symbol_prefetch.h"

#include <vector>

#include "readperf/format/perf_abi.h"
#include "readperf/symbols/build_id.h"
#include "readperf/symbols/dso_loader.h"
#include "readperf/symbols/kallsyms.h"
#include "readperf/symbols/symbol_cache.h"

namespace readperf {

bool may_sample_kernel(const PerfData& pd, bool kernel_listed, const SymbolConfig& cfg) {
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

void prefetch_symbols(const PerfData& pd, const SymbolConfig& cfg) {
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

}  // namespace readperf
