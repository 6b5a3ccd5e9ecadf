# The fuzz entry points as a library: linked into the libFuzzer executables (fuzz/) and into
# the replay of saved crashers (tests/fuzz_regressions_test.cpp). Included by both; defined
# once.
if(NOT TARGET readperf_fuzz_entries)
  add_library(readperf_fuzz_entries STATIC
    ${PROJECT_SOURCE_DIR}/fuzz/decompressor_fuzzer.cpp
    ${PROJECT_SOURCE_DIR}/fuzz/elf_symbols_fuzzer.cpp
    ${PROJECT_SOURCE_DIR}/fuzz/features_fuzzer.cpp
    ${PROJECT_SOURCE_DIR}/fuzz/fuzz_util.cpp
    ${PROJECT_SOURCE_DIR}/fuzz/perf_file_fuzzer.cpp
    ${PROJECT_SOURCE_DIR}/fuzz/perf_pipe_fuzzer.cpp
    ${PROJECT_SOURCE_DIR}/fuzz/pprof_merge_fuzzer.cpp
    ${PROJECT_SOURCE_DIR}/fuzz/pprof_symbolize_fuzzer.cpp
    ${PROJECT_SOURCE_DIR}/fuzz/sample_decoder_fuzzer.cpp
    ${PROJECT_SOURCE_DIR}/fuzz/symbol_archive_fuzzer.cpp)
  target_include_directories(readperf_fuzz_entries
    PUBLIC ${PROJECT_SOURCE_DIR}/fuzz
    PRIVATE ${PROJECT_SOURCE_DIR}/src/reader)  # decompressor.h
  target_link_libraries(readperf_fuzz_entries PUBLIC readperf_output readperf_symbols)
endif()
