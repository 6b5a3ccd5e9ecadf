// What readperf sets up about its process before it reads anything: huge pages for its heap
// and a wide pipe for its output.
#pragma once

namespace readperf::cli {

// Page faults are a large share of what a big report costs where each one is expensive (a
// paravirtualised guest pays microseconds for one): with the tunable glibc.malloc.hugetlb=1
// (glibc 2.35 and later) malloc asks the kernel for transparent huge pages, one fault per
// 2 MiB instead of per 4 KiB, and with a high mmap and trim threshold freed memory is reused
// rather than given back and faulted in again. glibc reads tunables only at process start, so
// this re-executes the program once with them added to GLIBC_TUNABLES; it returns (and nothing
// changes) for `--stats` and recordings under 32 MiB, when the tunable is already there, when the
// kernel has transparent huge pages disabled, when READPERF_NO_HUGE_PAGES is set, or when the
// re-execution fails.
void reexec_with_huge_page_malloc(char** argv);

// When standard output is a pipe, asks for a 1 MiB pipe buffer (F_SETPIPE_SZ, up to
// /proc/sys/fs/pipe-max-size): with the default 64 KiB, a reader such as a script or a pager
// and readperf take turns every 64 KiB, and on gigabytes of `script` or `report -D` output the
// switching costs more than the formatting. Nothing changes when the call fails.
void widen_output_pipe();

}  // namespace readperf::cli
