// The length of the x86 instruction at the start of a buffer, as perf's own decoder
// (arch/x86/lib/insn.c insn_decode(), used by arch/x86/util/archinsn.c arch_fetch_insn()) finds
// it, through Zydis.
//
//   uint8_t code[16];                       // perf's MAX_INSN
//   size_t n = resolver.read_code(thread, ip, code, sizeof code, &is_64bit);
//   int len = x86_insn_length(code, n, is_64bit);   // 0: no instruction decoded
#pragma once

#include <cstddef>
#include <cstdint>

namespace readperf {

// 0 when the bytes hold no whole valid instruction.
int x86_insn_length(const uint8_t* code, size_t size, bool is_64bit);

// util/intel-pt-decoder/intel-pt-insn-decoder.c arch_is_branch(): 1 when the instruction at
// the start of the buffer transfers control (jcc, jmp, call, ret, loop, int, iret, syscall,
// sysret, vmlaunch...), 0 when not, -1 when no instruction decodes there.
int x86_insn_is_branch(const uint8_t* code, size_t size, bool is_64bit);

}  // namespace readperf
