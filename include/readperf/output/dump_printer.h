// `report -D`: perf's raw dump of every record (session.c dump_event, dump_sample and the
// perf_event__fprintf_* functions of util/event.c), byte for byte as perf 6.1 prints it,
// including the " ... thread:" and " ...... dso:" lines of machine__resolve (util/event.c).
//
//   OutBuffer out(stdout);
//   Status st = run_dump(*data, out);
#pragma once

#include "readperf/format/error.h"
#include "readperf/output/out_buffer.h"
#include "readperf/reader/perf_data.h"

namespace readperf {

// Reads the whole recording, printing the dump and then perf's closing stats.
// `skip_empty`: --skip-empty (perf's default) for the closing stats.
Status run_dump(PerfData& data, OutBuffer& out, bool skip_empty = true);

}  // namespace readperf
