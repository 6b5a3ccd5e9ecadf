// The libFuzzer driver of one target: READPERF_FUZZ_ENTRY names its entry point
// (fuzz_targets.h), set per executable by fuzz/CMakeLists.txt.
#include "fuzz_targets.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return readperf::fuzz::READPERF_FUZZ_ENTRY(data, size);
}
