// perf 6.1's struct perf_sample (util/event.h) as x86-64 lays it out: the packed `$sample`
// perl_process_event_generic() hands a Perl script's process_event(). Its pointers (raw_data,
// callchain, branch_stack, the register and stack copies) are the perf process's own
// addresses; readperf's are 0.
#pragma once

#include <cstdint>

namespace readperf {

struct Sample;
struct EventAttr;

// sizeof(struct perf_event_attr) in perf 6.1's uapi header (PERF_ATTR_SIZE_VER7).
inline constexpr uint32_t kPerf61AttrSize = 128;

struct PerfSample61 {
  struct RegsDump {
    uint64_t abi, mask, regs;
    uint64_t cache_regs[64];  // PERF_SAMPLE_REGS_CACHE_SIZE
    uint64_t cache_mask;
  };
  uint64_t ip;
  uint32_t pid, tid;
  uint64_t time, addr, id, stream_id, period, weight, transaction, insn_cnt, cyc_cnt;
  uint32_t cpu, raw_size;
  uint64_t data_src, phys_addr, data_page_size, code_page_size, cgroup;
  uint32_t flags, machine_pid, vcpu;
  uint16_t insn_len;
  uint8_t cpumode;
  uint16_t misc, ins_lat, p_stage_cyc;
  bool no_hw_idx;
  char insn[16];  // MAX_INSN
  uint64_t raw_data, callchain, branch_stack;
  RegsDump user_regs, intr_regs;
  struct {
    uint16_t offset;
    uint64_t size, data;
  } user_stack;
  struct {
    uint64_t time_enabled, time_running;
    uint64_t value_or_nr, id_or_values, lost;  // group {nr, values} or one {value, id, lost}
  } read;
  struct {
    uint64_t size, data;
  } aux_sample;
};
static_assert(sizeof(PerfSample61) == 1368, "perf 6.1's struct perf_sample on x86-64");

// evsel__parse_sample()'s struct for `s` of an event with `attr`: zeroed, its defaults (cpu,
// pid, tid, id, stream_id, time -1; period the attr's; data_src PERF_MEM_DATA_SRC_NONE; vcpu
// -1), then what the sample carries.
PerfSample61 pack_perf_sample(const Sample& s, const EventAttr& attr);

}  // namespace readperf
