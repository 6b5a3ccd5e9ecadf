// A zero-copy view of one record (perf_event.h struct perf_event_header and what follows),
// with where perf says it came from: `file_offset` is the record's offset in its data file
// (for records inside a PERF_RECORD_COMPRESSED, the offset of that compressed record, as
// perf's session.c __perf_session__process_decomp_events reports it), `source` indexes
// PerfData::source_names() ("perf.data", "pipe", "perf.data/data.1", ...).
#pragma once

#include <cstdint>

#include "readperf/format/byte_cursor.h"

namespace readperf {

constexpr size_t kRecordHeaderSize = 8;

struct RecordView {
  uint32_t type = 0;
  uint16_t misc = 0;
  uint16_t size = 0;
  Bytes bytes;  // the whole record, header included, in the file's byte order
  uint64_t file_offset = 0;
  uint32_t source = 0;
  // Set for records that came out of a compressed record.
  bool decompressed = false;

  // A cursor over the record after its 8-byte header.
  ByteCursor body(ByteOrder order) const {
    return ByteCursor(bytes.subspan(kRecordHeaderSize), order,
                      decompressed ? 0 : file_offset + kRecordHeaderSize);
  }
};

}  // namespace readperf
