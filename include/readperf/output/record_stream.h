// Every kernel record of a recording in perf's delivery order (what `perf script` and its
// Python scripting see: samples and side-band records such as MMAP, COMM, FORK, EXIT, LOST,
// SWITCH), handed out in batches of flat rows for the Python binding's `records()`. Samples
// are resolved by the sample stream the exporters share (the session, the Resolver, read-format
// samples split per counter); names are interned, each batch carrying the strings first used
// in it, so that a consumer in another thread needs nothing from the reader.
//
//   RecordStreamConfig cfg;
//   cfg.symbols = SymbolConfig::from_environment();
//   std::vector<std::string> strings;
//   Status st = stream_records(*data, cfg, [&](RecordBatch& b) {
//     strings.insert(strings.end(), b.new_strings.begin(), b.new_strings.end());
//     for (const RecordRow& r : b.rows) use(strings[r.comm], r.period);
//     return true;  // false stops the reading
//   });
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "readperf/analysis/sample_selection.h"
#include "readperf/format/error.h"
#include "readperf/output/trace_format.h"
#include "readperf/reader/perf_data.h"
#include "readperf/symbols/symbol_config.h"

namespace readperf {

// One call-chain entry (trace-event-python.c python_process_callchain()).
struct RecordFrame {
  uint64_t ip = 0;
  uint64_t sym_start = 0, sym_end = 0;  // the symbol's range, when has_symbol
  uint64_t symoff = 0;                  // perf's sym_off
  uint32_t symbol = 0;                  // string id, when has_symbol
  uint32_t dso = 0;                     // string id, when has_map
  uint8_t binding = 0;
  bool has_symbol = false;
  bool has_map = false;
  bool operator==(const RecordFrame&) const = default;
};

// One record. For a SAMPLE: the sample's fields, its thread's comm, its own address's dso and
// symbol (perf's machine__resolve()), its call chain in `frames`, its raw data (tracepoints) in
// `bytes` and its tracepoint's format in `format`. For another record: its type, misc, sample_id
// fields (time, pid, tid, cpu, ~0 / -1 when not recorded) and the whole record, header included, in
// `bytes`.
struct RecordRow {
  uint32_t type = 0;
  uint16_t misc = 0;
  uint8_t cpumode = 0;
  bool has_symbol = false;  // symbol, symoff, sym_start, sym_end are set
  bool has_map = false;     // dso, map_start, map_end are set
  bool has_callchain = false;
  int32_t event = -1;  // evsel index, -1 when the record names no event
  int32_t pid = -1, tid = -1;
  uint32_t cpu = ~0u;
  uint64_t time = ~0ull;
  uint64_t ip = 0, addr = 0, period = 0, phys_addr = 0, weight = 0, transaction = 0;
  uint64_t id = ~0ull;
  uint64_t file_offset = 0;
  uint32_t comm = 0, dso = 0, symbol = 0;  // string ids
  uint64_t symoff = 0, sym_start = 0, sym_end = 0, map_start = 0, map_end = 0;
  uint32_t frames_begin = 0, frames_count = 0;  // into RecordBatch::frames
  uint32_t bytes_begin = 0, bytes_size = 0;     // into RecordBatch::bytes
  // A tracepoint sample's format (its fields: tracepoint_values.h), null for others.
  const tep_event* format = nullptr;
};

struct RecordBatch {
  std::vector<RecordRow> rows;
  std::vector<RecordFrame> frames;
  std::vector<std::byte> bytes;
  // The strings first used in this batch; the first has id `first_string` (id 0 is "").
  std::vector<std::string> new_strings;
  uint32_t first_string = 0;
  // Owns the tracepoint formats the rows point to.
  std::shared_ptr<const TraceFormatter> tracing;

  // Empties the batch, keeping the vectors' memory for the next one.
  void clear() {
    rows.clear();
    frames.clear();
    bytes.clear();
    new_strings.clear();
    first_string = 0;
    tracing.reset();
  }
};

struct RecordStreamConfig {
  SymbolConfig symbols;
  uint32_t max_stack = 127;  // perf's scripting_max_stack
  SampleSelection selection;  // the samples exported (default: all)
  // Resolve and hand out call chains (perf script's symbol_conf.use_callchain).
  bool callchains = true;
  // Resolve the samples' own addresses (dso, symbol); false: their threads only (comm).
  bool resolve_symbols = true;
  size_t batch_rows = 4096;
  // Record types to hand out (perf's numbers); empty for every kernel record.
  std::vector<uint32_t> types;
  // Evsel indexes whose samples to hand out; empty for all. Samples of other events are not
  // resolved.
  std::vector<uint32_t> events;
};

// Reads `data`, calling `emit` with each batch (the last one possibly short); `emit` returns
// false to stop the reading there. `emit` takes what it keeps of the batch (moves it out) and
// may leave in its place an emptied batch of its own, whose memory the next batch reuses:
// fresh memory for every batch costs more in page faults than the rows cost to fill. The
// status is the reading's: on damage, the batches before it were emitted.
Status stream_records(PerfData& data, const RecordStreamConfig& config,
                      const std::function<bool(RecordBatch&)>& emit);

}  // namespace readperf
