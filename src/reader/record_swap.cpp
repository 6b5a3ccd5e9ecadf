#include "readperf/reader/record_swap.h"

#include <bit>

#include "readperf/format/perf_abi.h"
#include "readperf/format/transcoder.h"
#include "readperf/reader/feature_swap.h"

namespace readperf {

namespace {

// perf_event.h struct perf_branch_entry bit-fields, least significant first on little-endian
// machines (the widths evsel.c evsel__bitfield_swap_branch_flags() moves).
constexpr int kBranchFlagWidths[] = {1, 1, 1, 1, 16, 4, 2, 4, 3, 31};

uint64_t field_mask(int width) { return width == 64 ? ~0ull : (1ull << width) - 1; }

// What the reader of a big-endian file turns a flags word into (the reader's own
// swap_branch_flags()): fields move from the big-endian end to their little-endian places.
uint64_t swap_branch_flags(uint64_t v) {
  uint64_t out = 0;
  int le_pos = 0;
  for (int width : kBranchFlagWidths) {
    out |= ((v >> (64 - le_pos - width)) & field_mask(width)) << le_pos;
    le_pos += width;
  }
  return out;
}

// A word of two u32s (pid/tid, cpu/res). In a file for perf's reader each u32 is swapped;
// perf itself, swapping in place, leaves the word swapped as a u64 and reads the halves back
// from a copy (evsel.c), so its dump shows them exchanged.
void pair(Transcoder& t, bool in_place) {
  if (in_place) {
    t.u64();
  } else {
    t.u32();
    t.u32();
  }
}

// The sample_id trailer (perf_event.h struct sample_id), in its forward order. perf swaps it
// as u64 words (session.c swap_sample_id_all) and then swaps the u32 halves of the pid/tid and
// cpu words back (evsel.c perf_evsel__parse_id_sample): a u32 pair is two swapped u32s.
void swap_trailer_fields(Transcoder& t, uint64_t st, bool in_place) {
  if (st & kSampleTid) pair(t, in_place);
  if (st & kSampleTime) t.u64();
  if (st & kSampleId) t.u64();
  if (st & kSampleStreamId) t.u64();
  if (st & kSampleCpu) pair(t, in_place);
  if (st & kSampleIdentifier) t.u64();
}

size_t trailer_size(uint64_t st) {
  size_t n = 0;
  for (uint64_t bit :
       {kSampleTid, kSampleTime, kSampleId, kSampleStreamId, kSampleCpu, kSampleIdentifier}) {
    if (st & bit) n += 8;
  }
  return n;
}

// The rest of a kernel record, from where perf's swap op starts swap_sample_id_all().
void swap_trailer(Transcoder& t, const EventAttr* attr, bool sample_id_all, bool in_place) {
  if (!sample_id_all) return t.rest_raw();
  if (attr && attr->sample_id_all()) {
    size_t n = trailer_size(attr->sample_type);
    if (t.remaining() >= n) {
      while (t.remaining() > n && t.remaining() >= 8) t.u64();
      if (t.remaining() == n) return swap_trailer_fields(t, attr->sample_type, in_place);
    }
  }
  t.rest_u64();
}

// A trailer perf does not swap (records without a swap op: KSYMBOL, BPF_EVENT): its u64
// fields must stay as they are, and each u32 pair needs its halves exchanged for perf's
// unconditional pair fix-up to come out right.
void unswapped_trailer(Transcoder& t, const EventAttr* attr, bool sample_id_all, bool in_place) {
  if (in_place || !sample_id_all || !attr || !attr->sample_id_all()) return t.rest_raw();
  uint64_t st = attr->sample_type;
  size_t n = trailer_size(st);
  if (t.remaining() < n) return t.rest_raw();
  t.raw(t.remaining() - n);
  // In both directions the halves trade places and keep their bytes.
  auto raw_pair = [&] {
    uint64_t v = t.peek_u64();
    if (t.from_swapped()) v = bswap(v);  // back to the stored bytes
    t.put<uint64_t>((v >> 32) | (v << 32));
  };
  if (st & kSampleTid) raw_pair();
  for (uint64_t bit : {kSampleTime, kSampleId, kSampleStreamId}) {
    if (st & bit) t.raw(8);
  }
  if (st & kSampleCpu) raw_pair();
  if (st & kSampleIdentifier) t.raw(8);
}

void swap_regs(Transcoder& t, uint64_t mask) {
  uint64_t abi = t.u64();
  if (abi) t.u64s(std::popcount(mask));
}

// PERF_RECORD_SAMPLE: perf swaps the body as u64 words (perf_event__all64_swap), then
// evsel__parse_sample() swaps u32 pairs back, restores the raw and aux data to the bytes
// the file holds, and moves the branch flags' bit-fields.
void swap_sample(Transcoder& t, const EventAttr& a, bool in_place) {
  uint64_t st = a.sample_type;
  if (st & kSampleIdentifier) t.u64();
  if (st & kSampleIp) t.u64();
  if (st & kSampleTid) pair(t, in_place);
  if (st & kSampleTime) t.u64();
  if (st & kSampleAddr) t.u64();
  if (st & kSampleId) t.u64();
  if (st & kSampleStreamId) t.u64();
  if (st & kSampleCpu) pair(t, in_place);
  if (st & kSamplePeriod) t.u64();
  if (st & kSampleRead) {
    uint64_t rf = a.read_format;
    uint64_t times =
        ((rf & kFormatTotalTimeEnabled) ? 1 : 0) + ((rf & kFormatTotalTimeRunning) ? 1 : 0);
    if (rf & kFormatGroup) {
      uint64_t nr = t.u64();
      t.u64s(times);
      uint64_t words = 1 + ((rf & kFormatId) ? 1 : 0) + ((rf & kFormatLost) ? 1 : 0);
      if (nr > t.remaining() / 8 / words) return t.fail();
      t.u64s(nr * words);
    } else {
      t.u64s(1 + times + ((rf & kFormatId) ? 1 : 0) + ((rf & kFormatLost) ? 1 : 0));
    }
  }
  if (st & kSampleCallchain) {
    uint64_t nr = t.u64();
    if (nr > t.remaining() / 8) return t.fail();
    t.u64s(nr);
  }
  if (st & kSampleRaw) {
    if (in_place) {
      // evsel__parse_sample() swaps the size word and the data back in place: perf holds
      // them as the file has them.
      t.raw(4 + size_t{t.peek_u32()});
    } else {
      uint32_t size = t.u32();
      t.raw(size);
    }
  }
  if (st & kSampleBranchStack) {
    uint64_t nr = t.u64();
    if (a.branch_sample_type & kBranchSampleHwIndex) t.u64();
    if (nr > t.remaining() / 24) return t.fail();
    for (uint64_t i = 0; i < nr; ++i) {
      t.u64();
      t.u64();
      uint64_t v = t.peek_u64();
      t.put<uint64_t>(t.from_swapped() ? swap_branch_flags(v) : bswap(unswap_branch_flags(v)));
    }
  }
  if (st & kSampleRegsUser) swap_regs(t, a.sample_regs_user);
  if (st & kSampleStackUser) {
    uint64_t size = t.u64();
    if (size) {
      if (size > t.remaining()) return t.fail();
      // perf leaves the copy as its u64 swap made it (no undo in evsel__parse_sample).
      t.u64s(size / 8);
      t.raw(size % 8);
      t.u64();  // dyn_size
    }
  }
  if (st & kSampleWeightType) t.u64();
  if (st & kSampleDataSrc) t.u64();
  if (st & kSampleTransaction) t.u64();
  if (st & kSampleRegsIntr) swap_regs(t, a.sample_regs_intr);
  if (st & kSamplePhysAddr) t.u64();
  if (st & kSampleCgroup) t.u64();
  if (st & kSampleDataPageSize) t.u64();
  if (st & kSampleCodePageSize) t.u64();
  if (st & kSampleAux) {
    uint64_t size = t.u64();
    t.raw(size);
  }
  t.rest_u64();
}

}  // namespace

// perf_event__attr_swap(): each field up to the attr's own size, but for the ones perf 6.1
// leaves alone (clockid, sample_regs_intr, the reserved words, sig_data, config3); the
// bit-field word keeps its bytes in place and reverses the bits of each (swap_bitfield).
void swap_attr_fields(Transcoder& t, size_t bytes) {
  const size_t base = t.position();
  auto at = [&] { return t.position() - base; };
  t.u32();  // type
  uint32_t size = t.u32();
  auto safe = [&](size_t offset) { return size > offset; };
  struct Field {
    size_t offset, width;
    bool swapped;
  };
  static constexpr Field kFields[] = {
      {8, 8, true},    {16, 8, true},  {24, 8, true},   {32, 8, true},   {48, 4, true},
      {52, 4, true},   {56, 8, true},  {64, 8, true},   {72, 8, true},   {80, 8, true},
      {88, 4, true},   {92, 4, false}, {96, 8, false},  {104, 4, true},  {108, 2, true},
      {110, 2, false}, {112, 4, true}, {116, 4, false}, {120, 8, false},
  };
  for (const Field& f : kFields) {
    if (at() >= bytes) return;
    if (f.offset == 48) {
      // The bit-fields at 40, checked as perf does through read_format's end.
      if (safe(32 + 8)) {
        t.bits_reversed(8);
      } else {
        t.raw(8);
      }
    }
    if (at() >= bytes) return;
    if (!f.swapped || !safe(f.offset)) {
      t.raw(f.width);
    } else if (f.width == 8) {
      t.u64();
    } else if (f.width == 4) {
      t.u32();
    } else {
      t.u16();
    }
  }
  if (at() < bytes) t.raw(bytes - at());
}

uint64_t unswap_branch_flags(uint64_t v) {
  uint64_t out = 0;
  int le_pos = 0;
  for (int width : kBranchFlagWidths) {
    out |= ((v >> le_pos) & field_mask(width)) << (64 - le_pos - width);
    le_pos += width;
  }
  return out;
}

void swap_record(Bytes record, ByteOrder from, const EventAttr* attr, bool sample_id_all,
                 std::vector<std::byte>& out, SwapMode mode) {
  const bool in_place = mode == SwapMode::kPerfInPlace;
  out.reserve(out.size() + record.size());
  Transcoder t(record, from, out);
  uint32_t type = t.u32();
  uint16_t misc = t.u16();
  t.u16();  // size
  switch (type) {
    case kRecordMmap:
      t.u32(), t.u32(), t.u64s(3);
      t.cstring_aligned();
      return swap_trailer(t, attr, sample_id_all, in_place);
    case kRecordMmap2:
      t.u32(), t.u32(), t.u64s(3);
      if (misc & kMiscMmapBuildId) {
        t.raw(24);  // build_id_size, reserved, build_id[20]
      } else {
        t.u32(), t.u32(), t.u64s(2);  // maj, min, ino, ino_generation
      }
      t.raw(8);  // prot, flags: perf_event__mmap2_swap() leaves them
      t.cstring_aligned();
      return swap_trailer(t, attr, sample_id_all, in_place);
    case kRecordComm:
      t.u32(), t.u32();
      t.cstring_aligned();
      return swap_trailer(t, attr, sample_id_all, in_place);
    case kRecordFork:
    case kRecordExit:
      t.u32(), t.u32(), t.u32(), t.u32(), t.u64();
      return swap_trailer(t, attr, sample_id_all, in_place);
    case kRecordLost:
    case kRecordLostSamples:
    case kRecordAuxOutputHwId:
    case kRecordIdIndex:
      return t.rest_u64();
    case kRecordRead:
      t.u32(), t.u32(), t.u64s(4);
      return swap_trailer(t, attr, sample_id_all, in_place);
    case kRecordThrottle:
    case kRecordUnthrottle:
      t.u64s(3);
      return swap_trailer(t, attr, sample_id_all, in_place);
    case kRecordSample:
      if (!attr) return t.rest_u64();
      return swap_sample(t, *attr, in_place);
    case kRecordAux:
      t.u64s(3);
      return swap_trailer(t, attr, sample_id_all, in_place);
    case kRecordItraceStart:
      t.u32(), t.u32();
      return swap_trailer(t, attr, sample_id_all, in_place);
    case kRecordSwitch:
      // perf starts the trailer swap past struct perf_record_switch, 8 bytes into the
      // trailer of this body-less record: those 8 bytes stay as they are.
      if (sample_id_all && t.remaining() >= 8) t.raw(8);
      return swap_trailer(t, nullptr, sample_id_all, in_place);
    case kRecordSwitchCpuWide:
      t.u32(), t.u32();
      return swap_trailer(t, attr, sample_id_all, in_place);
    case kRecordNamespaces: {
      t.u32(), t.u32();
      uint64_t nr = t.u64();
      if (nr > t.remaining() / 16) return t.fail();
      t.u64s(2 * nr);
      return swap_trailer(t, attr, sample_id_all, in_place);
    }
    case kRecordCgroup:
      t.u64();
      t.cstring_aligned();
      return swap_trailer(t, attr, sample_id_all, in_place);
    case kRecordTextPoke: {
      t.u64();
      uint16_t old_len = t.u16();
      uint16_t new_len = t.u16();
      size_t len = 4 + size_t{old_len} + new_len;
      t.raw(std::min(t.remaining(), ((len + 7) & ~size_t{7}) - 4));
      return swap_trailer(t, attr, sample_id_all, in_place);
    }
    case kRecordKsymbol:
    case kRecordBpfEvent: {
      // No swap op in perf 6.1: the body stays as it is.
      return unswapped_trailer(t, attr, sample_id_all, in_place);
    }
    case kRecordHeaderAttr: {
      // The ids start after perf 6.1's struct perf_event_attr (perf_record_header_attr).
      constexpr size_t kAttrStruct = 128;
      Transcoder sub(record.subspan(8, std::min<size_t>(record.size() - 8, kAttrStruct)), from,
                     out);
      swap_attr_fields(sub, std::min<size_t>(record.size() - 8, kAttrStruct));
      Transcoder rest(record.subspan(std::min<size_t>(record.size(), 8 + kAttrStruct)), from, out);
      rest.rest_u64();
      return;
    }
    case kRecordHeaderEventType:
      t.u64();
      return t.rest_raw();
    case kRecordHeaderTracingData:
      t.u32();
      return t.rest_raw();
    case kRecordAuxtraceInfo:
      t.u32();
      t.raw(4);
      return t.rest_u64();
    case kRecordAuxtrace:
      t.u64s(3), t.u32(), t.u32(), t.u32();
      return t.rest_raw();
    case kRecordAuxtraceError: {
      t.u32(), t.u32(), t.u32(), t.u32(), t.u32();
      uint32_t fmt = t.u32();
      t.u64();
      if (fmt) {
        t.u64();
      } else {
        t.raw(8);
      }
      t.raw(64);
      if (fmt >= 2) t.u32(), t.u32();
      return t.rest_raw();
    }
    case kRecordThreadMap: {
      uint64_t nr = t.u64();
      for (uint64_t i = 0; i < nr && t.remaining() >= 24; ++i) {
        t.u64();
        t.raw(16);
      }
      return t.rest_raw();
    }
    case kRecordCpuMap: {
      uint16_t kind = t.u16();
      if (kind == 0) {  // PERF_CPU_MAP__CPUS
        uint16_t nr = t.u16();
        for (uint16_t i = 0; i < nr && t.remaining() >= 2; ++i) t.u16();
      } else if (kind == 1) {  // PERF_CPU_MAP__MASK
        uint16_t nr = t.u16();
        uint16_t long_size = t.u16();
        if (long_size == 4) {
          for (uint16_t i = 0; i < nr && t.remaining() >= 4; ++i) t.u32();
        } else if (long_size == 8) {
          t.raw(4);
          for (uint16_t i = 0; i < nr && t.remaining() >= 8; ++i) t.u64();
        }
      } else if (kind == 2) {  // PERF_CPU_MAP__RANGE_CPUS
        t.raw(2);
        t.u16(), t.u16();
      }
      return t.rest_raw();
    }
    case kRecordStatConfig: {
      uint64_t nr = t.u64();
      if (nr > t.remaining() / 16) return t.fail();
      t.u64s(2 * nr);
      return t.rest_raw();
    }
    case kRecordStat:
      t.u64(), t.u32(), t.u32(), t.u64s(3);
      return t.rest_raw();
    case kRecordStatRound:
      t.u64s(2);
      return t.rest_raw();
    case kRecordEventUpdate:
      // Only type and id: perf reads the payload (scale, cpus) as it is.
      t.u64s(2);
      return t.rest_raw();
    case kRecordTimeConv:
      t.u64s(3);
      if (t.remaining() >= 16) t.u64s(2);
      return t.rest_raw();
    case kRecordHeaderFeature: {
      // perf reads feat_id as it is and swaps the section while processing it.
      uint64_t feat = t.raw_u64_value();
      Bytes body = record.subspan(std::min<size_t>(record.size(), 16));
      swap_feature(static_cast<uint32_t>(feat), body, from, 0, out);
      return;
    }
    default:
      // Types perf has no swap op for (HEADER_BUILD_ID, COMPRESSED, FINISHED_INIT, ...).
      return t.rest_raw();
  }
}

void write_attr(const EventAttr& a, uint32_t bytes, ByteOrder order, std::vector<std::byte>& out) {
  std::vector<std::byte> native(std::max<uint32_t>(bytes, 144));
  auto put = [&](size_t at, auto v) { std::memcpy(native.data() + at, &v, sizeof v); };
  put(0, a.type);
  put(4, a.size);
  put(8, a.config);
  put(16, a.sample_period);
  put(24, a.sample_type);
  put(32, a.read_format);
  put(40, a.flags);
  put(48, a.wakeup_events);
  put(52, a.bp_type);
  put(56, a.config1);
  put(64, a.config2);
  put(72, a.branch_sample_type);
  put(80, a.sample_regs_user);
  put(88, a.sample_stack_user);
  put(92, a.clockid);
  put(96, a.sample_regs_intr);
  put(104, a.aux_watermark);
  put(108, a.sample_max_stack);
  put(110, a.reserved_2);
  put(112, a.aux_sample_size);
  put(116, a.reserved_3);
  put(120, a.sig_data);
  put(128, a.config3);
  put(136, a.config4);
  native.resize(bytes);
  if (order == ByteOrder::kNative) {
    out.insert(out.end(), native.begin(), native.end());
    return;
  }
  Transcoder t(native, ByteOrder::kNative, out);
  swap_attr_fields(t, bytes);
}

}  // namespace readperf
