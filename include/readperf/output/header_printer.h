// `report --header-only [-I]`: the "# ..." lines perf prints for the file header and each
// header feature (util/header.c perf_header__fprintf_info and the print_* functions of
// feat_ops). In pipe mode the features arrive as records and are printed as they are read.
//
//   OutBuffer out(stdout);
//   Status st = run_header(*data, /*show_info=*/true, out);
#pragma once

#include "readperf/format/error.h"
#include "readperf/output/out_buffer.h"
#include "readperf/reader/perf_data.h"

namespace readperf {

Status run_header(PerfData& data, bool show_info, OutBuffer& out);

}  // namespace readperf
