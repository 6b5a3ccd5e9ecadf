// Writing a pipe-mode perf.data stream, what `perf record -o -` writes: a 16-byte header
// (util/header.c perf_header__write_pipe), then the header as records
// (util/synthetic-events.c perf_event__synthesize_for_pipe: HEADER_ATTR per event, a
// HEADER_FEATURE per feature and the HEADER_LAST_FEATURE mark, HEADER_TRACING_DATA), then
// the data records. Nothing is ever seeked back to, so the output may be a pipe.
//
//   auto w = PipeWriter::create("-", ByteOrder::kNative);   // "-": standard output
//   (*w)->write_attr(event);
//   (*w)->write_feature(kFeatHostname, section);             // section in the output's order
//   (*w)->write_last_feature();
//   (*w)->write(record_bytes);
//   (*w)->finish();
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "readperf/format/perf_abi.h"
#include "readperf/writer/perf_data_writer.h"
#include "readperf/writer/record_output.h"

namespace readperf {

// The features perf 6.1 synthesizes as HEADER_FEATURE records: those header.c declares with
// FEAT_OPR (.synthesize = true). TRACING_DATA and BUILD_ID travel as their own records;
// BRANCH_STACK, AUXTRACE, STAT, CACHE, DIR_FORMAT and HYBRID_TOPOLOGY are not sent in a pipe.
bool pipe_carries_feature(uint32_t feature);

class PipeWriter : public RecordOutput {
 public:
  // `path` "-" writes to standard output (left open at the end).
  static Result<std::unique_ptr<PipeWriter>> create(const std::string& path, ByteOrder order);
  ~PipeWriter() override;

  ByteOrder order() const override { return order_; }
  Status write(Bytes bytes) override;

  // PERF_RECORD_HEADER_ATTR (perf_event__synthesize_attr): perf 6.1's 128-byte attr, its
  // size field 128 (perf_event__process_attr finds the ids after attr.size bytes; a swapped
  // reader after sizeof(struct perf_event_attr)), then the ids.
  Status write_attr(const WriterEvent& event);
  // PERF_RECORD_HEADER_FEATURE: the feature id (in this machine's order: perf has no swap op
  // for the record and reads feat_id as it is), then the section, in the output's order.
  Status write_feature(uint32_t feature, Bytes section);
  // The HEADER_LAST_FEATURE mark that ends perf_event__synthesize_features().
  Status write_last_feature() { return write_feature(kFeatLastFeature6_1, {}); }
  // PERF_RECORD_HEADER_TRACING_DATA with the size rounded up to 8, then the data and its
  // zero padding (perf_event__synthesize_tracing_data).
  Status write_tracing_data(Bytes data);
  // A BUILD_ID feature section (in the output's order) as HEADER_BUILD_ID records: the same
  // entries with the record type set (perf_event__synthesize_build_id).
  Status write_build_ids(Bytes section);
  // PERF_RECORD_EVENT_UPDATE of type NAME for the event with id `id`
  // (perf_event__synthesize_event_update_name): a pipe has no EVENT_DESC that perf reads in
  // time to name its events, so perf record -o - sends their names this way.
  Status write_event_name(uint64_t id, std::string_view name);
  Status finish();
  uint64_t bytes_written() const { return written_; }

  static constexpr uint32_t kAttrBytes = 128;  // sizeof(struct perf_event_attr) in perf 6.1

 private:
  PipeWriter() = default;
  Status flush();
  void put_header(uint32_t type, uint16_t misc, uint16_t size);

  int fd_ = -1;
  bool owns_fd_ = false;
  std::string path_;
  ByteOrder order_ = ByteOrder::kNative;
  std::vector<std::byte> buf_;
  uint64_t written_ = 0;
};

}  // namespace readperf
