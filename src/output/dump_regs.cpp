// Register names of session.c regs_dump__printf(), from util/perf_regs.c perf_reg_name() for
// the architectures the corpus holds. perf names registers after the recording's arch (the
// ARCH header feature, util/env.c perf_env__arch), not the machine reading it.
#include <array>

#include "dump_internal.h"

namespace readperf {

namespace {

// arch/x86/include/uapi/asm/perf_regs.h order; XMM0 is 32, each XMM taking two ids.
constexpr std::array<std::string_view, 24> kX86 = {
    "AX", "BX", "CX", "DX", "SI", "DI", "BP",  "SP",  "IP",  "FLAGS", "CS",  "SS",
    "DS", "ES", "FS", "GS", "R8", "R9", "R10", "R11", "R12", "R13",   "R14", "R15"};
constexpr std::array<std::string_view, 16> kXmm = {
    "XMM0", "XMM1", "XMM2",  "XMM3",  "XMM4",  "XMM5",  "XMM6",  "XMM7",
    "XMM8", "XMM9", "XMM10", "XMM11", "XMM12", "XMM13", "XMM14", "XMM15"};
constexpr std::array<std::string_view, 16> kArm = {"r0", "r1", "r2",  "r3", "r4", "r5", "r6", "r7",
                                                   "r8", "r9", "r10", "fp", "ip", "sp", "lr", "pc"};
constexpr std::array<std::string_view, 33> kArm64 = {
    "x0",  "x1",  "x2",  "x3",  "x4",  "x5",  "x6",  "x7",  "x8",  "x9",  "x10",
    "x11", "x12", "x13", "x14", "x15", "x16", "x17", "x18", "x19", "x20", "x21",
    "x22", "x23", "x24", "x25", "x26", "x27", "x28", "x29", "lr",  "sp",  "pc"};

}  // namespace

std::string_view perf_reg_name(unsigned id, std::string_view arch) {
  if (arch == "x86") {
    if (id < kX86.size()) return kX86[id];
    if (id >= 32 && id < 64) return kXmm[(id - 32) / 2];
  } else if (arch == "arm") {
    if (id < kArm.size()) return kArm[id];
  } else if (arch == "arm64") {
    if (id < kArm64.size()) return kArm64[id];
    if (id == 46) return "vg";
  }
  return "unknown";
}

std::string_view normalize_arch(std::string_view a) {
  if (a == "x86_64") return "x86";
  if (a.size() >= 4 && a[0] == 'i' && a[2] == '8' && a[3] == '6') return "x86";
  if (a == "sun4u" || a.starts_with("sparc")) return "sparc";
  if (a.starts_with("aarch64") || a.starts_with("arm64")) return "arm64";
  if (a.starts_with("arm") || a == "sa110") return "arm";
  if (a.starts_with("s390")) return "s390";
  if (a.starts_with("parisc")) return "parisc";
  if (a.starts_with("powerpc") || a.starts_with("ppc")) return "powerpc";
  if (a.starts_with("mips")) return "mips";
  if (a.starts_with("sh")) return "sh";
  if (a.starts_with("loongarch")) return "loongarch";
  return a;
}

}  // namespace readperf
