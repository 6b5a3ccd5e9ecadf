// A tracepoint sample's fields read from its raw data by libtraceevent's parsed format, as
// perf's Python scripting hands them to a handler (trace-event-python.c
// python_process_tracepoint(), get_field_numeric_entry()): a number, a C string (a char array
// whose data is printable), the bytes of any other dynamic or char array, or an array of
// numbers. Unlike perf, every read is bounded by the raw data (past its end: 0 or empty), and
// signed fields are sign-extended (perf hands a negative 32-bit field out as 2**32 - n).
//
//   for (const tep_format_field* f : tracepoint_fields(format))
//     TracepointValue v = read_tracepoint_field(*f, sample.raw);
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "readperf/format/byte_cursor.h"

struct tep_event;
struct tep_format_field;

namespace readperf {

struct TracepointValue {
  enum class Kind { kNumber, kString, kBytes, kNumberArray };
  Kind kind = Kind::kNumber;
  bool is_signed = false;
  uint64_t number = 0;     // kNumber: the value, sign-extended to 64 bits when is_signed
  std::string_view text;   // kString: up to its NUL
  Bytes bytes;             // kBytes: the data; kNumberArray: the items
  uint32_t item_size = 0;  // kNumberArray
  uint32_t items = 0;      // kNumberArray
};

// The common_* fields then the event's own, in the format's order.
std::vector<const tep_format_field*> tracepoint_fields(const tep_event& format);

// The field's name (common_pid, prev_comm, ...).
std::string_view tracepoint_field_name(const tep_format_field& field);

TracepointValue read_tracepoint_field(const tep_format_field& field, Bytes raw);

// Item `i` of a kNumberArray value of `field`, sign-extended when the value is signed.
uint64_t tracepoint_array_item(const tep_format_field& field, const TracepointValue& v, uint32_t i);

// tep_read_number() of `size` bytes at `offset` (the recording's byte order), 0 past the
// end of `raw`.
uint64_t read_trace_number(const tep_format_field& field, Bytes raw, uint64_t offset, int size);

// A `size`-byte value sign-extended to 64 bits (data-convert-bt.c adjust_signedness()).
uint64_t sign_extend(uint64_t value, int size);

}  // namespace readperf
