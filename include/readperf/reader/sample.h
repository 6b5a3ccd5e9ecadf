// A decoded PERF_RECORD_SAMPLE, or the sample_id trailer of any other kernel record
// (perf_event.h "struct sample_id"). Field meanings and defaults follow perf's
// util/evsel.c evsel__parse_sample(): cpu/pid/tid are -1 and time/id/stream_id ~0 when absent,
// period defaults to the attr's sample_period. Array fields are zero-copy views into the record.
//
//   Sample s;
//   if (Status st = decode_sample(layout, record, s); !st) ... st.error().message()
#pragma once

#include <cstdint>

#include "readperf/format/byte_cursor.h"
#include "readperf/format/u64_array.h"

namespace readperf {

struct RegsDump {
  uint64_t abi = 0;   // PERF_SAMPLE_REGS_ABI_{NONE,32,64}
  uint64_t mask = 0;  // from the attr; regs holds popcount(mask) values
  U64Array regs;
};

struct ReadValue {
  uint64_t value = 0;
  uint64_t id = 0;
  uint64_t lost = 0;
};

struct SampleRead {
  uint64_t time_enabled = 0;
  uint64_t time_running = 0;
  // Without PERF_FORMAT_GROUP: one value; with it: `group_nr` entries in `values`, each of
  // read_value_words() u64s (value, then id and lost where the read_format has them).
  ReadValue one;
  uint64_t group_nr = 0;
  U64Array values;
  ReadValue group_value(size_t i, uint64_t read_format) const;
};

// struct perf_branch_entry's flag bits (include/uapi/linux/perf_event.h, perf 6.1):
// mispred:1, predicted:1, in_tx:1, abort:1, cycles:16, type:4, spec:2, new_type:4, priv:3.
struct BranchFlags {
  explicit BranchFlags(uint64_t f) : bits(f) {}
  bool mispred() const { return bits & 1; }
  bool predicted() const { return bits & 2; }
  bool in_tx() const { return bits & 4; }
  bool abort() const { return bits & 8; }
  unsigned cycles() const { return (bits >> 4) & 0xffff; }
  unsigned type() const { return (bits >> 20) & 0xf; }
  unsigned new_type() const { return (bits >> 26) & 0xf; }
  uint64_t bits;
};

// perf_event.h PERF_BR_*: the types branch_type_count() and branch_type_str() single out.
inline constexpr unsigned kBranchTypeUnknown = 0;
inline constexpr unsigned kBranchTypeCond = 1;
inline constexpr unsigned kBranchTypeExtendAbi = 15;
inline constexpr unsigned kBranchTypeMax = 16;    // PERF_BR_MAX
inline constexpr unsigned kBranchNewTypeMax = 8;  // PERF_BR_NEW_MAX

// util/branch.c branch_type_name(): "N/A" for PERF_BR_UNKNOWN, "" for PERF_BR_EXTEND_ABI,
// null past PERF_BR_MAX; branch_new_type_name(): the x86 build's names, null past
// PERF_BR_NEW_MAX.
const char* branch_type_name(unsigned type);
const char* branch_new_type_name(unsigned new_type);
// util/branch.c get_branch_type(): "" for PERF_BR_UNKNOWN, the new type's name for
// PERF_BR_EXTEND_ABI ("(null)", what glibc prints for perf's NULL, past PERF_BR_NEW_MAX), else
// the type's.
const char* branch_type_text(BranchFlags f);

// One branch stack entry (perf_event.h struct perf_branch_entry), flags as a bit-field word
// already converted to this machine's bit order.
struct BranchEntry {
  uint64_t from = 0;
  uint64_t to = 0;
  uint64_t flags = 0;
};

struct BranchStack {
  uint64_t nr = 0;
  uint64_t hw_idx = 0;
  bool has_hw_idx = false;
  Bytes entries;  // nr * 24 bytes
  ByteOrder order = ByteOrder::kNative;
  BranchEntry entry(size_t i) const;
};

struct Sample {
  uint32_t type = 0;  // record type this was decoded from
  uint16_t misc = 0;
  uint64_t sample_type = 0;  // the attr's, for the printers

  uint64_t ip = 0;
  int32_t pid = -1;
  int32_t tid = -1;
  uint64_t time = ~0ull;
  uint64_t addr = 0;
  uint64_t id = ~0ull;
  uint64_t stream_id = ~0ull;
  uint32_t cpu = ~0u;
  uint64_t period = 0;
  SampleRead read;
  bool has_callchain = false;
  U64Array callchain;  // ips, PERF_CONTEXT_* markers included
  uint32_t raw_size = 0;
  Bytes raw;  // as stored (tracepoint data is in the writer's byte order)
  bool has_branch_stack = false;
  BranchStack branch_stack;
  RegsDump user_regs;
  uint64_t user_stack_size = 0;      // the dyn_size: bytes of the copy actually filled
  uint64_t user_stack_offset = 0;    // offset in the record of the size word
  Bytes user_stack;                  // the copy, of its full requested size
  // A file of the other byte order holds the copy swapped in 8-byte units (perf swaps the whole
  // sample as u64s when it writes or reads one: session.c perf_event__all64_swap()).
  ByteOrder user_stack_order = ByteOrder::kNative;
  uint64_t weight = 0;
  uint16_t ins_lat = 0;
  uint16_t p_stage_cyc = 0;
  uint64_t data_src = 0;
  uint64_t transaction = 0;
  RegsDump intr_regs;
  uint64_t phys_addr = 0;
  uint64_t cgroup = 0;
  uint64_t data_page_size = 0;
  uint64_t code_page_size = 0;
  Bytes aux;

  uint8_t cpumode() const { return misc & 7; }
  // evsel__parse_sample(): PERF_MEM_DATA_SRC_NONE (op, lvl, snoop, lock and tlb N/A) unless
  // the event samples its data source.
  uint64_t data_src_or_none() const {
    constexpr uint64_t kMemDataSrcNone = 0x5080021;
    return (sample_type & (1u << 15)) ? data_src : kMemDataSrcNone;  // PERF_SAMPLE_DATA_SRC
  }
};

}  // namespace readperf
