#include "readperf/output/trace_text.h"

#include "script_trace.h"

namespace readperf {

std::string_view TraceTexts::text(const Evsel& evsel, const Sample& s, Resolver& r,
                                  const Thread& t) {
  if (!tried_ && pd_.tracing_data()) {
    tried_ = true;
    if (auto tf = TraceFormatter::create(*pd_.tracing_data())) {
      formatter_ = std::move(*tf);
      // cmd_report() sets machine__resolve_kernel_addr on the handle the header built (a
      // pipe's comes later and keeps libtraceevent's own lookup), as script does.
      if (pd_.kind() != ContainerKind::kPipe) {
        formatter_->set_kernel_resolver([this](uint64_t addr) {
          return resolver_ ? kernel_symbol(*resolver_, *thread_, addr) : std::nullopt;
        });
      }
    }
  }
  line_.clear();
  if (formatter_) {
    resolver_ = &r;
    thread_ = &t;
    // sort.c get_trace_output(): a tep_record of the raw data alone (cpu 0).
    if (raw_) {
      formatter_->format_fields(evsel.attr.config, s.raw, line_);
    } else {
      formatter_->format(evsel.attr.config, 0, s.raw, line_);
    }
    resolver_ = nullptr;
    thread_ = nullptr;
  }
  return *interned_.insert(line_).first;
}

}  // namespace readperf
