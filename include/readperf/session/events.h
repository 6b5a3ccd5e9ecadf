// The kernel records that build a Machine, parsed from their bytes (perf_event.h
// PERF_RECORD_MMAP, MMAP2, COMM, FORK, EXIT, KSYMBOL and perf's build-id record). Strings and
// build-ids are views into the record.
//
//   MmapEvent m;
//   if (parse_mmap(record, order, m)) machine.process_mmap(m, record.misc & kMiscCpumodeMask);
#pragma once

#include <cstdint>
#include <string_view>

#include "readperf/format/byte_cursor.h"
#include "readperf/reader/record.h"

namespace readperf {

struct MmapEvent {
  bool is_mmap2 = false;
  uint16_t misc = 0;
  int32_t pid = 0;
  int32_t tid = 0;
  uint64_t start = 0;
  uint64_t len = 0;
  uint64_t pgoff = 0;
  // MMAP2 only: the device and inode, or (PERF_RECORD_MISC_MMAP_BUILD_ID) a build-id.
  uint32_t maj = 0;
  uint32_t min = 0;
  uint64_t ino = 0;
  uint64_t ino_generation = 0;
  bool has_build_id = false;
  Bytes build_id;
  // MMAP2 prot/flags; MMAP gets PROT_EXEC unless it is a data mapping (machine.c).
  uint32_t prot = 0;
  uint32_t flags = 0;
  std::string_view filename;
};

struct CommEvent {
  int32_t pid = 0;
  int32_t tid = 0;
  std::string_view comm;
  bool exec = false;  // PERF_RECORD_MISC_COMM_EXEC
};

// FORK and EXIT (perf_event.h: pid, ppid, tid, ptid, time).
struct TaskEvent {
  int32_t pid = 0;
  int32_t ppid = 0;
  int32_t tid = 0;
  int32_t ptid = 0;
  uint64_t time = 0;
  uint16_t misc = 0;
};

struct KsymbolEvent {
  uint64_t addr = 0;
  uint32_t len = 0;
  uint16_t ksym_type = 0;
  uint16_t flags = 0;
  std::string_view name;
};

// One entry of the build-id table (header feature BUILD_ID, or a HEADER_BUILD_ID record).
struct BuildIdEvent {
  uint16_t misc = 0;
  int32_t pid = 0;
  Bytes build_id;  // the used bytes (20, or the recorded size when it is given)
  std::string_view filename;
};

constexpr uint32_t kProtRead = 1;
constexpr uint32_t kProtWrite = 2;
constexpr uint32_t kProtExec = 4;
constexpr uint32_t kMapShared = 1;
constexpr uint32_t kMapHugetlb = 0x40000;

bool parse_mmap(const RecordView& r, ByteOrder order, MmapEvent& out);
bool parse_comm(const RecordView& r, ByteOrder order, CommEvent& out);
bool parse_task(const RecordView& r, ByteOrder order, TaskEvent& out);
bool parse_ksymbol(const RecordView& r, ByteOrder order, KsymbolEvent& out);
// Parses the build-id entry at the cursor (perf_record_header_build_id), advancing past it.
bool parse_build_id(ByteCursor& c, BuildIdEvent& out);

}  // namespace readperf
