// The libFuzzer entry points, one per attack surface. Each takes the fuzzer's bytes and
// runs them through the same code path readperf runs on real input; they are plain functions
// (not LLVMFuzzerTestOneInput) so that tests/fuzz_regressions_test.cpp can replay saved
// crashers through them in an ordinary build, without clang or libFuzzer.
//
//   fuzz_perf_file(data, size);   // what `readperf report -D` would do with a file
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace readperf::fuzz {

// A whole perf.data file (or a pipe stream saved to a file), in memory: printed by report -D,
// --header-only -I, counted by --stats, and printed by script (symbols looked up nowhere).
int fuzz_perf_file(const uint8_t* data, size_t size);
// A pipe-mode stream read from a descriptor, as `perf record -o - | readperf report -D -i -`.
int fuzz_perf_pipe(const uint8_t* data, size_t size);
// One sample or sample_id trailer; the first bytes choose the attr (sample_type, read_format,
// register masks, sample_id_all) and the record type.
int fuzz_sample_decoder(const uint8_t* data, size_t size);
// One header feature section; the first byte picks the feature.
int fuzz_features(const uint8_t* data, size_t size);
// The zstd stream of PERF_RECORD_COMPRESSED, fed in chunks (u16 length, then the chunk).
int fuzz_decompressor(const uint8_t* data, size_t size);
// An ELF file loaded for its symbols (a binary in a hostile build-id cache).
int fuzz_elf_symbols(const uint8_t* data, size_t size);
// A symbol archive (tar, zstd-compressed or not): its members listed, resolved and read.
int fuzz_symbol_archive(const uint8_t* data, size_t size);
// An unsymbolized pprof profile (gzipped or not) symbolized.
int fuzz_pprof_symbolize(const uint8_t* data, size_t size);
// Two symbolized pprof profiles merged (a u16 length of the first, then both).
int fuzz_pprof_merge(const uint8_t* data, size_t size);

struct FuzzTarget {
  std::string_view name;  // also the folder under fuzz/corpus/ and fuzz/regressions/
  int (*run)(const uint8_t*, size_t);
};

inline constexpr FuzzTarget kFuzzTargets[] = {
    {"perf_file", fuzz_perf_file},           {"perf_pipe", fuzz_perf_pipe},
    {"sample_decoder", fuzz_sample_decoder}, {"features", fuzz_features},
    {"decompressor", fuzz_decompressor},     {"elf_symbols", fuzz_elf_symbols},
    {"symbol_archive", fuzz_symbol_archive}, {"pprof_symbolize", fuzz_pprof_symbolize},
    {"pprof_merge", fuzz_pprof_merge},
};

}  // namespace readperf::fuzz
