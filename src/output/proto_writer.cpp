#include "readperf/output/proto_writer.h"

namespace readperf {

void ProtoWriter::packed(uint32_t field, std::span<const uint64_t> values) {
  if (values.empty()) return;
  size_t len = 0;
  for (uint64_t v : values) len += varint_size(v);
  tag(field, kLengthDelimited);
  varint(len);
  for (uint64_t v : values) varint(v);
}

void ProtoWriter::packed_int64(uint32_t field, std::span<const int64_t> values) {
  if (values.empty()) return;
  size_t len = 0;
  for (int64_t v : values) len += varint_size(static_cast<uint64_t>(v));
  tag(field, kLengthDelimited);
  varint(len);
  for (int64_t v : values) varint(static_cast<uint64_t>(v));
}

}  // namespace readperf
