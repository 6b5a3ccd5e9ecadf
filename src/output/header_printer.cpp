#include "readperf/output/header_printer.h"

namespace readperf {

Status run_header(PerfData&, bool, OutBuffer&) {
  return make_error("report --header-only: not implemented yet");
}

}  // namespace readperf
