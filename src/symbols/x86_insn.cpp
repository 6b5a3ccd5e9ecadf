#include "readperf/symbols/x86_insn.h"

#include <Zydis/Zydis.h>

namespace readperf {

int x86_insn_length(const uint8_t* code, size_t size, bool is_64bit) {
  ZydisDecoder decoder;
  if (is_64bit) {
    ZydisDecoderInit(&decoder, ZYDIS_MACHINE_MODE_LONG_64, ZYDIS_STACK_WIDTH_64);
  } else {
    ZydisDecoderInit(&decoder, ZYDIS_MACHINE_MODE_LONG_COMPAT_32, ZYDIS_STACK_WIDTH_32);
  }
  ZydisDecodedInstruction insn;
  if (!ZYAN_SUCCESS(ZydisDecoderDecodeInstruction(&decoder, nullptr, code, size, &insn))) return 0;
  // archinsn.c: the length counts only when the bytes read hold all of it.
  return insn.length <= size ? insn.length : 0;
}

}  // namespace readperf
