#include "readperf/format/perf_abi.h"

#include <array>

namespace readperf {

namespace {
// util/event.c perf_event__names[] of perf 6.1.
constexpr auto kNames = [] {
  std::array<std::string_view, kRecordCompressed2> names{};
  names[0] = "TOTAL";
  names[kRecordMmap] = "MMAP";
  names[kRecordMmap2] = "MMAP2";
  names[kRecordLost] = "LOST";
  names[kRecordComm] = "COMM";
  names[kRecordExit] = "EXIT";
  names[kRecordThrottle] = "THROTTLE";
  names[kRecordUnthrottle] = "UNTHROTTLE";
  names[kRecordFork] = "FORK";
  names[kRecordRead] = "READ";
  names[kRecordSample] = "SAMPLE";
  names[kRecordAux] = "AUX";
  names[kRecordItraceStart] = "ITRACE_START";
  names[kRecordLostSamples] = "LOST_SAMPLES";
  names[kRecordSwitch] = "SWITCH";
  names[kRecordSwitchCpuWide] = "SWITCH_CPU_WIDE";
  names[kRecordNamespaces] = "NAMESPACES";
  names[kRecordKsymbol] = "KSYMBOL";
  names[kRecordBpfEvent] = "BPF_EVENT";
  names[kRecordCgroup] = "CGROUP";
  names[kRecordTextPoke] = "TEXT_POKE";
  names[kRecordAuxOutputHwId] = "AUX_OUTPUT_HW_ID";
  names[kRecordHeaderAttr] = "ATTR";
  names[kRecordHeaderEventType] = "EVENT_TYPE";
  names[kRecordHeaderTracingData] = "TRACING_DATA";
  names[kRecordHeaderBuildId] = "BUILD_ID";
  names[kRecordFinishedRound] = "FINISHED_ROUND";
  names[kRecordIdIndex] = "ID_INDEX";
  names[kRecordAuxtraceInfo] = "AUXTRACE_INFO";
  names[kRecordAuxtrace] = "AUXTRACE";
  names[kRecordAuxtraceError] = "AUXTRACE_ERROR";
  names[kRecordThreadMap] = "THREAD_MAP";
  names[kRecordCpuMap] = "CPU_MAP";
  names[kRecordStatConfig] = "STAT_CONFIG";
  names[kRecordStat] = "STAT";
  names[kRecordStatRound] = "STAT_ROUND";
  names[kRecordEventUpdate] = "EVENT_UPDATE";
  names[kRecordTimeConv] = "TIME_CONV";
  names[kRecordHeaderFeature] = "FEATURE";
  names[kRecordCompressed] = "COMPRESSED";
  names[kRecordFinishedInit] = "FINISHED_INIT";
  return names;
}();
}  // namespace

std::string_view perf_event_name(uint32_t type) {
  if (type >= kNames.size()) return "INVALID";
  if (kNames[type].empty()) return "UNKNOWN";
  return kNames[type];
}

std::string_view record_type_name(uint32_t type) {
  if (type == kRecordCompressed2) return "COMPRESSED2";
  return perf_event_name(type);
}

}  // namespace readperf
