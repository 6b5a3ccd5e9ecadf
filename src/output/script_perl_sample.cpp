#include "script_perl_sample.h"

#include <cstring>

#include "readperf/format/event_attr.h"
#include "readperf/format/perf_abi.h"
#include "readperf/reader/sample.h"

namespace readperf {

PerfSample61 pack_perf_sample(const Sample& s, const EventAttr& attr) {
  PerfSample61 p;
  std::memset(&p, 0, sizeof(p));
  // Sample's own defaults are evsel__parse_sample()'s: -1 for what was not sampled.
  p.ip = s.ip;
  p.pid = static_cast<uint32_t>(s.pid);
  p.tid = static_cast<uint32_t>(s.tid);
  p.time = s.time;
  p.addr = s.addr;
  p.id = s.id;
  p.stream_id = s.stream_id;
  p.period = s.period;
  p.weight = s.weight;
  p.transaction = s.transaction;
  p.cpu = s.cpu;
  p.raw_size = s.raw_size;
  p.data_src = s.data_src_or_none();
  p.phys_addr = s.phys_addr;
  p.data_page_size = s.data_page_size;
  p.code_page_size = s.code_page_size;
  p.cgroup = s.cgroup;
  p.vcpu = ~0u;
  p.cpumode = s.cpumode();
  p.misc = s.misc;
  p.ins_lat = s.ins_lat;
  p.p_stage_cyc = s.p_stage_cyc;
  p.no_hw_idx = s.has_branch_stack && !s.branch_stack.has_hw_idx;
  p.user_regs.abi = s.user_regs.abi;
  // The mask only with registers (an abi of PERF_SAMPLE_REGS_ABI_NONE has none).
  p.user_regs.mask = s.user_regs.abi ? attr.sample_regs_user : 0;
  p.intr_regs.abi = s.intr_regs.abi;
  p.intr_regs.mask = s.intr_regs.abi ? attr.sample_regs_intr : 0;
  if (attr.sample_type & kSampleStackUser) {
    p.user_stack.offset = static_cast<uint16_t>(s.user_stack_offset);
    p.user_stack.size = s.user_stack_size;
  }
  p.read.time_enabled = s.read.time_enabled;
  p.read.time_running = s.read.time_running;
  if (attr.read_format & kFormatGroup) {
    p.read.value_or_nr = s.read.group_nr;
  } else {
    p.read.value_or_nr = s.read.one.value;
    p.read.id_or_values = s.read.one.id;
    p.read.lost = s.read.one.lost;
  }
  p.aux_sample.size = s.aux.size();
  return p;
}

}  // namespace readperf
