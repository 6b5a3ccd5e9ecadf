#include "readperf/symbols/x86_insn.h"

#include <Zydis/Zydis.h>

namespace readperf {

namespace {

bool decode(const uint8_t* code, size_t size, bool is_64bit, ZydisDecodedInstruction* insn) {
  ZydisDecoder decoder;
  if (is_64bit) {
    ZydisDecoderInit(&decoder, ZYDIS_MACHINE_MODE_LONG_64, ZYDIS_STACK_WIDTH_64);
  } else {
    ZydisDecoderInit(&decoder, ZYDIS_MACHINE_MODE_LONG_COMPAT_32, ZYDIS_STACK_WIDTH_32);
  }
  return ZYAN_SUCCESS(ZydisDecoderDecodeInstruction(&decoder, nullptr, code, size, insn)) &&
         insn->length <= size;
}

}  // namespace

int x86_insn_length(const uint8_t* code, size_t size, bool is_64bit) {
  ZydisDecodedInstruction insn;
  // archinsn.c: the length counts only when the bytes read hold all of it.
  return decode(code, size, is_64bit, &insn) ? insn.length : 0;
}

int x86_insn_is_branch(const uint8_t* code, size_t size, bool is_64bit) {
  ZydisDecodedInstruction insn;
  if (!decode(code, size, is_64bit, &insn)) return -1;
  // intel_pt_insn_decoder(): VEX/EVEX/XOP instructions (insn_is_avx()) are never branches.
  if (insn.encoding != ZYDIS_INSTRUCTION_ENCODING_LEGACY &&
      insn.encoding != ZYDIS_INSTRUCTION_ENCODING_3DNOW) {
    return 0;
  }
  const uint8_t op = insn.opcode;
  const uint8_t modrm = static_cast<uint8_t>((insn.raw.modrm.mod << 6) | (insn.raw.modrm.reg << 3) |
                                             insn.raw.modrm.rm);
  const bool has_modrm = insn.attributes & ZYDIS_ATTRIB_HAS_MODRM;
  if (insn.opcode_map == ZYDIS_OPCODE_MAP_0F) {
    if (op == 0x01) return has_modrm && (modrm == 0xc2 || modrm == 0xc3);  // vmlaunch, vmresume
    return op == 0x05 || op == 0x34 || op == 0x07 || op == 0x35 ||         // syscall, sysenter, ...
           (op >= 0x80 && op <= 0x8f);                                     // jcc
  }
  if (insn.opcode_map != ZYDIS_OPCODE_MAP_DEFAULT) return 0;
  if (op >= 0x70 && op <= 0x7f) return 1;  // jcc
  if (op >= 0xe0 && op <= 0xe3) return 1;  // loop, jcxz
  if (op >= 0xcc && op <= 0xcf) return 1;  // int3, int, into, iret
  switch (op) {
    case 0xc2:
    case 0xc3:
    case 0xca:
    case 0xcb:  // ret
    case 0xe8:
    case 0x9a:  // call
    case 0xe9:
    case 0xeb:
    case 0xea:  // jmp
      return 1;
    case 0xff: {  // indirect call (/2, /3) and jmp (/4, /5)
      int ext = (modrm >> 3) & 7;
      return has_modrm && ext >= 2 && ext <= 5;
    }
    default:
      return 0;
  }
}

}  // namespace readperf
