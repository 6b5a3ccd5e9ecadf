// trace-event-python.c python_process_tracepoint() and get_field_numeric_entry(), bounded.
#include "readperf/output/tracepoint_values.h"

#include <event-parse.h>

#include <cctype>
#include <cstring>

namespace readperf {

namespace {

// util/print_binary.c is_printable_array(): NUL-terminated, printable or space before it.
bool is_printable_array(const char* p, size_t len) {
  if (!len || p[len - 1] != 0) return false;
  for (size_t i = 0; i + 1 < len && p[i]; ++i) {
    auto c = static_cast<unsigned char>(p[i]);
    if (!isprint(c) && !isspace(c)) return false;
  }
  return true;
}

}  // namespace

std::vector<const tep_format_field*> tracepoint_fields(const tep_event& format) {
  std::vector<const tep_format_field*> out;
  for (const tep_format_field* list : {format.format.common_fields, format.format.fields}) {
    for (const tep_format_field* f = list; f; f = f->next) out.push_back(f);
  }
  return out;
}

std::string_view tracepoint_field_name(const tep_format_field& field) { return field.name; }

uint64_t sign_extend(uint64_t value, int size) {
  if (size != 1 && size != 2 && size != 4) return value;
  uint64_t sign = 1ull << (size * 8 - 1);
  value &= (sign << 1) - 1;
  return (value ^ sign) - sign;
}

uint64_t read_trace_number(const tep_format_field& field, Bytes raw, uint64_t offset, int size) {
  if (size <= 0 || size > 8 || offset > raw.size() ||
      raw.size() - offset < static_cast<uint64_t>(size))
    return 0;
  return tep_read_number(field.event->tep, raw.data() + offset, size);
}

TracepointValue read_tracepoint_field(const tep_format_field& field, Bytes raw) {
  TracepointValue v;
  v.is_signed = (field.flags & TEP_FIELD_IS_SIGNED) != 0;
  if (!(field.flags & TEP_FIELD_IS_ARRAY)) {
    v.number = read_trace_number(field, raw, static_cast<uint32_t>(field.offset), field.size);
    if (v.is_signed) v.number = sign_extend(v.number, field.size);
    return v;
  }
  uint64_t offset = static_cast<uint32_t>(field.offset);
  uint64_t len = static_cast<uint32_t>(field.size);
  bool dynamic = (field.flags & TEP_FIELD_IS_DYNAMIC) != 0;
  if (dynamic) {
    // The field holds the data's place: offset in the low 16 bits, length above.
    uint64_t where = read_trace_number(field, raw, offset, field.size);
    uint64_t base = offset;
    offset = where & 0xffff;
    len = (where >> 16) & 0xffff;
    if (field.flags & TEP_FIELD_IS_RELATIVE) offset += base + static_cast<uint32_t>(field.size);
  }
  if (offset > raw.size()) offset = raw.size();
  len = std::min<uint64_t>(len, raw.size() - offset);
  v.bytes = raw.subspan(offset, len);
  const char* p = reinterpret_cast<const char*>(v.bytes.data());
  if (field.flags & TEP_FIELD_IS_STRING) {
    if (is_printable_array(p, len)) {
      v.kind = TracepointValue::Kind::kString;
      v.text = std::string_view(p, strnlen(p, len));
    } else {
      v.kind = TracepointValue::Kind::kBytes;
    }
    return v;
  }
  // A fixed array of numbers (perf hands out its bytes; its items are more use).
  if (!dynamic && field.arraylen > 0 && field.size % field.arraylen == 0) {
    v.kind = TracepointValue::Kind::kNumberArray;
    v.item_size = static_cast<uint32_t>(field.size) / field.arraylen;
    v.items = static_cast<uint32_t>(len / v.item_size);
    return v;
  }
  v.kind = TracepointValue::Kind::kBytes;
  return v;
}

uint64_t tracepoint_array_item(const tep_format_field& field, const TracepointValue& v,
                               uint32_t i) {
  uint64_t x =
      read_trace_number(field, v.bytes, uint64_t{i} * v.item_size, static_cast<int>(v.item_size));
  return v.is_signed ? sign_extend(x, static_cast<int>(v.item_size)) : x;
}

}  // namespace readperf
