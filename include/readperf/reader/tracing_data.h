// The tracing data perf records for tracepoint events (trace-event-info.c tracing_data_get):
// the HEADER_TRACING_DATA feature section of a file, or the data that follows a
// PERF_RECORD_HEADER_TRACING_DATA in a pipe. It carries the kernel's own format files, which
// say how each tracepoint's raw sample data is laid out and printed.
//
//   Result<TracingData> td = parse_tracing_data(bytes);
//   for (const TracingEvent& e : td->events) fmt::print("{}:{} id {}\n", e.system, e.name, e.id);
//
// Parsing follows trace-event-read.c trace_report(): the magic, the version ("0.5", "0.6"),
// the byte order and sizes of the recording kernel, the ring buffer's header page, the ftrace
// and event format files, kallsyms, printk formats and (0.6) the saved cmdlines. Numbers are
// in the byte order the data itself names, whatever the file's.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "readperf/format/byte_cursor.h"
#include "readperf/format/error.h"

namespace readperf {

// One format file (/sys/kernel/tracing/events/SYS/NAME/format), as recorded, with the name
// and id its "name:" and "ID:" lines give (what perf looks an event up by: attr.config).
struct TracingEvent {
  std::string system;  // "ftrace" for the ftrace files
  std::string name;
  int64_t id = -1;     // -1 when the file has no ID line
  std::string format;  // the whole file
};

// One field of a format file as libtraceevent parsed it (tep_format_field), for what reads
// the field in samples' raw data without libtraceevent (report's dynamic sort keys).
struct TracepointField {
  std::string name;
  uint32_t offset = 0;
  uint32_t size = 0;
  bool is_string = false;        // TEP_FIELD_IS_STRING
  bool is_dynamic = false;       // TEP_FIELD_IS_DYNAMIC: a __data_loc word (offset | size << 16)
  bool is_relative = false;      // TEP_FIELD_IS_RELATIVE: the offset counts from after the word
  const void* handle = nullptr;  // the tep_format_field, owned by its TraceFormatter
};

struct TracingData {
  std::string version;      // "0.5" or "0.6"
  bool big_endian = false;  // the recording kernel's byte order
  uint8_t long_size = 8;    // its sizeof(long)
  uint32_t page_size = 0;
  std::string header_page;   // events/header_page
  std::string header_event;  // events/header_event (perf skips it)
  std::vector<TracingEvent> ftrace_events;
  std::vector<TracingEvent> events;
  std::string kallsyms;  // empty since perf 5.x records none
  std::string printk_formats;
  std::string saved_cmdlines;  // version 0.6 only
  uint64_t size = 0;           // bytes read, as trace_report() returns
};

// Parses the tracing data at the start of `data`. Fails where trace_report() does.
Result<TracingData> parse_tracing_data(Bytes data);

// The "name:" and "ID:" of a format file (event-parse.c event_read_name, event_read_id).
void read_format_name_id(const std::string& format, std::string& name, int64_t& id);

}  // namespace readperf
