#include "ctf_writer.h"

#include <bit>
#include <cctype>
#include <string>

namespace readperf::ctf {

namespace {

// create_int_type(): `size` bits, signed or not, decimal or hexadecimal, this machine's order.
FieldTypeRef int_type(unsigned size, bool sign, bool hex) {
  FieldTypeRef t(bt_ctf_field_type_integer_create(size));
  if (!t) return t;
  if (sign && bt_ctf_field_type_integer_set_signed(t.get(), 1)) return nullptr;
  if (hex && bt_ctf_field_type_integer_set_base(t.get(), BT_CTF_INTEGER_BASE_HEXADECIMAL))
    return nullptr;
  bt_ctf_field_type_set_byte_order(t.get(), std::endian::native == std::endian::big
                                                ? BT_CTF_BYTE_ORDER_BIG_ENDIAN
                                                : BT_CTF_BYTE_ORDER_LITTLE_ENDIAN);
  return t;
}

}  // namespace

bool Types::create() {
  s64 = int_type(64, true, false);
  u64 = int_type(64, false, false);
  s32 = int_type(32, true, false);
  u32 = int_type(32, false, false);
  u32_hex = int_type(32, false, true);
  u64_hex = int_type(64, false, true);
  string.reset(bt_ctf_field_type_string_create());
  return s64 && u64 && s32 && u32 && u32_hex && u64_hex && string;
}

bool set_integer(bt_ctf_event* event, struct bt_ctf_field_type* type, const char* name,
                 uint64_t value) {
  FieldRef field(bt_ctf_field_create(type));
  if (!field) return false;
  int ret = bt_ctf_field_type_integer_get_signed(type) > 0
                ? bt_ctf_field_signed_integer_set_value(field.get(), static_cast<int64_t>(value))
                : bt_ctf_field_unsigned_integer_set_value(field.get(), value);
  return ret == 0 && bt_ctf_event_set_payload(event, name, field.get()) == 0;
}

int set_string_value(bt_ctf_field* field, std::string_view s) {
  // isprint() in the C locale perf runs the converter in.
  std::string text;
  text.reserve(s.size());
  for (char c : s) {
    auto b = static_cast<unsigned char>(c);
    if (b >= 0x20 && b < 0x7f) {
      text.push_back(c);
    } else {
      static constexpr char kHex[] = "0123456789abcdef";
      text += "\\x";
      text.push_back(kHex[b >> 4]);
      text.push_back(kHex[b & 15]);
    }
  }
  return bt_ctf_field_string_set_value(field, text.c_str());
}

bool set_string(bt_ctf_event* event, struct bt_ctf_field_type* type, const char* name,
                std::string_view s) {
  FieldRef field(bt_ctf_field_create(type));
  if (!field) return false;
  return set_string_value(field.get(), s) == 0 &&
         bt_ctf_event_set_payload(event, name, field.get()) == 0;
}

}  // namespace readperf::ctf
