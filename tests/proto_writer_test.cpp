// The protobuf wire encoding of ProtoWriter, byte for byte as the encoding guide gives it.
#include "readperf/output/proto_writer.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace readperf {
namespace {

std::string bytes(const ProtoWriter& w) { return std::string(w.data()); }

TEST(ProtoWriterTest, Varints) {
  ProtoWriter w;
  w.varint(1);
  w.varint(150);  // the guide's example: 96 01
  w.varint(~0ull);
  EXPECT_EQ(bytes(w), std::string("\x01\x96\x01\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01", 13));
}

TEST(ProtoWriterTest, ScalarsSkipDefaultsAndNegativesTakeTenBytes) {
  ProtoWriter w;
  w.uint64(1, 0);
  w.boolean(7, false);
  EXPECT_EQ(bytes(w), "");
  w.uint64(1, 150);
  EXPECT_EQ(bytes(w), std::string("\x08\x96\x01", 3));
  w.clear();
  w.int64(2, -1);
  EXPECT_EQ(w.data().size(), 11u);
}

TEST(ProtoWriterTest, LengthDelimitedAndPacked) {
  ProtoWriter inner;
  inner.int64(1, 3);
  ProtoWriter w;
  w.message(4, inner);
  w.bytes(6, "");
  w.bytes(6, "ab");
  std::vector<uint64_t> ids = {1, 300};
  w.packed(1, ids);
  EXPECT_EQ(bytes(w), std::string("\x22\x02\x08\x03"
                                  "\x32\x00"
                                  "\x32\x02"
                                  "ab"
                                  "\x0a\x03\x01\xac\x02",
                                  15));
}

}  // namespace
}  // namespace readperf
