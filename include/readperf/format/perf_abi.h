// Constants of the perf.data format: record types, sample and read-format bits, misc flags,
// header features. Values are from include/uapi/linux/perf_event.h and tools/perf/util/event.h,
// header.h of Linux 6.1, plus the ones newer perf writes (COMPRESSED2, features 32+).
#pragma once

#include <cstdint>
#include <string_view>

namespace readperf {

// Kernel record types (perf_event.h enum perf_event_type) and perf's own (util/event.h
// enum perf_user_event_type).
enum RecordType : uint32_t {
  kRecordMmap = 1,
  kRecordLost = 2,
  kRecordComm = 3,
  kRecordExit = 4,
  kRecordThrottle = 5,
  kRecordUnthrottle = 6,
  kRecordFork = 7,
  kRecordRead = 8,
  kRecordSample = 9,
  kRecordMmap2 = 10,
  kRecordAux = 11,
  kRecordItraceStart = 12,
  kRecordLostSamples = 13,
  kRecordSwitch = 14,
  kRecordSwitchCpuWide = 15,
  kRecordNamespaces = 16,
  kRecordKsymbol = 17,
  kRecordBpfEvent = 18,
  kRecordCgroup = 19,
  kRecordTextPoke = 20,
  kRecordAuxOutputHwId = 21,
  kRecordKernelTypeMax = 22,

  kRecordUserTypeStart = 64,
  kRecordHeaderAttr = 64,
  kRecordHeaderEventType = 65,
  kRecordHeaderTracingData = 66,
  kRecordHeaderBuildId = 67,
  kRecordFinishedRound = 68,
  kRecordIdIndex = 69,
  kRecordAuxtraceInfo = 70,
  kRecordAuxtrace = 71,
  kRecordAuxtraceError = 72,
  kRecordThreadMap = 73,
  kRecordCpuMap = 74,
  kRecordStatConfig = 75,
  kRecordStat = 76,
  kRecordStatRound = 77,
  kRecordEventUpdate = 78,
  kRecordTimeConv = 79,
  kRecordHeaderFeature = 80,
  kRecordCompressed = 81,
  kRecordFinishedInit = 82,
  kRecordCompressed2 = 83,
  kRecordHeaderMax = 84,
};

// The name perf 6.1 gives a record type (util/event.c perf_event__name()): "TOTAL" for 0,
// "UNKNOWN" for a hole in its table, "INVALID" past its end (83, COMPRESSED2, is past it).
std::string_view perf_event_name(uint32_t type);
// Our own name for a record type, covering the types newer perf added ("COMPRESSED2").
std::string_view record_type_name(uint32_t type);

enum SampleType : uint64_t {
  kSampleIp = 1u << 0,
  kSampleTid = 1u << 1,
  kSampleTime = 1u << 2,
  kSampleAddr = 1u << 3,
  kSampleRead = 1u << 4,
  kSampleCallchain = 1u << 5,
  kSampleId = 1u << 6,
  kSampleCpu = 1u << 7,
  kSamplePeriod = 1u << 8,
  kSampleStreamId = 1u << 9,
  kSampleRaw = 1u << 10,
  kSampleBranchStack = 1u << 11,
  kSampleRegsUser = 1u << 12,
  kSampleStackUser = 1u << 13,
  kSampleWeight = 1u << 14,
  kSampleDataSrc = 1u << 15,
  kSampleIdentifier = 1u << 16,
  kSampleTransaction = 1u << 17,
  kSampleRegsIntr = 1u << 18,
  kSamplePhysAddr = 1u << 19,
  kSampleAux = 1u << 20,
  kSampleCgroup = 1u << 21,
  kSampleDataPageSize = 1u << 22,
  kSampleCodePageSize = 1u << 23,
  kSampleWeightStruct = 1u << 24,
  kSampleWeightType = kSampleWeight | kSampleWeightStruct,
};

enum ReadFormat : uint64_t {
  kFormatTotalTimeEnabled = 1u << 0,
  kFormatTotalTimeRunning = 1u << 1,
  kFormatId = 1u << 2,
  kFormatGroup = 1u << 3,
  kFormatLost = 1u << 4,
};

constexpr uint64_t kBranchSampleAny = 1u << 3;         // PERF_SAMPLE_BRANCH_ANY
constexpr uint64_t kBranchSampleCallStack = 1u << 11;  // PERF_SAMPLE_BRANCH_CALL_STACK (LBR)
constexpr uint64_t kBranchSampleHwIndex = 1u << 17;

// header.misc (perf_event.h).
constexpr uint16_t kMiscCpumodeMask = 7;
constexpr uint16_t kMiscKernel = 1;
constexpr uint16_t kMiscUser = 2;
constexpr uint16_t kMiscHypervisor = 3;
constexpr uint16_t kMiscGuestKernel = 4;
constexpr uint16_t kMiscGuestUser = 5;
constexpr uint16_t kMiscProcMapParseTimeout = 1 << 12;
constexpr uint16_t kMiscMmapData = 1 << 13;
constexpr uint16_t kMiscCommExec = 1 << 13;
constexpr uint16_t kMiscForkExec = 1 << 13;
constexpr uint16_t kMiscSwitchOut = 1 << 13;
constexpr uint16_t kMiscExactIp = 1 << 14;
constexpr uint16_t kMiscSwitchOutPreempt = 1 << 14;
constexpr uint16_t kMiscMmapBuildId = 1 << 14;
constexpr uint16_t kMiscExtReserved = 1 << 15;

// perf_event_attr.type (perf_event.h enum perf_type_id).
enum AttrType : uint32_t {
  kTypeHardware = 0,
  kTypeSoftware = 1,
  kTypeTracepoint = 2,
  kTypeHwCache = 3,
  kTypeRaw = 4,
  kTypeBreakpoint = 5,
};

// Header feature bits (util/header.h enum HEADER_*).
enum Feature : uint32_t {
  kFeatReserved = 0,
  kFeatTracingData = 1,
  kFeatBuildId = 2,
  kFeatHostname = 3,
  kFeatOsRelease = 4,
  kFeatVersion = 5,
  kFeatArch = 6,
  kFeatNrCpus = 7,
  kFeatCpuDesc = 8,
  kFeatCpuId = 9,
  kFeatTotalMem = 10,
  kFeatCmdline = 11,
  kFeatEventDesc = 12,
  kFeatCpuTopology = 13,
  kFeatNumaTopology = 14,
  kFeatBranchStack = 15,
  kFeatPmuMappings = 16,
  kFeatGroupDesc = 17,
  kFeatAuxtrace = 18,
  kFeatStat = 19,
  kFeatCache = 20,
  kFeatSampleTime = 21,
  kFeatMemTopology = 22,
  kFeatClockid = 23,
  kFeatDirFormat = 24,
  kFeatBpfProgInfo = 25,
  kFeatBpfBtf = 26,
  kFeatCompressed = 27,
  kFeatCpuPmuCaps = 28,
  kFeatClockData = 29,
  kFeatHybridTopology = 30,
  kFeatPmuCaps = 31,
  kFeatLastFeature6_1 = 32,  // HEADER_LAST_FEATURE in perf 6.1
  kFeatBits = 256,
};

}  // namespace readperf
