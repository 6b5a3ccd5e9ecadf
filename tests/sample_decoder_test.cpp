#include "readperf/reader/sample_decoder.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <memory>
#include <random>

#include "byte_writer.h"
#include "perf_data_builder.h"
#include "readperf/format/perf_abi.h"
#include "test_util.h"

namespace readperf::testing {
namespace {

constexpr ByteOrder kOrders[] = {ByteOrder::kNative, ByteOrder::kSwapped};

// A record and what decoding it gave; the Sample points into `bytes`, so this stays put.
struct Decoded {
  std::vector<std::byte> bytes;
  Sample sample;
  Status status;
  std::string desc;
  std::string error() const { return status ? "" : status.error().message(); }
};

// Writes a record of `type` for `attr` in `order` (a sample, or a 16-byte body plus the
// sample_id trailer), optionally cut to `keep` bytes of body, and decodes it.
std::unique_ptr<Decoded> Decode(const EventAttr& attr, const SampleFields& f, ByteOrder order,
                                uint32_t type = kRecordSample, size_t keep = SIZE_MAX) {
  ByteWriter body(order);
  if (type == kRecordSample) {
    WriteSampleBody(body, attr, f);
  } else {
    body.u64(0x1111).u64(0x2222);
    WriteSampleIdTrailer(body, attr, f);
  }
  std::vector<std::byte> b = body.take();
  if (keep < b.size()) b.resize(keep);
  ByteWriter rec(order);
  rec.u32(type).u16(f.misc).u16(static_cast<uint16_t>(8 + b.size())).bytes(b);
  auto d = std::make_unique<Decoded>();
  d->bytes = rec.take();
  RecordView r;
  r.type = type;
  r.misc = f.misc;
  r.size = static_cast<uint16_t>(d->bytes.size());
  r.bytes = d->bytes;
  r.file_offset = 0x1000;
  d->status = SampleLayout::for_attr(attr).decode(r, order, d->sample);
  if (d->status) d->desc = Describe(d->sample, attr.read_format);
  return d;
}

// Decodes in both byte orders, checks they agree exactly, returns the native decoding.
std::unique_ptr<Decoded> DecodeBoth(const EventAttr& attr, const SampleFields& f,
                                    uint32_t type = kRecordSample) {
  auto native = Decode(attr, f, ByteOrder::kNative, type);
  auto swapped = Decode(attr, f, ByteOrder::kSwapped, type);
  EXPECT_TRUE(native->status) << native->error();
  EXPECT_EQ(native->desc, swapped->desc);
  EXPECT_EQ(native->error(), swapped->error());
  return native;
}

std::vector<uint8_t> Pattern(size_t n, uint8_t start) {
  std::vector<uint8_t> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = static_cast<uint8_t>(start + i);
  return v;
}

Bytes AsBytes(const std::vector<uint8_t>& v) {
  return {reinterpret_cast<const std::byte*>(v.data()), v.size()};
}

TEST(SampleDecoder, FixedFields) {
  EventAttr a = SampleAttr(kSampleIdentifier | kSampleIp | kSampleTid | kSampleTime | kSampleAddr |
                           kSampleId | kSampleStreamId | kSampleCpu | kSamplePeriod);
  auto d = DecodeBoth(a, {.misc = kMiscKernel | kMiscExactIp,
                          .identifier = 77,
                          .ip = 0xffffffff81000000,
                          .pid = 10,
                          .tid = 11,
                          .time = 123456789,
                          .addr = 0xdead,
                          .id = 77,
                          .stream_id = 78,
                          .cpu = 3,
                          .period = 250000});
  const Sample& s = d->sample;
  EXPECT_EQ(s.id, 77u);
  EXPECT_EQ(s.ip, 0xffffffff81000000u);
  EXPECT_EQ(s.pid, 10);
  EXPECT_EQ(s.tid, 11);
  EXPECT_EQ(s.time, 123456789u);
  EXPECT_EQ(s.addr, 0xdeadu);
  EXPECT_EQ(s.stream_id, 78u);
  EXPECT_EQ(s.cpu, 3u);
  EXPECT_EQ(s.period, 250000u);
  EXPECT_EQ(s.cpumode(), kMiscKernel);
  EXPECT_EQ(s.misc & kMiscExactIp, kMiscExactIp);
}

TEST(SampleDecoder, AbsentFieldsTakePerfDefaults) {
  EventAttr a = SampleAttr(kSampleIp);
  a.sample_period = 4000;
  auto d = DecodeBoth(a, {.ip = 1});
  EXPECT_EQ(d->sample.pid, -1);
  EXPECT_EQ(d->sample.tid, -1);
  EXPECT_EQ(d->sample.time, ~0ull);
  EXPECT_EQ(d->sample.id, ~0ull);
  EXPECT_EQ(d->sample.stream_id, ~0ull);
  EXPECT_EQ(d->sample.cpu, ~0u);
  EXPECT_EQ(d->sample.period, 4000u);  // the attr's period when the sample has none
}

TEST(SampleDecoder, ReadInEveryReadFormat) {
  for (uint64_t fmt = 0; fmt < 32; ++fmt) {
    SCOPED_TRACE(fmt);
    EventAttr a = SampleAttr(kSampleTid | kSampleRead, fmt);
    SampleFields f{.pid = 1,
                   .tid = 2,
                   .read = {.value = 100, .id = 7, .lost = 3},
                   .time_enabled = 5000,
                   .time_running = 4000,
                   .group = {{10, 71, 1}, {20, 72, 2}, {30, 73, 3}}};
    auto d = DecodeBoth(a, f);
    const SampleRead& r = d->sample.read;
    EXPECT_EQ(r.time_enabled, (fmt & kFormatTotalTimeEnabled) ? 5000u : 0u);
    EXPECT_EQ(r.time_running, (fmt & kFormatTotalTimeRunning) ? 4000u : 0u);
    if (fmt & kFormatGroup) {
      ASSERT_EQ(r.group_nr, 3u);
      EXPECT_EQ(r.values.size(), 3 * read_value_words(fmt));
      for (size_t i = 0; i < 3; ++i) {
        ReadValue v = r.group_value(i, fmt);
        EXPECT_EQ(v.value, f.group[i].value);
        EXPECT_EQ(v.id, (fmt & kFormatId) ? f.group[i].id : 0u);
        EXPECT_EQ(v.lost, (fmt & kFormatLost) ? f.group[i].lost : 0u);
      }
    } else {
      EXPECT_EQ(r.one.value, 100u);
      EXPECT_EQ(r.one.id, (fmt & kFormatId) ? 7u : 0u);
      EXPECT_EQ(r.one.lost, (fmt & kFormatLost) ? 3u : 0u);
    }
  }
}

TEST(SampleDecoder, Callchain) {
  EventAttr a = SampleAttr(kSampleIp | kSampleCallchain | kSamplePeriod);
  auto d = DecodeBoth(
      a, {.ip = 1, .period = 9, .callchain = {0xfffffffffffffe00, 0xffffffff81000010, 0x401000}});
  ASSERT_TRUE(d->sample.has_callchain);
  ASSERT_EQ(d->sample.callchain.size(), 3u);
  EXPECT_EQ(d->sample.callchain[0], 0xfffffffffffffe00u);  // PERF_CONTEXT_USER
  EXPECT_EQ(d->sample.callchain[2], 0x401000u);
  EXPECT_EQ(d->sample.period, 9u);  // the field after the chain is still in place

  auto empty = DecodeBoth(a, {.ip = 1, .period = 9});
  EXPECT_TRUE(empty->sample.has_callchain);
  EXPECT_EQ(empty->sample.callchain.size(), 0u);
}

TEST(SampleDecoder, RawIsKeptAsWritten) {
  EventAttr a = SampleAttr(kSampleRaw | kSampleTime);
  std::vector<uint8_t> raw = Pattern(12, 0xa0);  // 4 + 12: the kernel keeps it u64-aligned
  for (ByteOrder o : kOrders) {
    auto d = Decode(a, {.time = 5, .raw = raw}, o);
    ASSERT_TRUE(d->status) << d->error();
    EXPECT_EQ(d->sample.raw_size, 12u);
    ASSERT_EQ(d->sample.raw.size(), 12u);
    EXPECT_TRUE(
        std::equal(raw.begin(), raw.end(), reinterpret_cast<const uint8_t*>(d->sample.raw.data())));
    EXPECT_EQ(d->sample.time, 5u);
  }
}

// mispred=1, predicted=0, in_tx=1, abort=0, cycles=0x1234, type=5, spec=2, new_type=7,
// priv=3, reserved=0: every field set, so a field moved by the bit-field swap shows.
constexpr uint64_t kBranchFlags = 1ull | (1ull << 2) | (0x1234ull << 4) | (5ull << 20) |
                                  (2ull << 24) | (7ull << 26) | (3ull << 30);

TEST(SampleDecoder, BranchStackWithoutHwIdx) {
  EventAttr a = SampleAttr(kSampleIp | kSampleBranchStack | kSampleWeight);
  auto d = DecodeBoth(
      a,
      {.ip = 1, .branches = {{0x1000, 0x2000, kBranchFlags}, {0x3000, 0x4000, 2}}, .weight = 44});
  const BranchStack& b = d->sample.branch_stack;
  ASSERT_TRUE(d->sample.has_branch_stack);
  EXPECT_FALSE(b.has_hw_idx);
  ASSERT_EQ(b.nr, 2u);
  EXPECT_EQ(b.entry(0).from, 0x1000u);
  EXPECT_EQ(b.entry(0).to, 0x2000u);
  EXPECT_EQ(b.entry(0).flags, kBranchFlags);
  EXPECT_EQ(b.entry(1).flags, 2u);
  EXPECT_EQ(d->sample.weight, 44u);
}

TEST(SampleDecoder, BranchStackWithHwIdx) {
  EventAttr a = SampleAttr(kSampleIp | kSampleBranchStack | kSampleWeight);
  a.branch_sample_type = kBranchSampleHwIndex | 1;
  auto d = DecodeBoth(a, {.ip = 1,
                          .branches = {{0x1000, 0x2000, kBranchFlags}},
                          .hw_idx = 0xfffffffffffffffe,
                          .weight = 44});
  const BranchStack& b = d->sample.branch_stack;
  EXPECT_TRUE(b.has_hw_idx);
  EXPECT_EQ(b.hw_idx, 0xfffffffffffffffeu);
  ASSERT_EQ(b.nr, 1u);
  EXPECT_EQ(b.entry(0).to, 0x2000u);
  EXPECT_EQ(b.entry(0).flags, kBranchFlags);
  EXPECT_EQ(d->sample.weight, 44u);
}

TEST(SampleDecoder, UserAndIntrRegisters) {
  EventAttr a = SampleAttr(kSampleRegsUser | kSampleRegsIntr | kSamplePhysAddr);
  a.sample_regs_user = 0b1011;
  a.sample_regs_intr = 0xff0000000000000f;
  auto d = DecodeBoth(a, {.user_abi = 2,
                          .user_regs = {1, 2, 3},
                          .intr_abi = 2,
                          .intr_regs = {10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21},
                          .phys_addr = 0x7000});
  EXPECT_EQ(d->sample.user_regs.abi, 2u);
  EXPECT_EQ(d->sample.user_regs.mask, 0b1011u);
  ASSERT_EQ(d->sample.user_regs.regs.size(), 3u);
  EXPECT_EQ(d->sample.user_regs.regs[2], 3u);
  ASSERT_EQ(d->sample.intr_regs.regs.size(), 12u);
  EXPECT_EQ(d->sample.intr_regs.regs[11], 21u);
  EXPECT_EQ(d->sample.phys_addr, 0x7000u);

  // ABI NONE (a kernel thread's user registers): no values follow.
  auto none = DecodeBoth(a, {.user_abi = 0, .intr_abi = 0, .phys_addr = 0x8000});
  EXPECT_EQ(none->sample.user_regs.abi, 0u);
  EXPECT_TRUE(none->sample.user_regs.regs.empty());
  EXPECT_TRUE(none->sample.intr_regs.regs.empty());
  EXPECT_EQ(none->sample.phys_addr, 0x8000u);
}

TEST(SampleDecoder, UserStack) {
  EventAttr a = SampleAttr(kSampleTid | kSampleStackUser | kSampleDataSrc);
  std::vector<uint8_t> stack = Pattern(32, 1);
  auto d = DecodeBoth(
      a, {.pid = 1, .tid = 1, .user_stack = stack, .user_stack_dyn_size = 20, .data_src = 0x55});
  EXPECT_EQ(d->sample.user_stack_size, 20u);
  EXPECT_EQ(d->sample.user_stack_offset, 8u + 8u);  // header, then pid/tid
  ASSERT_EQ(d->sample.user_stack.size(), 32u);
  EXPECT_EQ(std::to_integer<int>(d->sample.user_stack[31]), 32);
  EXPECT_EQ(d->sample.data_src, 0x55u);

  auto empty = DecodeBoth(a, {.pid = 1, .tid = 1, .data_src = 0x66});
  EXPECT_EQ(empty->sample.user_stack.size(), 0u);
  EXPECT_EQ(empty->sample.user_stack_size, 0u);
  EXPECT_EQ(empty->sample.data_src, 0x66u);

  auto bad = Decode(a, {.pid = 1, .tid = 1, .user_stack = stack, .user_stack_dyn_size = 33},
                    ByteOrder::kSwapped);
  EXPECT_EQ(bad->error(),
            "offset 0x1000: user stack dump of 33 bytes is larger than its 32-byte copy");
}

TEST(SampleDecoder, WeightAndWeightStruct) {
  auto w = DecodeBoth(SampleAttr(kSampleWeight | kSampleTransaction),
                      {.weight = 0x123456789a, .transaction = 0x42});
  EXPECT_EQ(w->sample.weight, 0x123456789au);
  EXPECT_EQ(w->sample.ins_lat, 0u);
  EXPECT_EQ(w->sample.transaction, 0x42u);

  // union perf_sample_weight: var1_dw (weight) low, var2_w (ins_lat) next, var3_w above.
  auto s = DecodeBoth(SampleAttr(kSampleWeightStruct | kSampleTransaction),
                      {.weight = 0x7777555511223344, .transaction = 0x43});
  EXPECT_EQ(s->sample.weight, 0x11223344u);
  EXPECT_EQ(s->sample.ins_lat, 0x5555u);
  EXPECT_EQ(s->sample.transaction, 0x43u);
}

TEST(SampleDecoder, TrailingScalarsAndAux) {
  EventAttr a = SampleAttr(kSampleDataSrc | kSampleTransaction | kSamplePhysAddr | kSampleCgroup |
                           kSampleDataPageSize | kSampleCodePageSize | kSampleAux);
  std::vector<uint8_t> aux = Pattern(16, 0x30);
  auto d = DecodeBoth(a, {.data_src = 1,
                          .transaction = 2,
                          .phys_addr = 3,
                          .cgroup = 4,
                          .data_page_size = 4096,
                          .code_page_size = 2 << 20,
                          .aux = aux});
  const Sample& s = d->sample;
  EXPECT_EQ(s.data_src, 1u);
  EXPECT_EQ(s.transaction, 2u);
  EXPECT_EQ(s.phys_addr, 3u);
  EXPECT_EQ(s.cgroup, 4u);
  EXPECT_EQ(s.data_page_size, 4096u);
  EXPECT_EQ(s.code_page_size, 2u << 20);
  ASSERT_EQ(s.aux.size(), 16u);
  EXPECT_TRUE(std::equal(s.aux.begin(), s.aux.end(), AsBytes(aux).begin()));
}

// Every field at once, WEIGHT_STRUCT standing for the weight (the kernel refuses both).
EventAttr AllFieldsAttr() {
  EventAttr a = SampleAttr(
      ((1ull << 25) - 1) & ~kSampleWeight,
      kFormatGroup | kFormatId | kFormatLost | kFormatTotalTimeEnabled | kFormatTotalTimeRunning);
  a.branch_sample_type = kBranchSampleHwIndex;
  a.sample_regs_user = 0x7;
  a.sample_regs_intr = 0x3;
  return a;
}

SampleFields AllFields() {
  return {.misc = kMiscUser,
          .identifier = 9,
          .ip = 0x400000,
          .pid = 100,
          .tid = 101,
          .time = 1000000,
          .addr = 0x1234,
          .id = 9,
          .stream_id = 10,
          .cpu = 1,
          .period = 1,
          .time_enabled = 3,
          .time_running = 2,
          .group = {{1, 9, 0}, {2, 10, 1}},
          .callchain = {0xfffffffffffffe00, 0x400000, 0x400100},
          .raw = Pattern(20, 0x61),
          .branches = {{1, 2, kBranchFlags}},
          .hw_idx = 3,
          .user_abi = 2,
          .user_regs = {7, 8, 9},
          .user_stack = Pattern(24, 0),
          .user_stack_dyn_size = 16,
          .weight = 0x0000001200000034,
          .data_src = 0x5080021,
          .transaction = 6,
          .intr_abi = 2,
          .intr_regs = {11, 12},
          .phys_addr = 0x9000,
          .cgroup = 1,
          .data_page_size = 4096,
          .code_page_size = 4096,
          .aux = Pattern(8, 0xf0)};
}

TEST(SampleDecoder, AllFieldsDecodeTheSameInBothOrders) {
  auto d = DecodeBoth(AllFieldsAttr(), AllFields());
  EXPECT_EQ(d->sample.id, 9u);
  EXPECT_EQ(d->sample.read.group_value(1, AllFieldsAttr().read_format).lost, 1u);
  EXPECT_EQ(d->sample.aux.size(), 8u);
}

TEST(SampleDecoder, EveryTruncationIsAnError) {
  EventAttr a = AllFieldsAttr();
  size_t full = Decode(a, AllFields(), ByteOrder::kNative)->bytes.size() - 8;
  for (ByteOrder o : kOrders) {
    for (size_t keep = 0; keep < full; ++keep) {
      auto d = Decode(a, AllFields(), o, kRecordSample, keep);
      ASSERT_FALSE(d->status) << keep;
      EXPECT_TRUE(d->error().starts_with(
          fmt::format("offset 0x1000: record type 9 (SAMPLE) size {}: ", keep + 8)))
          << d->error();
      EXPECT_TRUE(d->error().ends_with(" runs past the end of the record")) << d->error();
    }
  }
}

TEST(SampleDecoder, HugeCountsAreErrorsNotOverflows) {
  struct Case {
    uint64_t sample_type;
    uint64_t read_format;
    std::string what;
  };
  for (const Case& c : std::vector<Case>{{kSampleCallchain, 0, "callchain"},
                                         {kSampleRead, kFormatGroup | kFormatId, "read group"},
                                         {kSampleBranchStack, 0, "branch stack"},
                                         {kSampleStackUser, 0, "user stack"},
                                         {kSampleAux, 0, "aux sample"}}) {
    for (uint64_t n : {~0ull, 1ull << 61, (1ull << 60) + 1, 9ull}) {
      ByteWriter w;
      w.u32(kRecordSample).u16(0).u16(8 + 16).u64(n).u64(0);
      RecordView r{kRecordSample, 0, 24, w.buffer(), 0x20};
      Sample s;
      Status st = SampleLayout::for_attr(SampleAttr(c.sample_type, c.read_format))
                      .decode(r, ByteOrder::kNative, s);
      ASSERT_FALSE(st) << c.what << " " << n;
      EXPECT_EQ(st.error().message(),
                fmt::format("offset 0x20: record type 9 (SAMPLE) size 24: {} runs past the "
                            "end of the record",
                            c.what));
    }
  }
}

TEST(SampleDecoder, RawSizePastTheRecord) {
  ByteWriter w;
  w.u32(kRecordSample).u16(0).u16(16).u32(0xffffffff).u32(0);
  RecordView r{kRecordSample, 0, 16, w.buffer(), 0};
  Sample s;
  Status st = SampleLayout::for_attr(SampleAttr(kSampleRaw)).decode(r, ByteOrder::kNative, s);
  ASSERT_FALSE(st);
  EXPECT_EQ(st.error().what(),
            "record type 9 (SAMPLE) size 16: raw data runs past the end of "
            "the record");
}

TEST(SampleDecoder, RandomSampleTypesDecodeTheSameInBothOrders) {
  std::mt19937_64 rng(12345);
  SampleFields f = AllFields();
  for (int i = 0; i < 500; ++i) {
    uint64_t type = rng() & ((1ull << 25) - 1);
    if ((type & kSampleWeightType) == kSampleWeightType) type &= ~kSampleWeight;
    EventAttr a = SampleAttr(type, rng() & 31);
    if (rng() & 1) a.branch_sample_type = kBranchSampleHwIndex;
    a.sample_regs_user = 0x7;
    a.sample_regs_intr = 0x3;
    f.time = rng();
    f.ip = rng();
    f.user_abi = rng() % 3;
    SCOPED_TRACE(fmt::format("sample_type={:#x} read_format={:#x}", type, a.read_format));
    DecodeBoth(a, f);
    DecodeBoth(a, f, kRecordMmap);
  }
}

TEST(SampleDecoder, SampleIdTrailerOfEveryIdFieldCombination) {
  const uint64_t kIdBits[] = {kSampleTid,      kSampleTime, kSampleId,
                              kSampleStreamId, kSampleCpu,  kSampleIdentifier};
  SampleFields sid{
      .identifier = 55, .pid = 5, .tid = 6, .time = 777, .id = 55, .stream_id = 56, .cpu = 2};
  for (unsigned mask = 0; mask < 64; ++mask) {
    uint64_t type = kSampleIp | kSamplePeriod | kSampleCallchain;  // not in the trailer
    for (int b = 0; b < 6; ++b) {
      if (mask & (1u << b)) type |= kIdBits[b];
    }
    SCOPED_TRACE(fmt::format("{:#x}", type));
    EventAttr a = SampleAttr(type);
    for (uint32_t rt : {kRecordMmap, kRecordComm, kRecordExit, kRecordLostSamples,
                        kRecordSwitchCpuWide, kRecordCgroup}) {
      auto d = DecodeBoth(a, sid, rt);
      const Sample& s = d->sample;
      EXPECT_EQ(s.type, rt);
      EXPECT_EQ(s.pid, (type & kSampleTid) ? 5 : -1);
      EXPECT_EQ(s.tid, (type & kSampleTid) ? 6 : -1);
      EXPECT_EQ(s.time, (type & kSampleTime) ? 777u : ~0ull);
      EXPECT_EQ(s.id, (type & (kSampleId | kSampleIdentifier)) ? 55u : ~0ull);
      EXPECT_EQ(s.stream_id, (type & kSampleStreamId) ? 56u : ~0ull);
      EXPECT_EQ(s.cpu, (type & kSampleCpu) ? 2u : ~0u);
      EXPECT_EQ(SampleLayout::for_attr(a).id_trailer_size(), 8u * std::popcount(mask));
    }
  }
}

TEST(SampleDecoder, NoTrailerWithoutSampleIdAll) {
  EventAttr a = SampleAttr(kSampleTid | kSampleTime);
  a.flags = 0;
  auto d = DecodeBoth(a, {.pid = 5, .tid = 6, .time = 7}, kRecordComm);
  EXPECT_EQ(d->sample.pid, -1);
  EXPECT_EQ(d->sample.time, ~0ull);
}

TEST(SampleDecoder, TrailerLongerThanTheRecord) {
  EventAttr a = SampleAttr(kSampleTid | kSampleTime | kSampleId | kSampleCpu);
  ByteWriter w;
  w.u32(kRecordComm).u16(0).u16(24).u64(1).u64(2);  // 16 bytes, the trailer needs 32
  RecordView r{kRecordComm, 0, 24, w.buffer(), 0x300};
  Sample s;
  Status st = SampleLayout::for_attr(a).decode(r, ByteOrder::kNative, s);
  ASSERT_FALSE(st);
  EXPECT_EQ(st.error().message(),
            "offset 0x300: record type 3 (COMM) size 24: sample_id "
            "trailer runs past the end of the record");
}

TEST(SampleDecoder, Timestamp) {
  for (ByteOrder o : kOrders) {
    EventAttr a = SampleAttr(kSampleIdentifier | kSampleIp | kSampleTid | kSampleTime);
    auto d = Decode(a, {.identifier = 1, .ip = 2, .pid = 3, .tid = 4, .time = 99}, o);
    RecordView r{kRecordSample, 0, static_cast<uint16_t>(d->bytes.size()), d->bytes, 0};
    EXPECT_EQ(SampleLayout::for_attr(a).timestamp(r, o), 99u);
    auto m = Decode(a, {.identifier = 1, .pid = 3, .tid = 4, .time = 98}, o, kRecordMmap);
    RecordView rm{kRecordMmap, 0, static_cast<uint16_t>(m->bytes.size()), m->bytes, 0};
    EXPECT_EQ(SampleLayout::for_attr(a).timestamp(rm, o), 98u);
    EventAttr untimed = SampleAttr(kSampleIp);
    EXPECT_EQ(SampleLayout::for_attr(untimed).timestamp(r, o), ~0ull);
  }
}

TEST(SampleDecoder, IdPositionsMatchPerf) {
  // evsel.c __perf_evsel__calc_id_pos / __perf_evsel__calc_is_pos.
  EXPECT_EQ(SampleLayout::for_attr(SampleAttr(kSampleIdentifier | kSampleIp)).id_pos(), 0);
  EXPECT_EQ(SampleLayout::for_attr(SampleAttr(kSampleIdentifier | kSampleIp)).is_pos(), 1);
  SampleLayout l = SampleLayout::for_attr(
      SampleAttr(kSampleIp | kSampleTid | kSampleTime | kSampleId | kSampleCpu | kSamplePeriod));
  EXPECT_EQ(l.id_pos(), 3);
  EXPECT_EQ(l.is_pos(), 2);
  EXPECT_EQ(SampleLayout::for_attr(SampleAttr(kSampleIp | kSampleTime)).id_pos(), -1);
}

}  // namespace
}  // namespace readperf::testing
