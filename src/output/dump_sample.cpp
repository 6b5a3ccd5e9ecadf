// session.c dump_sample() and the helpers it calls: callchain__printf,
// branch_stack__printf, regs__printf, stack_user__printf, sample_read__printf.
#include <bit>

#include "dump_internal.h"
#include "readperf/format/perf_abi.h"

namespace readperf {

namespace {

constexpr uint64_t kContextUser = static_cast<uint64_t>(-512);  // PERF_CONTEXT_USER

void print_callchain(OutBuffer& out, const Evsel& evsel, const Sample& s) {
  const U64Array& ips = s.callchain;
  if ((evsel.attr.branch_sample_type & kBranchSampleCallStack) && s.has_branch_stack) {
    // callchain__lbr_callstack_printf(): the kernel part, then the user stack from the LBR.
    size_t kernel_nr = ips.size();
    size_t i = 0;
    for (; i < kernel_nr; ++i) {
      if (ips[i] == kContextUser) break;
    }
    const BranchStack& b = s.branch_stack;
    if (i != kernel_nr && b.nr) {
      uint64_t total = i + 1 + b.nr + 1;
      kernel_nr = i + 1;
      out.print("... LBR call chain: nr:{}\n", total);
      for (i = 0; i < kernel_nr; ++i) out.print("..... {:2d}: {:016x}\n", i, ips[i]);
      out.print("..... {:2d}: {:016x}\n", kernel_nr, b.entry(0).to);
      for (i = 0; i < b.nr; ++i) {
        out.print("..... {:2d}: {:016x}\n", i + kernel_nr + 1, b.entry(i).from);
      }
    }
  }
  out.write("... FP chain: nr:");
  out.dec(ips.size());
  out.put('\n');
  for (size_t i = 0; i < ips.size(); ++i) {  // "..... {:2d}: {:016x}\n"
    out.write("..... ");
    out.dec(i, 2);
    out.write(": ");
    out.hex(ips[i], 16);
    out.put('\n');
  }
}

void print_branch_stack(OutBuffer& out, const BranchStack& b, bool callstack) {
  if (!callstack) {
    out.print("... branch stack: nr:{}\n", b.nr);
  } else {
    out.print("... branch callstack: nr:{}\n", b.nr + 1);
  }
  for (uint64_t i = 0; i < b.nr; ++i) {
    BranchEntry e = b.entry(i);
    if (!callstack) {
      uint64_t f = e.flags;
      out.print("..... {:2d}: {:016x} -> {:016x} {} cycles {}{}{}{} {:x} {}\n", i, e.from, e.to,
                (f >> 4) & 0xffff, (f & 1) ? "M" : " ", (f & 2) ? "P" : " ", (f & 8) ? "A" : " ",
                (f & 4) ? "T" : " ", (f >> 33) & 0x7fffffff, branch_type_text(BranchFlags(f)));
    } else if (i == 0) {
      out.print("..... {:2d}: {:016x}\n..... {:2d}: {:016x}\n", i, e.to, i + 1, e.from);
    } else {
      out.print("..... {:2d}: {:016x}\n", i + 1, e.from);
    }
  }
}

void print_regs(OutBuffer& out, const char* type, const RegsDump& regs, std::string_view arch) {
  static constexpr const char* kAbi[] = {"none", "32-bit", "64-bit"};
  out.print("... {} regs: mask {:#x} ABI {}\n", type, regs.mask,
            regs.abi < 3 ? kAbi[regs.abi] : "unknown");
  uint64_t mask = regs.mask;
  size_t i = 0;
  while (mask) {
    unsigned id = std::countr_zero(mask);
    mask &= mask - 1;
    uint64_t v = i < regs.regs.size() ? regs.regs[i] : 0;
    ++i;
    out.print(".... {:<5} 0x{:016x}\n", perf_reg_name(id, arch), v);
  }
}

// util/units.c unit_number__scnprintf() behind session.c get_page_size_name().
void print_page_size(OutBuffer& out, const char* what, uint64_t size) {
  if (!size) {
    out.print(" .. {} page size: N/A\n", what);
    return;
  }
  static constexpr char kUnit[] = "BKMG";
  int i = 0;
  while (size / 1024 > 1 && i < 3) {
    size /= 1024;
    ++i;
  }
  out.print(" .. {} page size: {}{}\n", what, size, kUnit[i]);
}

void print_sample_read(OutBuffer& out, const Sample& s, uint64_t read_format) {
  out.write("... sample_read:\n");
  if (read_format & kFormatTotalTimeEnabled) {
    out.print("...... time enabled {:016x}\n", s.read.time_enabled);
  }
  if (read_format & kFormatTotalTimeRunning) {
    out.print("...... time running {:016x}\n", s.read.time_running);
  }
  auto one = [&](const ReadValue& v) {
    out.print("..... id {:016x}, value {:016x}", v.id, v.value);
    if (read_format & kFormatLost) out.print(", lost {}", v.lost);
    out.put('\n');
  };
  if (read_format & kFormatGroup) {
    out.print(".... group nr {}\n", s.read.group_nr);
    for (uint64_t i = 0; i < s.read.group_nr; ++i) one(s.read.group_value(i, read_format));
  } else {
    one(s.read.one);
  }
}

}  // namespace

void print_sample(OutBuffer& out, const Evsel& evsel, const RecordView& r, const Sample& s,
                  std::string_view arch) {
  // "(IP, 0x{:x}): {}/{}: {} period: {} addr: {}\n", the addresses as AltHex.
  out.write("(IP, ");
  out.alt_hex(r.misc);
  out.write("): ");
  out.dec(s.pid);
  out.put('/');
  out.dec(s.tid);
  out.write(": ");
  write_alt_hex(out, s.ip);
  out.write(" period: ");
  out.dec(s.period);
  out.write(" addr: ");
  write_alt_hex(out, s.addr);
  out.put('\n');
  uint64_t t = evsel.attr.sample_type;
  if (t & kSampleCallchain) print_callchain(out, evsel, s);
  // evsel__has_br_stack(): the sample_type bit alone (perf inject writes attrs with a
  // branch_sample_type of 0).
  if (t & kSampleBranchStack) {
    print_branch_stack(out, s.branch_stack, evsel.attr.branch_sample_type & kBranchSampleCallStack);
  }
  if ((t & kSampleRegsUser) && s.user_regs.abi) print_regs(out, "user", s.user_regs, arch);
  if ((t & kSampleRegsIntr) && s.intr_regs.abi) print_regs(out, "intr", s.intr_regs, arch);
  if (t & kSampleStackUser) {
    out.print("... ustack: size {}, offset {:#x}\n", s.user_stack_size, s.user_stack_offset);
  }
  if (t & kSampleWeightType) {
    out.print("... weight: {}", s.weight);
    if (t & kSampleWeightStruct) out.print(",{:#x},{:#x}", s.ins_lat, s.p_stage_cyc);
    out.put('\n');
  }
  if (t & kSampleDataSrc) out.print(" . data_src: {:#x}\n", s.data_src);
  if (t & kSamplePhysAddr) out.print(" .. phys_addr: {:#x}\n", s.phys_addr);
  if (t & kSampleDataPageSize) print_page_size(out, "data", s.data_page_size);
  if (t & kSampleCodePageSize) print_page_size(out, "code", s.code_page_size);
  if (t & kSampleTransaction) out.print("... transaction: {:x}\n", s.transaction);
  if (t & kSampleRead) print_sample_read(out, s, evsel.attr.read_format);
}

}  // namespace readperf
