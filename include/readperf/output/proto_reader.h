// A protocol buffers wire-format decoder, the reading half of proto_writer.h: the fields of
// one message, bounds-checked (a hostile profile gives an error naming the offset, never a read
// past its end). Varints, 64- and 32-bit fields, length-delimited fields and packed repeated
// varints (protobuf's encoding guide); groups are refused.
//
//   Status st = for_each_field(message, [&](const ProtoField& f) -> Status {
//     if (f.number == 1 && f.wire == ProtoWireType::kVarint) id = f.value;
//     if (f.number == 2) return for_each_varint(f, [&](uint64_t v) { ids.push_back(v); });
//     return {};
//   });
#pragma once

#include <cstdint>
#include <functional>
#include <string_view>

#include "readperf/format/error.h"

namespace readperf {

enum class ProtoWireType : uint8_t {
  kVarint = 0,
  kFixed64 = 1,
  kLengthDelimited = 2,
  kFixed32 = 5
};

struct ProtoField {
  uint32_t number = 0;
  ProtoWireType wire = ProtoWireType::kVarint;
  uint64_t value = 0;      // varint and fixed fields
  std::string_view bytes;  // length-delimited fields
  uint64_t offset = 0;     // of the field's tag in the message
};

// Calls `fn` for each field of `message` in order; the first error (malformed bytes or one
// `fn` returns) ends it.
Status for_each_field(std::string_view message, const std::function<Status(const ProtoField&)>& fn);

// The values of a repeated varint field: packed (length-delimited) or one varint.
Status for_each_varint(const ProtoField& field, const std::function<void(uint64_t)>& fn);

}  // namespace readperf
