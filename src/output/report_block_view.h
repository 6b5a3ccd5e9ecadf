// `report --total-cycles`'s table (util/block-info.c columns, ui/stdio/hist.c layout).
#pragma once

#include "readperf/analysis/block_report.h"
#include "readperf/output/out_buffer.h"

namespace readperf {

// hists__fprintf() of a block histogram: the header, its dotted rule, "#", then a line per
// block (report__browse_block_hists(), always with its header).
void print_block_table(const BlockReport& report, OutBuffer& out);

}  // namespace readperf
