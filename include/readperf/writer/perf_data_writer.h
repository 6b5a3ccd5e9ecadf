// Writing a perf.data file (PERFILE2, util/header.c perf_session__do_write_header's layout):
// the 104-byte header, each event's ids, the attrs section, the data, then the feature table
// and the feature sections, in this machine's byte order or the other one.
//
//   auto w = PerfDataWriter::create("out.data", {.order = ByteOrder::kSwapped});
//   (*w)->begin(events);                  // ids and attrs go before the data, as perf puts them
//   (*w)->write(record_bytes);            // records already in the output's byte order
//   (*w)->finish({}, features);           // feature sections, in the output's byte order
//
// When the events are not known before the data (a pipe-mode input), begin({}) starts the data
// right after the header and finish(events, ...) puts the ids and attrs after the features.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "readperf/format/byte_cursor.h"
#include "readperf/format/error.h"
#include "readperf/format/event_attr.h"
#include "readperf/writer/record_output.h"

namespace readperf {

struct WriterEvent {
  EventAttr attr;
  std::vector<uint64_t> ids;
};

struct WriterOptions {
  ByteOrder order = ByteOrder::kNative;
  // Bytes of each attr in the attrs section (perf 6.1's sizeof(struct perf_event_attr)).
  uint32_t attr_bytes = 128;
  // The data starts here at the earliest (zeros after the attrs), to keep an input's layout.
  uint64_t min_data_offset = 0;
};

class PerfDataWriter : public RecordOutput {
 public:
  static Result<std::unique_ptr<PerfDataWriter>> create(const std::string& path,
                                                        const WriterOptions& options);
  ~PerfDataWriter() override;

  ByteOrder order() const override { return options_.order; }
  Status begin(const std::vector<WriterEvent>& events);
  // Appends bytes to the data section (whole records, or the data following an AUXTRACE).
  Status write(Bytes bytes) override;
  // Offset in the file of the next byte write() puts down.
  uint64_t offset() const { return data_offset_ + data_size_; }
  uint64_t data_size() const { return data_size_; }
  // Writes the features (id -> section bytes in the output's order, written in id order),
  // the ids and attrs if begin() had none, and the header. `events` is used only then.
  Status finish(const std::vector<WriterEvent>& events,
                const std::map<uint32_t, std::vector<std::byte>>& features);

 private:
  PerfDataWriter() = default;
  Status flush();
  Status write_at(uint64_t offset, const std::vector<std::byte>& bytes);
  // The ids then the attrs (each attr followed by its ids' section), starting at `at`.
  std::vector<std::byte> attrs_block(const std::vector<WriterEvent>& events, uint64_t at,
                                     uint64_t* attrs_offset) const;

  int fd_ = -1;
  std::string path_;
  WriterOptions options_;
  std::vector<std::byte> buf_;
  uint64_t data_offset_ = 0;
  uint64_t data_size_ = 0;
  uint64_t attrs_offset_ = 0;
  uint64_t nr_events_ = 0;
  bool events_written_ = false;
};

}  // namespace readperf
