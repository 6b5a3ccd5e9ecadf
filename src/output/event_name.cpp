#include "readperf/output/event_name.h"

#include <fmt/format.h>

#include "readperf/format/perf_abi.h"

namespace readperf {

namespace {
// util/evsel.c evsel__hw_names / evsel__sw_names of perf 6.1.
constexpr const char* kHwNames[] = {"cycles",           "instructions",      "cache-references",
                                    "cache-misses",     "branches",          "branch-misses",
                                    "bus-cycles",       "stalled-cycles-frontend",
                                    "stalled-cycles-backend", "ref-cycles"};
constexpr const char* kSwNames[] = {"cpu-clock",       "task-clock",     "page-faults",
                                    "context-switches", "cpu-migrations", "minor-faults",
                                    "major-faults",    "alignment-faults", "emulation-faults",
                                    "dummy",           "bpf-output",     "cgroup-switches"};
}  // namespace

std::string event_name(const Evsel& evsel) {
  if (!evsel.name.empty()) return evsel.name;
  const EventAttr& a = evsel.attr;
  switch (a.type) {
    case kTypeHardware:
      if (a.config < std::size(kHwNames)) return kHwNames[a.config];
      return fmt::format("unknown-hardware");
    case kTypeSoftware:
      if (a.config < std::size(kSwNames)) return kSwNames[a.config];
      return "unknown-software";
    case kTypeTracepoint:
      return "unknown tracepoint";
    case kTypeRaw:
      return fmt::format("raw 0x{:x}", a.config);
    default:
      return fmt::format("unknown attr type: {}", a.type);
  }
}

}  // namespace readperf
