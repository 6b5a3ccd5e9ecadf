// A pipe-mode stream read in order from a descriptor, as from standard input: the stream
// reader's buffering, short reads at the end, and the data carried after AUXTRACE and
// TRACING_DATA records.
#include <unistd.h>

#include "fuzz_targets.h"
#include "fuzz_util.h"
#include "readperf/output/dump_printer.h"
#include "readperf/output/header_printer.h"
#include "readperf/output/out_buffer.h"
#include "readperf/reader/perf_data.h"

namespace readperf::fuzz {

int fuzz_perf_pipe(const uint8_t* data, size_t size) {
  OutBuffer out(null_file());
  int fd = memory_fd(data, size);
  if (fd < 0) return 0;
  // open_stream owns the descriptor from here, whatever happens.
  if (auto pd = PerfData::open_stream(fd)) (void)run_dump(**pd, out);

  // --header-only stops at the end of the features (EventSink::done()).
  fd = memory_fd(data, size);
  if (fd < 0) return 0;
  if (auto pd = PerfData::open_stream(fd)) (void)run_header(**pd, /*show_info=*/true, out);
  return 0;
}

}  // namespace readperf::fuzz
