// A protocol buffers wire-format encoder, enough for profile.proto: varints, length-delimited
// fields and packed repeated varints (protobuf's encoding guide, "Base 128 varints" and
// "Length-delimited records"). Messages nest by encoding the inner one into its own writer
// and adding it as a length-delimited field. proto3 omits fields at their default value, so
// the scalar writers skip zero.
//
//   ProtoWriter vt;
//   vt.int64(1, type_index);
//   vt.int64(2, unit_index);
//   ProtoWriter profile;
//   profile.message(1, vt);   // Profile.sample_type
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace readperf {

class ProtoWriter {
 public:
  enum WireType : uint32_t { kVarint = 0, kLengthDelimited = 2 };

  void varint(uint64_t v) {
    while (v >= 0x80) {
      buf_.push_back(static_cast<char>((v & 0x7f) | 0x80));
      v >>= 7;
    }
    buf_.push_back(static_cast<char>(v));
  }
  void tag(uint32_t field, WireType wire) { varint((uint64_t{field} << 3) | wire); }

  // uint64, and int64 as two's complement (ten bytes for a negative value).
  void uint64(uint32_t field, uint64_t v) {
    if (!v) return;
    tag(field, kVarint);
    varint(v);
  }
  void int64(uint32_t field, int64_t v) { uint64(field, static_cast<uint64_t>(v)); }
  void boolean(uint32_t field, bool v) { uint64(field, v ? 1 : 0); }
  // A string, bytes or an encoded message; written even when empty (repeated strings).
  void bytes(uint32_t field, std::string_view v) {
    tag(field, kLengthDelimited);
    varint(v.size());
    buf_.append(v);
  }
  void message(uint32_t field, const ProtoWriter& m) { bytes(field, m.data()); }
  // A packed repeated varint field (proto3's default for repeated scalars).
  void packed(uint32_t field, std::span<const uint64_t> values);
  void packed_int64(uint32_t field, std::span<const int64_t> values);

  std::string_view data() const { return buf_; }
  void clear() { buf_.clear(); }

 private:
  static size_t varint_size(uint64_t v) {
    size_t n = 1;
    while (v >= 0x80) {
      v >>= 7;
      ++n;
    }
    return n;
  }
  std::string buf_;
};

}  // namespace readperf
