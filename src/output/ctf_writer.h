// The pieces of the CTF converter (ctf_converter.cpp, ctf_tracepoint.cpp) over babeltrace 1's
// CTF writer API (<babeltrace/ctf-writer/...>): owning references to its objects, the field
// types perf's converter uses, and setting one integer or string payload field.
#pragma once

#include <babeltrace/ctf-ir/utils.h>
#include <babeltrace/ctf-writer/clock.h>
#include <babeltrace/ctf-writer/event-fields.h>
#include <babeltrace/ctf-writer/event-types.h>
#include <babeltrace/ctf-writer/event.h>
#include <babeltrace/ctf-writer/stream-class.h>
#include <babeltrace/ctf-writer/stream.h>
#include <babeltrace/ctf-writer/writer.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>

struct tep_event;
struct tep_format_field;

namespace readperf::ctf {

// A reference the writer's *_put() releases.
template <class T, void (*Put)(T*)>
struct Putter {
  void operator()(T* p) const {
    if (p) Put(p);
  }
};
template <class T, void (*Put)(T*)>
using Ref = std::unique_ptr<T, Putter<T, Put>>;

using WriterRef = Ref<bt_ctf_writer, bt_ctf_writer_put>;
using ClockRef = Ref<bt_ctf_clock, bt_ctf_clock_put>;
using StreamClassRef = Ref<bt_ctf_stream_class, bt_ctf_stream_class_put>;
using StreamRef = Ref<bt_ctf_stream, bt_ctf_stream_put>;
using EventClassRef = Ref<bt_ctf_event_class, bt_ctf_event_class_put>;
using EventRef = Ref<bt_ctf_event, bt_ctf_event_put>;
using FieldRef = Ref<bt_ctf_field, bt_ctf_field_put>;
using FieldTypeRef = Ref<struct bt_ctf_field_type, bt_ctf_field_type_put>;

// data-convert-bt.c ctf_writer__init_data(): the integer types (this machine's byte order,
// hexadecimal where perf prints addresses) and the string type.
struct Types {
  FieldTypeRef s64, u64, s32, u32, u32_hex, u64_hex, string;
  bool create();
};

// value_set(): an integer payload field of `type` (signed when the type is), false on error.
bool set_integer(bt_ctf_event* event, struct bt_ctf_field_type* type, const char* name,
                 uint64_t value);
// string_set_value(): a string with each unprintable byte written as "\xNN".
int set_string_value(bt_ctf_field* field, std::string_view s);
// value_set_string().
bool set_string(bt_ctf_event* event, struct bt_ctf_field_type* type, const char* name,
                std::string_view s);

// ctf_tracepoint.cpp: add_tracepoint_types() (the fields of a tracepoint's format, common ones
// first, named as perf names them) and add_tracepoint_values() (one sample's raw data).
class TracepointFields {
 public:
  bool add_types(const Types& types, tep_event* format, bt_ctf_event_class* event_class);
  bool add_values(const Types& types, tep_event* format, bt_ctf_event_class* event_class,
                  bt_ctf_event* event, std::span<const std::byte> raw);

 private:
  // The name each field got in its class (perf keeps it in tep_format_field::alias).
  std::unordered_map<const tep_format_field*, std::string> names_;
};

}  // namespace readperf::ctf
