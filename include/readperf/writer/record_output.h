// Where converted records go: a perf.data file (PerfDataWriter) or a pipe-mode stream
// (PipeWriter). The converter hands each record, already in the output's byte order, to
// write().
#pragma once

#include "readperf/format/byte_cursor.h"
#include "readperf/format/error.h"

namespace readperf {

class RecordOutput {
 public:
  virtual ~RecordOutput() = default;
  virtual ByteOrder order() const = 0;
  // Appends bytes to the data (whole records, or the data carried after an AUXTRACE or
  // HEADER_TRACING_DATA record).
  virtual Status write(Bytes bytes) = 0;
};

}  // namespace readperf
