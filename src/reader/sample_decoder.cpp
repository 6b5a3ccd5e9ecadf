#include "readperf/reader/sample_decoder.h"

#include <bit>

#include <fmt/format.h>

#include "readperf/format/perf_abi.h"

namespace readperf {

namespace {

// perf_event.h struct perf_branch_entry bit-fields, LSB first on little-endian machines.
constexpr int kBranchFlagWidths[] = {1, 1, 1, 1, 16, 4, 2, 4, 3, 31};

// A big-endian writer's bit-field word (already byte-swapped as a u64) has its first field at
// the most significant end; move every field to its little-endian place
// (evsel.c evsel__bitfield_swap_branch_flags).
uint64_t swap_branch_flags(uint64_t v) {
  uint64_t out = 0;
  int le_pos = 0;
  for (int width : kBranchFlagWidths) {
    int be_pos = 64 - le_pos - width;
    uint64_t mask = width == 64 ? ~0ull : ((1ull << width) - 1);
    out |= ((v >> be_pos) & mask) << le_pos;
    le_pos += width;
  }
  return out;
}

Error short_record(const RecordView& r, std::string_view what) {
  return Error(fmt::format("record type {} ({}) size {}: {} runs past the end of the record",
                           r.type, record_type_name(r.type), r.size, what),
               r.decompressed ? Error::kNoOffset : r.file_offset);
}

}  // namespace

ReadValue SampleRead::group_value(size_t i, uint64_t read_format) const {
  size_t words = read_value_words(read_format);
  ReadValue v;
  size_t at = i * words;
  v.value = values[at++];
  if (read_format & kFormatId) v.id = values[at++];
  if (read_format & kFormatLost) v.lost = values[at++];
  return v;
}

const char* branch_type_name(unsigned type) {
  static constexpr const char* kNames[kBranchTypeMax] = {
      "N/A",    "COND",      "UNCOND",   "IND",  "CALL", "IND_CALL", "RET",   "SYSCALL",
      "SYSRET", "COND_CALL", "COND_RET", "ERET", "IRQ",  "SERROR",   "NO_TX", ""};
  return type < kBranchTypeMax ? kNames[type] : nullptr;
}

const char* branch_new_type_name(unsigned new_type) {
  static constexpr const char* kNames[kBranchNewTypeMax] = {
      "FAULT_ALGN", "FAULT_DATA", "FAULT_INST", "ARCH_1", "ARCH_2", "ARCH_3", "ARCH_4", "ARCH_5"};
  return new_type < kBranchNewTypeMax ? kNames[new_type] : nullptr;
}

const char* branch_type_text(BranchFlags f) {
  if (f.type() == kBranchTypeUnknown) return "";
  if (f.type() == kBranchTypeExtendAbi) {
    const char* name = branch_new_type_name(f.new_type());
    return name ? name : "(null)";
  }
  return branch_type_name(f.type());
}

BranchEntry BranchStack::entry(size_t i) const {
  U64Array words(entries.subspan(i * 24, 24), order);
  BranchEntry e{words[0], words[1], words[2]};
  if (order == ByteOrder::kSwapped) e.flags = swap_branch_flags(e.flags);
  return e;
}

SampleLayout SampleLayout::for_attr(const EventAttr& attr) {
  SampleLayout l;
  uint64_t t = attr.sample_type;
  l.sample_type_ = t;
  l.read_format_ = attr.read_format;
  l.sample_period_ = attr.sample_period;
  l.regs_user_mask_ = attr.sample_regs_user;
  l.regs_intr_mask_ = attr.sample_regs_intr;
  l.sample_id_all_ = attr.sample_id_all();
  l.branch_hw_idx_ = attr.branch_sample_type & kBranchSampleHwIndex;
  // evsel.c __evsel__sample_size(): the fixed u64 fields before the variable ones.
  constexpr uint64_t kFixed = kSampleIdentifier | kSampleIp | kSampleTid | kSampleTime |
                              kSampleAddr | kSampleId | kSampleStreamId | kSampleCpu |
                              kSamplePeriod;
  l.fixed_size_ = 8 * std::popcount(t & kFixed);
  constexpr uint64_t kIdFields =
      kSampleTid | kSampleTime | kSampleId | kSampleStreamId | kSampleCpu | kSampleIdentifier;
  l.id_trailer_size_ = 8 * std::popcount(t & kIdFields);
  if (t & kSampleIdentifier) {
    l.id_pos_ = 0;
    l.is_pos_ = 1;
  } else if (t & kSampleId) {
    l.id_pos_ = std::popcount(t & (kSampleIp | kSampleTid | kSampleTime | kSampleAddr));
    l.is_pos_ = 1 + std::popcount(t & (kSampleCpu | kSampleStreamId));
  }
  return l;
}

Status SampleLayout::decode_trailer(const RecordView& r, ByteOrder order, Sample& s) const {
  size_t n = (r.bytes.size() - kRecordHeaderSize) / 8;
  if (id_trailer_size_ / 8 > n) return tl::unexpected(short_record(r, "sample_id trailer"));
  ByteCursor c = r.body(order);
  c.seek((n - id_trailer_size_ / 8) * 8);
  uint64_t t = sample_type_;
  // The trailer is written in the same order as a sample's fields (perf_event.h
  // struct sample_id); perf reads it backwards from the end, to the same effect.
  if (t & kSampleTid) {
    s.pid = static_cast<int32_t>(c.u32());
    s.tid = static_cast<int32_t>(c.u32());
  }
  if (t & kSampleTime) s.time = c.u64();
  if (t & kSampleId) s.id = c.u64();
  if (t & kSampleStreamId) s.stream_id = c.u64();
  if (t & kSampleCpu) {
    s.cpu = c.u32();
    c.u32();
  }
  if (t & kSampleIdentifier) s.id = c.u64();
  return {};
}

Status SampleLayout::decode(const RecordView& r, ByteOrder order, Sample& s) const {
  // Copied from a fresh one rather than value-initialized: a copy of these ~350 bytes is a
  // few vector moves, the value-initialization a `rep stos` (a third of decode() before).
  static const Sample kFresh{};
  s = kFresh;
  s.type = r.type;
  s.misc = r.misc;
  s.sample_type = sample_type_;
  s.period = sample_period_;
  if (r.type != kRecordSample) {
    if (!sample_id_all_) return {};
    return decode_trailer(r, order, s);
  }
  uint64_t t = sample_type_;
  ByteCursor c = r.body(order);
  if (c.remaining() < fixed_size_) return tl::unexpected(short_record(r, "sample"));
  if (t & kSampleIdentifier) s.id = c.u64();
  if (t & kSampleIp) s.ip = c.u64();
  if (t & kSampleTid) {
    s.pid = static_cast<int32_t>(c.u32());
    s.tid = static_cast<int32_t>(c.u32());
  }
  if (t & kSampleTime) s.time = c.u64();
  if (t & kSampleAddr) s.addr = c.u64();
  if (t & kSampleId) s.id = c.u64();
  if (t & kSampleStreamId) s.stream_id = c.u64();
  if (t & kSampleCpu) {
    s.cpu = c.u32();
    c.u32();
  }
  if (t & kSamplePeriod) s.period = c.u64();
  if (t & kSampleRead) {
    if (read_format_ & kFormatGroup) {
      s.read.group_nr = c.u64();
    } else {
      s.read.one.value = c.u64();
    }
    if (read_format_ & kFormatTotalTimeEnabled) s.read.time_enabled = c.u64();
    if (read_format_ & kFormatTotalTimeRunning) s.read.time_running = c.u64();
    if (read_format_ & kFormatGroup) {
      uint64_t words = read_value_words(read_format_);
      if (s.read.group_nr > c.remaining() / (8 * words)) {
        return tl::unexpected(short_record(r, "read group"));
      }
      s.read.values = U64Array(c.bytes(s.read.group_nr * words * 8), order);
    } else {
      if (read_format_ & kFormatId) s.read.one.id = c.u64();
      if (read_format_ & kFormatLost) s.read.one.lost = c.u64();
    }
  }
  if (t & kSampleCallchain) {
    uint64_t nr = c.u64();
    if (nr > c.remaining() / 8) return tl::unexpected(short_record(r, "callchain"));
    s.has_callchain = true;
    s.callchain = U64Array(c.bytes(nr * 8), order);
  }
  if (t & kSampleRaw) {
    s.raw_size = c.u32();
    if (s.raw_size > c.remaining()) return tl::unexpected(short_record(r, "raw data"));
    s.raw = c.bytes(s.raw_size);
  }
  if (t & kSampleBranchStack) {
    s.has_branch_stack = true;
    BranchStack& b = s.branch_stack;
    b.nr = c.u64();
    b.order = order;
    if (branch_hw_idx_) {
      b.has_hw_idx = true;
      b.hw_idx = c.u64();
    }
    if (b.nr > c.remaining() / 24) return tl::unexpected(short_record(r, "branch stack"));
    b.entries = c.bytes(b.nr * 24);
  }
  if (t & kSampleRegsUser) {
    s.user_regs.abi = c.u64();
    if (s.user_regs.abi) {
      s.user_regs.mask = regs_user_mask_;
      size_t n = std::popcount(regs_user_mask_);
      if (n > c.remaining() / 8) return tl::unexpected(short_record(r, "user registers"));
      s.user_regs.regs = U64Array(c.bytes(n * 8), order);
    }
  }
  if (t & kSampleStackUser) {
    s.user_stack_offset = kRecordHeaderSize + c.position();
    uint64_t size = c.u64();
    if (size) {
      if (size > c.remaining()) return tl::unexpected(short_record(r, "user stack"));
      s.user_stack = c.bytes(size);
      s.user_stack_order = order;
      s.user_stack_size = c.u64();
      if (c.ok() && s.user_stack_size > size) {
        return tl::unexpected(Error(
            fmt::format("user stack dump of {} bytes is larger than its {}-byte copy",
                        s.user_stack_size, size),
            r.file_offset));
      }
    }
  }
  if (t & kSampleWeightType) {
    uint64_t w = c.u64();
    // x86's arch_perf_parse_sample_weight(): the struct form keeps the low 32 bits as the
    // weight and bits 32-47 as the instruction latency.
    if (t & kSampleWeight) {
      s.weight = w;
    } else {
      s.weight = w & 0xffffffffu;
      s.ins_lat = static_cast<uint16_t>(w >> 32);
    }
  }
  if (t & kSampleDataSrc) s.data_src = c.u64();
  if (t & kSampleTransaction) s.transaction = c.u64();
  if (t & kSampleRegsIntr) {
    s.intr_regs.abi = c.u64();
    if (s.intr_regs.abi) {
      s.intr_regs.mask = regs_intr_mask_;
      size_t n = std::popcount(regs_intr_mask_);
      if (n > c.remaining() / 8) return tl::unexpected(short_record(r, "intr registers"));
      s.intr_regs.regs = U64Array(c.bytes(n * 8), order);
    }
  }
  if (t & kSamplePhysAddr) s.phys_addr = c.u64();
  if (t & kSampleCgroup) s.cgroup = c.u64();
  if (t & kSampleDataPageSize) s.data_page_size = c.u64();
  if (t & kSampleCodePageSize) s.code_page_size = c.u64();
  if (t & kSampleAux) {
    uint64_t size = c.u64();
    if (size > c.remaining()) return tl::unexpected(short_record(r, "aux sample"));
    s.aux = c.bytes(size);
  }
  if (!c.ok()) return tl::unexpected(short_record(r, "sample"));
  return {};
}

uint64_t SampleLayout::timestamp(const RecordView& r, ByteOrder order) const {
  if (!(sample_type_ & kSampleTime)) return ~0ull;
  if (r.type != kRecordSample) {
    if (!sample_id_all_) return ~0ull;
    Sample s;
    s.time = ~0ull;
    if (!decode_trailer(r, order, s)) return ~0ull;
    return s.time;
  }
  ByteCursor c = r.body(order);
  c.skip(8 * std::popcount(sample_type_ & (kSampleIdentifier | kSampleIp | kSampleTid)));
  uint64_t time = c.u64();
  return c.ok() ? time : ~0ull;
}

}  // namespace readperf
