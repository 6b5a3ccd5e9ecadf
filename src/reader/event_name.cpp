#include "readperf/reader/event_name.h"

#include <fmt/format.h>

#include "readperf/format/perf_abi.h"

namespace readperf {

namespace {

// util/evsel.c evsel__hw_names / evsel__sw_names of perf 6.1 (which stop at "dummy": later
// software events are "unknown-software" to it).
constexpr const char* kHwNames[] = {"cycles",
                                    "instructions",
                                    "cache-references",
                                    "cache-misses",
                                    "branches",
                                    "branch-misses",
                                    "bus-cycles",
                                    "stalled-cycles-frontend",
                                    "stalled-cycles-backend",
                                    "ref-cycles"};
constexpr const char* kSwNames[] = {
    "cpu-clock",    "task-clock",   "page-faults",      "context-switches", "cpu-migrations",
    "minor-faults", "major-faults", "alignment-faults", "emulation-faults", "dummy"};

// evsel.c evsel__hw_cache, evsel__hw_cache_op, evsel__hw_cache_result (first two aliases).
constexpr const char* kCacheType[] = {"L1-dcache", "L1-icache", "LLC", "dTLB",
                                      "iTLB",      "branch",    "node"};
constexpr const char* kCacheOp[][2] = {
    {"load", "loads"}, {"store", "stores"}, {"prefetch", "prefetches"}};
constexpr const char* kCacheResult[] = {"refs", "misses"};
// evsel.c evsel__hw_cache_stat: which operations each cache type has (read 1, write 2,
// prefetch 4).
constexpr unsigned kCacheOps[] = {7, 5, 7, 7, 1, 1, 7};

// Attr flag bits (perf_event.h struct perf_event_attr).
constexpr int kExcludeUser = 4, kExcludeKernel = 5, kExcludeHv = 6;
constexpr int kExcludeHost = 19, kExcludeGuest = 20;

// evsel.c evsel__add_modifiers(): ":" and the privilege levels counted when some are
// excluded, "p"s for precise_ip, and "H"/"G" when the host/guest split is not the default
// one (guests excluded exactly when a level or precise_ip was asked for).
std::string modifiers(const EventAttr& a) {
  std::string m;
  bool exclude_guest_default = false;
  if (a.flag(kExcludeKernel) || a.flag(kExcludeUser) || a.flag(kExcludeHv)) {
    if (!a.flag(kExcludeKernel)) m += 'k';
    if (!a.flag(kExcludeUser)) m += 'u';
    if (!a.flag(kExcludeHv)) m += 'h';
    exclude_guest_default = true;
  }
  if (a.precise_ip()) {
    m.append(a.precise_ip(), 'p');
    exclude_guest_default = true;
  }
  if (a.flag(kExcludeHost) || a.flag(kExcludeGuest) == exclude_guest_default) {
    if (!a.flag(kExcludeHost)) m += 'H';
    if (!a.flag(kExcludeGuest)) m += 'G';
  }
  return m.empty() ? m : ":" + m;
}

// evsel.c __evsel__hw_cache_name().
std::string hw_cache_name(uint64_t config) {
  unsigned type = config & 0xff, op = (config >> 8) & 0xff, result = (config >> 16) & 0xff;
  if (type >= std::size(kCacheType)) return "unknown-ext-hardware-cache-type";
  if (op >= std::size(kCacheOp)) return "unknown-ext-hardware-cache-op";
  if (result >= std::size(kCacheResult)) return "unknown-ext-hardware-cache-result";
  if (!(kCacheOps[type] & (1u << op))) return "invalid-cache";
  if (result)
    return fmt::format("{}-{}-{}", kCacheType[type], kCacheOp[op][0], kCacheResult[result]);
  return fmt::format("{}-{}", kCacheType[type], kCacheOp[op][1]);
}

std::string derived_name(const EventAttr& a) {
  switch (a.type) {
    case kTypeRaw:
      return fmt::format("raw {:#x}", a.config) + modifiers(a);
    case kTypeHardware: {
      // arch/x86/util/evsel.c arch_evsel__hw_name() (the perf we match runs on x86): a PMU
      // type in the config's high half (hybrid CPUs) is shown as "cpu/<event>/".
      uint64_t event = a.config & 0xffffffff;
      const char* name = event < std::size(kHwNames) ? kHwNames[event] : "unknown-hardware";
      std::string base = (a.config >> 32) ? fmt::format("cpu/{}/", name) : std::string(name);
      return base + modifiers(a);
    }
    case kTypeHwCache:
      return hw_cache_name(a.config) + modifiers(a);
    case kTypeSoftware:
      return std::string(a.config < std::size(kSwNames) ? kSwNames[a.config] : "unknown-software") +
             modifiers(a);
    case kTypeTracepoint:
      return "unknown tracepoint";
    case kTypeBreakpoint: {
      // evsel.c __evsel__bp_name(): HW_BREAKPOINT_R 1, W 2, X 4.
      std::string s = fmt::format("mem:{:#x}:", a.config1);
      if (a.bp_type & 1) s += 'r';
      if (a.bp_type & 2) s += 'w';
      if (a.bp_type & 4) s += 'x';
      return s + modifiers(a);
    }
    default:
      return fmt::format("unknown attr type: {}", static_cast<int32_t>(a.type));
  }
}

}  // namespace

std::string event_name(const Evsel& evsel) {
  if (!evsel.name.empty()) return evsel.name;
  return attr_event_name(evsel.attr);
}

std::string attr_event_name(const EventAttr& attr) {
  std::string name = derived_name(attr);
  // perf formats into a 128-byte buffer.
  if (name.size() > 127) name.resize(127);
  return name;
}

}  // namespace readperf
