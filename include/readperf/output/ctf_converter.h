// `data convert --to-ctf DIR`: a CTF 1.8 trace written with babeltrace 1's CTF writer (Debian's
// libbabeltrace-ctf, the library perf 6.1 links), laid out as perf's util/data-convert-bt.c
// lays it out, so that `babeltrace2 DIR` prints for it what it prints for perf's own trace of
// the same recording (the trace and clock UUIDs differ: the writer draws them at random):
// - one event class per event, named as perf names it, with the sample's perf_ip, perf_tid,
//   perf_pid, perf_id, perf_stream_id, perf_period, perf_weight, perf_data_src,
//   perf_transaction (those its sample_type has), perf_callchain_size and perf_callchain, a
//   tracepoint's fields (common ones first, CTF keywords prefixed with '_', repeats suffixed
//   "_dupl_N") and a BPF output event's raw_len and raw_data;
// - with `all`, classes perf_comm, perf_exit, perf_fork, perf_mmap and perf_mmap2 for those
//   records;
// - one stream (perf_stream_N file) per CPU, packets of at most 100000 events, the clock in
//   nanoseconds (with `tod` offset to wall-clock time by the recording's clock data).
//
//   CtfStats stats;
//   Status st = run_ctf_export(*data, CtfConfig{.all = true}, "trace-dir", stats);
#pragma once

#include <cstdint>
#include <string>

#include "readperf/format/error.h"
#include "readperf/reader/perf_data.h"

namespace readperf {

struct CtfConfig {
  bool all = false;  // the comm, fork, exit, mmap and mmap2 records too
  bool tod = false;  // wall-clock time: needs CLOCK_DATA (perf record -k CLOCK)
};

struct CtfStats {
  uint64_t samples = 0;
  uint64_t non_samples = 0;
  uint64_t bytes = 0;    // the converted records' sizes, as perf counts them
  bool written = false;  // the trace was set up and written (else the error says why)
};

// Writes the trace into the directory `dir` (created by the writer when missing). A read
// error (damage) ends the trace there: what came before is written (stats.written), and the
// error returned; a writer error (--tod without clock data) leaves stats.written false.
Status run_ctf_export(PerfData& data, const CtfConfig& config, const std::string& dir,
                      CtfStats& stats);

}  // namespace readperf
