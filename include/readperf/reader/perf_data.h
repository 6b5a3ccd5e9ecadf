// Opening a recording and reading its records in perf's order.
//
//   auto data = PerfData::open("perf.data");            // or "-" for standard input
//   if (!data) { fmt::print(stderr, "{}\n", data.error().message()); return 1; }
//   MySink sink;                                        // implements EventSink
//   Status st = (*data)->process(sink);
//
// Containers: a PERFILE2 file (mmap), a pipe-mode stream (standard input, a FIFO, or a file
// whose header is the 16-byte pipe header), and a `perf record --threads` directory
// (perf.data/data plus data.N, merged as perf's session.c __perf_session__process_dir_events).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "readperf/format/error.h"
#include "readperf/format/file_header.h"
#include "readperf/reader/event_list.h"
#include "readperf/reader/features.h"
#include "readperf/reader/record.h"
#include "readperf/reader/sample.h"
#include "readperf/reader/tracing_data.h"

namespace readperf {

class MappedFile;
class PerfData;
class StreamInput;

// What the reader hands out, in the order perf's session.c processes and delivers.
class EventSink {
 public:
  virtual ~EventSink() = default;
  // Every record as it is read (after decompression), in input order, before anything else
  // happens to it: where perf counts records (events_stats__inc).
  virtual void on_read(const RecordView& /*r*/) {}
  // A user record (type >= 64) as perf processes it: at once, in input order, before the
  // reader applies it (an ATTR is delivered before its event exists).
  virtual void on_user_record(const RecordView& /*r*/) {}
  // A kernel record leaving perf's ordered queue, with its sample or sample_id decoded using
  // `evsel`'s layout (null when its id names no event; `sample` is then empty).
  virtual void on_kernel_record(const RecordView& /*r*/, const Sample& /*sample*/,
                                const Evsel* /*evsel*/) {}
  // A record the reader skipped (bad sample, unknown id); `what` says why.
  virtual void on_skipped(const RecordView& /*r*/, const Error& /*why*/) {}
  // The AUX area data that follows a PERF_RECORD_AUXTRACE in the input, right after
  // on_user_record() of that record (perf's report -D dumps it there); shorter than the record
  // says when the input ends early.
  virtual void on_auxtrace_data(const RecordView& /*r*/, Bytes /*data*/) {}
  // The tracing data that follows a PERF_RECORD_HEADER_TRACING_DATA in a pipe, right after
  // on_user_record() of that record; PerfData::tracing_data() has it parsed by then.
  virtual void on_tracing_data(const RecordView& /*r*/, Bytes /*data*/) {}
  // Asked after each record of a pipe: true ends process() there, as perf's session_done
  // does (report --header-only stops at the end of the features).
  virtual bool done() const { return false; }
  // Asked after each record of any input: true ends process() at once (a reader of the
  // records that wants no more); the records still queued are not delivered.
  virtual bool cancelled() const { return false; }
};

enum class ContainerKind { kFile, kPipe, kDirectory };

struct ReaderStats {
  uint64_t records = 0;
  uint64_t skipped = 0;
  uint64_t unordered = 0;
  // Why the first skipped record was skipped, with its offset.
  std::optional<Error> first_skip;
};

// Told how far process() has got in a file: called about every MiB of its data sections
// (never once per record), then once with bytes_done == bytes_total, then finished() when
// process() returns. Not called for a stream read from standard input (its size is unknown).
class ProgressObserver {
 public:
  virtual ~ProgressObserver() = default;
  virtual void on_progress(uint64_t bytes_done, uint64_t bytes_total, uint64_t records) = 0;
  virtual void finished() {}
};

class PerfData {
 public:
  // `path` "-" reads a pipe-mode stream from standard input.
  static Result<std::unique_ptr<PerfData>> open(const std::string& path);
  // A recording already in memory (a file or a pipe-mode stream, told apart by its header),
  // read as if it were a file called `name`; the PerfData keeps its own copy of the bytes.
  static Result<std::unique_ptr<PerfData>> open_bytes(std::vector<std::byte> bytes,
                                                      const std::string& name = "memory");
  // A pipe-mode stream read from `fd` (which the PerfData then owns and closes) in order,
  // as standard input is: for sockets and descriptors inherited from a parent.
  static Result<std::unique_ptr<PerfData>> open_stream(int fd, const std::string& name = "pipe");
  ~PerfData();

  ContainerKind kind() const { return kind_; }
  const FileHeader& header() const { return header_; }
  ByteOrder order() const { return header_.order; }
  const EventList& events() const { return events_; }
  EventList& events() { return events_; }
  const Features& features() const { return features_; }
  // Offsets of each feature section (file mode), for the header printer.
  const std::vector<std::pair<uint32_t, FileSection>>& feature_sections() const {
    return feature_sections_;
  }
  // Names perf uses for each data source in its dump ("perf.data", "pipe", "perf.data/data.1").
  const std::vector<std::string>& source_names() const { return source_names_; }
  const std::string& path() const { return path_; }
  const ReaderStats& stats() const { return stats_; }
  // Damage open() read past rather than refused (a data section cut short, a data size of 0
  // left by a killed `perf record`), each with its offset: callers print them as warnings.
  const std::vector<Error>& warnings() const { return warnings_; }
  // The tracepoints' formats: the TRACING_DATA feature, or in a pipe its record once read;
  // empty without one or when it could not be parsed.
  const std::optional<TracingData>& tracing_data() const { return tracing_data_; }

  struct ProcessOptions {
    // Deliver kernel records in perf's time order (its ordered-events queue). Off, they come
    // in file order, as perf's `report --stats` (which clears tool.ordered_events) has them.
    bool ordered = true;
    // Decode each sample; off, sinks get an empty Sample (and the event) for SAMPLE records.
    bool decode_samples = true;
  };

  // Reads every record once, feeding `sink`. Stops at the first error perf would stop at;
  // the error names the file, the offset and the record. The records are read once per
  // PerfData: a second call delivers nothing (open the input again to re-read it).
  Status process(EventSink& sink) { return process(sink, ProcessOptions{}); }
  Status process(EventSink& sink, const ProcessOptions& options);

  // Who is told of process()'s progress (nobody by default); it must outlive process().
  void set_progress(ProgressObserver* progress) { progress_ = progress; }

 private:
  PerfData() = default;
  struct Impl;
  Status open_file(const std::string& path, Bytes bytes);
  static Result<std::unique_ptr<PerfData>> open_image(std::unique_ptr<PerfData> pd, Bytes bytes,
                                                      MappedFile* file);
  static Result<std::unique_ptr<PerfData>> open_stream_input(std::unique_ptr<PerfData> pd,
                                                             std::unique_ptr<StreamInput> s);
  Status read_attrs(Bytes file);
  Status read_feature_sections(Bytes file);
  void set_tracing_data(Bytes data);
  Status process_records(EventSink& sink, const ProcessOptions& options);
  Status process_range(Bytes data, uint64_t base_offset, uint32_t source, EventSink& sink);

  ContainerKind kind_ = ContainerKind::kFile;
  std::string path_;
  FileHeader header_;
  EventList events_;
  Features features_;
  std::vector<std::pair<uint32_t, FileSection>> feature_sections_;
  std::vector<std::string> source_names_;
  ReaderStats stats_;
  std::vector<Error> warnings_;
  std::optional<TracingData> tracing_data_;
  std::unique_ptr<Impl> impl_;
  ProgressObserver* progress_ = nullptr;
};

}  // namespace readperf
