// One record decoded with an attr the input chooses. Every view the decoder hands out is read
// in full afterwards, so a view that promises more bytes than the record holds is caught here
// and not only when some printer happens to read it.
#include <cstring>
#include <vector>

#include "fuzz_targets.h"
#include "readperf/format/perf_abi.h"
#include "readperf/reader/sample_decoder.h"

namespace readperf::fuzz {

namespace {

// The input: a flags byte (bit 0: other byte order, bit 1: sample_id_all), the record type,
// the misc word, then sample_type, read_format, sample_regs_user, sample_regs_intr,
// branch_sample_type and sample_period as native u64s; the rest is the record's body.
constexpr size_t kPrefix = 4 + 6 * 8;

uint64_t take_u64(const uint8_t*& p) {
  uint64_t v;
  std::memcpy(&v, p, 8);
  p += 8;
  return v;
}

uint64_t touch(const U64Array& a) {
  uint64_t sum = 0;
  for (size_t i = 0; i < a.size(); ++i) sum += a[i];
  return sum;
}

uint64_t touch(Bytes b) {
  uint64_t sum = 0;
  for (std::byte x : b) sum += static_cast<uint8_t>(x);
  return sum;
}

}  // namespace

int fuzz_sample_decoder(const uint8_t* data, size_t size) {
  if (size < kPrefix) return 0;
  const uint8_t* p = data;
  uint8_t flags = *p++;
  uint8_t type = *p++;
  uint16_t misc;
  std::memcpy(&misc, p, 2);
  p += 2;
  ByteOrder order = (flags & 1) ? ByteOrder::kSwapped : ByteOrder::kNative;
  EventAttr attr;
  attr.sample_type = take_u64(p);
  attr.read_format = take_u64(p);
  attr.sample_regs_user = take_u64(p);
  attr.sample_regs_intr = take_u64(p);
  attr.branch_sample_type = take_u64(p);
  attr.sample_period = take_u64(p);
  if (flags & 2) attr.flags |= 1ull << 18;  // sample_id_all

  // The record: its header in the chosen byte order, the body as given (a record's size is a
  // u16, so longer bodies are cut).
  size_t body = std::min<size_t>(size - kPrefix, 0xffff - kRecordHeaderSize);
  std::vector<std::byte> rec(kRecordHeaderSize + body);
  uint32_t rtype = type % 2 ? kRecordSample : type / 2 % kRecordKernelTypeMax;
  uint16_t rsize = static_cast<uint16_t>(rec.size());
  uint16_t rmisc = misc;
  if (order == ByteOrder::kSwapped) {
    rtype = bswap(rtype);
    rsize = bswap(rsize);
    rmisc = bswap(rmisc);
  }
  std::memcpy(rec.data(), &rtype, 4);
  std::memcpy(rec.data() + 4, &rmisc, 2);
  std::memcpy(rec.data() + 6, &rsize, 2);
  if (body) std::memcpy(rec.data() + kRecordHeaderSize, p, body);

  RecordView r;
  r.type = type % 2 ? kRecordSample : type / 2 % kRecordKernelTypeMax;
  r.misc = misc;
  r.size = static_cast<uint16_t>(rec.size());
  r.bytes = rec;
  r.file_offset = 0x1000;

  SampleLayout layout = SampleLayout::for_attr(attr);
  (void)layout.timestamp(r, order);
  Sample s;
  if (!layout.decode(r, order, s)) return 0;
  volatile uint64_t sink = 0;
  sink = sink + touch(s.callchain) + touch(s.read.values) + touch(s.user_regs.regs) +
         touch(s.intr_regs.regs) + touch(s.raw) + touch(s.user_stack) + touch(s.aux) +
         touch(s.branch_stack.entries);
  // The printers trust nr and group_nr: the views must hold that many entries.
  for (uint64_t i = 0; i < s.branch_stack.nr; ++i) sink = sink + s.branch_stack.entry(i).flags;
  if (attr.read_format & kFormatGroup) {
    for (uint64_t i = 0; i < s.read.group_nr; ++i) {
      sink = sink + s.read.group_value(i, attr.read_format).value;
    }
  }
  return 0;
}

}  // namespace readperf::fuzz
