// The text of report's `trace` sort key (sort.c get_trace_output()): a tracepoint sample's
// fields as libtraceevent formats them (TEP_PRINT_INFO), or each field's raw value with
// --raw-trace (tep_print_fields), interned so that equal texts share one pointer, as the
// histogram's entry keys need.
//
//   TraceTexts texts(pd, /*raw=*/false);
//   setup.trace_text = [&](const Evsel& e, const Sample& s, Resolver& r, const Thread& t) {
//     return texts.text(e, s, r, t);
//   };
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <unordered_set>

#include "readperf/output/trace_format.h"
#include "readperf/reader/perf_data.h"

namespace readperf {

class Resolver;
struct Thread;

class TraceTexts {
 public:
  TraceTexts(const PerfData& pd, bool raw) : pd_(pd), raw_(raw) {}
  // The sample's text, alive as long as this object; "" when the recording has no format
  // for the event. Kernel addresses (%pS) resolve through `r` as perf report's
  // machine__resolve_kernel_addr does.
  std::string_view text(const Evsel& evsel, const Sample& s, Resolver& r, const Thread& t);

 private:
  const PerfData& pd_;
  const bool raw_;
  // Built at the first sample: a pipe's tracing data is a record before it.
  std::unique_ptr<TraceFormatter> formatter_;
  bool tried_ = false;
  Resolver* resolver_ = nullptr;  // the sample's, while it is formatted
  const Thread* thread_ = nullptr;
  std::string line_;
  std::unordered_set<std::string> interned_;  // nodes do not move: views stay valid
};

}  // namespace readperf
