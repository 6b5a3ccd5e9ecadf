#include "readperf/output/proto_reader.h"

#include <fmt/format.h>

#include <cstring>

namespace readperf {

namespace {

// A varint at `pos` (at most ten bytes); advances `pos`.
Result<uint64_t> read_varint(std::string_view s, size_t& pos) {
  uint64_t v = 0;
  for (int shift = 0; shift < 70; shift += 7) {
    if (pos >= s.size()) return make_error("a varint cut short", pos);
    uint8_t b = static_cast<uint8_t>(s[pos++]);
    if (shift == 63 && b > 1) return make_error("a varint of more than 64 bits", pos - 1);
    v |= uint64_t{b & 0x7fu} << shift;
    if (!(b & 0x80)) return v;
  }
  return make_error("a varint longer than ten bytes", pos);
}

}  // namespace

Status for_each_field(std::string_view message,
                      const std::function<Status(const ProtoField&)>& fn) {
  size_t pos = 0;
  while (pos < message.size()) {
    ProtoField f;
    f.offset = pos;
    ASSIGN_OR_RETURN(uint64_t tag, read_varint(message, pos));
    uint64_t number = tag >> 3;
    if (number == 0 || number > 0x1fffffff) {
      return make_error(fmt::format("field number {}", number), f.offset);
    }
    f.number = static_cast<uint32_t>(number);
    switch (tag & 7) {
      case 0: {
        f.wire = ProtoWireType::kVarint;
        ASSIGN_OR_RETURN(f.value, read_varint(message, pos));
        break;
      }
      case 1: {
        f.wire = ProtoWireType::kFixed64;
        if (message.size() - pos < 8) return make_error("a 64-bit field cut short", f.offset);
        std::memcpy(&f.value, message.data() + pos, 8);
        pos += 8;
        break;
      }
      case 2: {
        f.wire = ProtoWireType::kLengthDelimited;
        ASSIGN_OR_RETURN(uint64_t len, read_varint(message, pos));
        if (len > message.size() - pos) {
          return make_error(fmt::format("a field of {} bytes past the message's end", len),
                            f.offset);
        }
        f.bytes = message.substr(pos, static_cast<size_t>(len));
        pos += static_cast<size_t>(len);
        break;
      }
      case 5: {
        f.wire = ProtoWireType::kFixed32;
        if (message.size() - pos < 4) return make_error("a 32-bit field cut short", f.offset);
        uint32_t v;
        std::memcpy(&v, message.data() + pos, 4);
        f.value = v;
        pos += 4;
        break;
      }
      default:
        return make_error(fmt::format("wire type {}", tag & 7), f.offset);
    }
    RETURN_IF_ERROR(fn(f));
  }
  return {};
}

Status for_each_varint(const ProtoField& field, const std::function<void(uint64_t)>& fn) {
  if (field.wire == ProtoWireType::kVarint) {
    fn(field.value);
    return {};
  }
  if (field.wire != ProtoWireType::kLengthDelimited) {
    return make_error("a repeated varint of another wire type", field.offset);
  }
  size_t pos = 0;
  while (pos < field.bytes.size()) {
    Result<uint64_t> v = read_varint(field.bytes, pos);
    if (!v) return make_error(v.error().what(), field.offset);
    fn(*v);
  }
  return {};
}

}  // namespace readperf
