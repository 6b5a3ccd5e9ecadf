// Decoding of PERF_RECORD_SAMPLE bodies and sample_id trailers. The layout is computed once
// per attr; decoding a record is then one pass in the kernel's output order
// (perf_event.h PERF_RECORD_SAMPLE, perf's util/evsel.c evsel__parse_sample).
//
//   SampleLayout layout = SampleLayout::for_attr(attr);
//   Sample s;
//   Status ok = layout.decode(record, order, s);
#pragma once

#include <cstdint>

#include "readperf/format/error.h"
#include "readperf/format/event_attr.h"
#include "readperf/reader/record.h"
#include "readperf/reader/sample.h"

namespace readperf {

class SampleLayout {
 public:
  static SampleLayout for_attr(const EventAttr& attr);

  // Decodes a sample, or the sample_id trailer of another kernel record (leaving perf's
  // defaults when the attr has no sample_id_all). Fails when the record is too short.
  Status decode(const RecordView& r, ByteOrder order, Sample& out) const;
  // Just the time, for ordering (evsel__parse_sample_timestamp): nullopt-like ~0 if none.
  uint64_t timestamp(const RecordView& r, ByteOrder order) const;

  uint64_t sample_type() const { return sample_type_; }
  // Bytes of the sample_id trailer on non-sample records (perf_evsel__calc_id_hdr_size).
  size_t id_trailer_size() const { return id_trailer_size_; }
  // Position, in u64 words, of the id in a sample, or in the trailer from its end
  // (evsel.c __perf_evsel__calc_id_pos / __perf_evsel__calc_is_pos); -1 when there is none.
  int id_pos() const { return id_pos_; }
  int is_pos() const { return is_pos_; }

 private:
  Status decode_trailer(const RecordView& r, ByteOrder order, Sample& out) const;

  uint64_t sample_type_ = 0;
  uint64_t read_format_ = 0;
  uint64_t sample_period_ = 0;
  uint64_t regs_user_mask_ = 0;
  uint64_t regs_intr_mask_ = 0;
  bool sample_id_all_ = false;
  bool branch_hw_idx_ = false;
  size_t fixed_size_ = 0;
  size_t id_trailer_size_ = 0;
  int id_pos_ = -1;
  int is_pos_ = -1;
};

// Number of u64 words in one PERF_FORMAT_GROUP entry.
inline size_t read_value_words(uint64_t read_format) {
  return 1 + ((read_format & 4) ? 1 : 0) + ((read_format & 16) ? 1 : 0);
}

}  // namespace readperf
