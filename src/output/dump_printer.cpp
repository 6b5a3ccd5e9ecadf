#include "readperf/output/dump_printer.h"

namespace readperf {

Status run_dump(PerfData&, OutBuffer&) { return make_error("report -D: not implemented yet"); }

}  // namespace readperf
