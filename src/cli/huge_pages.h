// Transparent huge pages for readperf's heap, through glibc's malloc tunable.
#pragma once

namespace readperf::cli {

// Page faults are a large share of what a big report costs where each one is expensive (a
// paravirtualised guest pays microseconds for one): with the tunable glibc.malloc.hugetlb=1
// (glibc 2.35 and later) malloc asks the kernel for transparent huge pages, one fault per
// 2 MiB instead of per 4 KiB. glibc reads tunables only at process start, so this re-executes
// the program once with the tunable added to GLIBC_TUNABLES; it returns (and nothing changes)
// when the tunable is already there, when the kernel has transparent huge pages disabled,
// when READPERF_NO_HUGE_PAGES is set, or when the re-execution fails.
void reexec_with_huge_page_malloc(char** argv);

}  // namespace readperf::cli
