// The `trace` field of `script` (builtin-script.c process_event → event_format__fprintf):
// a tracepoint sample's fields formatted from the recording's tracing data. Internal to the
// script printer.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "readperf/output/out_buffer.h"
#include "readperf/output/trace_format.h"
#include "readperf/reader/perf_data.h"
#include "readperf/session/thread.h"

namespace readperf {

class Resolver;

// util/machine.c machine__resolve_kernel_addr(), which perf script gives libtraceevent for the
// kernel addresses of %ps/%pS (builtin-script.c cmd_script: tep_set_function_resolver): the
// kernel symbol at `addr`, found as a kernel sample's ip would be.
std::optional<TraceFormatter::KernelSymbol> kernel_symbol(Resolver& r, const Thread& t,
                                                          uint64_t addr);

class ScriptTrace {
 public:
  explicit ScriptTrace(const PerfData& pd) : pd_(pd) {}
  using KernelLookup =
      std::function<std::optional<TraceFormatter::KernelSymbol>(const Thread&, uint64_t)>;
  void set_kernel_lookup(KernelLookup f) { lookup_ = std::move(f); }
  // Prints the fields of `s`'s raw data as `evsel`'s format says; `thread` is the sample's.
  void print(const Sample& s, const Evsel& evsel, const Thread& thread, OutBuffer& out);

 private:
  const PerfData& pd_;
  // Built at the first tracepoint sample: in a pipe the tracing data is a record that comes
  // before it (perf_event__process_tracing_data).
  std::unique_ptr<TraceFormatter> formatter_;
  bool tried_ = false;
  KernelLookup lookup_;
  const Thread* thread_ = nullptr;  // the sample being printed, for lookup_
  std::string line_;
};

}  // namespace readperf
