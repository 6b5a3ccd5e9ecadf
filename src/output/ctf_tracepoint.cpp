// A tracepoint's fields in the CTF trace, as data-convert-bt.c adds them: the field type each
// format field gets (get_tracepoint_field_type), its name in the event class
// (event_class_add_field) and its value in one sample (add_tracepoint_field_value), over
// libtraceevent's parsed format. Unlike perf, every read of the raw data is bounded by it.
#include <event-parse.h>

#include <cstring>
#include <string>

#include "ctf_writer.h"
#include "readperf/output/tracepoint_values.h"

namespace readperf::ctf {

namespace {

// get_tracepoint_field_type(): strings; unsigned longs and pointers (mostly addresses) in
// hexadecimal; else signed or unsigned, 64 bits for 8-byte fields, 32 for the others.
struct bt_ctf_field_type* field_type(const Types& t, const tep_format_field* f) {
  unsigned long flags = f->flags;
  if (flags & TEP_FIELD_IS_STRING) return t.string.get();
  if (!(flags & TEP_FIELD_IS_SIGNED) && (flags & (TEP_FIELD_IS_LONG | TEP_FIELD_IS_POINTER)))
    return t.u64_hex.get();
  if (flags & TEP_FIELD_IS_SIGNED) return f->size == 8 ? t.s64.get() : t.s32.get();
  return f->size == 8 ? t.u64.get() : t.u32.get();
}

// A string field holds a C string: an array of chars, not an array of CTF fields.
unsigned long effective_flags(const tep_format_field* f) {
  unsigned long flags = f->flags;
  if (flags & TEP_FIELD_IS_STRING) flags &= ~static_cast<unsigned long>(TEP_FIELD_IS_ARRAY);
  return flags;
}

// The C string at `offset`, ending at its NUL or at the end of the raw data.
std::string_view read_string(std::span<const std::byte> raw, uint64_t offset) {
  if (offset >= raw.size()) return {};
  const char* p = reinterpret_cast<const char*>(raw.data() + offset);
  return std::string_view(p, strnlen(p, raw.size() - offset));
}

}  // namespace

bool TracepointFields::add_types(const Types& types, tep_event* format,
                                 bt_ctf_event_class* event_class) {
  for (tep_format_field* list : {format->format.common_fields, format->format.fields}) {
    for (tep_format_field* f = list; f; f = f->next) {
      struct bt_ctf_field_type* type = field_type(types, f);
      FieldTypeRef array;
      if (effective_flags(f) & TEP_FIELD_IS_ARRAY) {
        array.reset(bt_ctf_field_type_array_create(type, f->arraylen));
        type = array.get();
      }
      // event_class_add_field(): a field seen in an earlier class keeps its name; a CTF
      // keyword gets a '_' prefix; a name the class has gets "_dupl_N" (N from 1 to 9).
      auto known = names_.find(f);
      std::string name;
      if (known != names_.end()) {
        name = known->second;
      } else {
        name = f->name;
        if (bt_ctf_validate_identifier(name.c_str())) name = "_" + name;
        for (int dup = 1;; ++dup) {
          FieldTypeRef existing(bt_ctf_event_class_get_field_by_name(event_class, name.c_str()));
          if (!existing) break;
          if (dup >= 10) return false;
          name = std::string(f->name) + "_dupl_" + std::to_string(dup);
        }
      }
      if (bt_ctf_event_class_add_field(event_class, type, name.c_str())) return false;
      names_.emplace(f, name);
    }
  }
  return true;
}

bool TracepointFields::add_values(const Types& types, tep_event* format,
                                  bt_ctf_event_class* event_class, bt_ctf_event* event,
                                  std::span<const std::byte> raw) {
  for (tep_format_field* list : {format->format.common_fields, format->format.fields}) {
    for (tep_format_field* f = list; f; f = f->next) {
      auto named = names_.find(f);
      if (named == names_.end()) return false;
      const char* name = named->second.c_str();
      unsigned long flags = effective_flags(f);
      uint64_t offset = static_cast<uint32_t>(f->offset);
      int len = f->size;
      if (flags & TEP_FIELD_IS_DYNAMIC) {
        // The field holds the data's place: offset in the low 16 bits, length above.
        uint64_t where = read_trace_number(*f, raw, offset, len);
        uint64_t base = offset;
        offset = where & 0xffff;
        len = static_cast<int>((where >> 16) & 0xffff);
        if (flags & TEP_FIELD_IS_RELATIVE) offset += base + static_cast<uint32_t>(f->size);
      }
      FieldRef array;
      unsigned n_items = 1;
      if (flags & TEP_FIELD_IS_ARRAY) {
        FieldTypeRef array_type(bt_ctf_event_class_get_field_by_name(event_class, name));
        array.reset(bt_ctf_field_create(array_type.get()));
        if (!array || !f->arraylen) return false;
        len = f->size / static_cast<int>(f->arraylen);
        n_items = f->arraylen;
      }
      struct bt_ctf_field_type* type = field_type(types, f);
      for (unsigned i = 0; i < n_items; ++i) {
        FieldRef field(array ? bt_ctf_field_array_get_field(array.get(), i)
                             : bt_ctf_field_create(type));
        if (!field) return false;
        uint64_t at = offset + static_cast<uint64_t>(i) * static_cast<uint64_t>(len);
        int ret;
        if (flags & TEP_FIELD_IS_STRING) {
          ret = set_string_value(field.get(), read_string(raw, at));
        } else {
          uint64_t value = read_trace_number(*f, raw, at, len);
          ret = (flags & TEP_FIELD_IS_SIGNED)
                    ? bt_ctf_field_signed_integer_set_value(
                          field.get(), static_cast<int64_t>(sign_extend(value, len)))
                    : bt_ctf_field_unsigned_integer_set_value(field.get(), value);
        }
        if (ret) return false;
        if (!array && bt_ctf_event_set_payload(event, name, field.get())) return false;
      }
      if (array && bt_ctf_event_set_payload(event, name, array.get())) return false;
    }
  }
  return true;
}

}  // namespace readperf::ctf
