// `perf report --tasks` and `--mmaps` (builtin-report.c tasks_print()): every thread of the
// recording in a process tree, each under its parent, with (--mmaps) its maps.
//
//   #      pid      tid     ppid  comm
//            0        0       -1 |swapper
//        13107    13107       -1 |workload
//        13110    13110    13107 | exe
#pragma once

#include "readperf/format/error.h"
#include "readperf/output/out_buffer.h"
#include "readperf/reader/perf_data.h"

namespace readperf {

// Reads every record into a Machine, then prints the task tree (with each thread's maps when
// `with_maps`). A thread whose parent is unknown is an error, as in perf.
Status print_tasks(PerfData& pd, bool with_maps, OutBuffer& out);

}  // namespace readperf
