#include "script_trace.h"

#include "readperf/analysis/resolver.h"
#include "readperf/format/perf_abi.h"

namespace readperf {

std::optional<TraceFormatter::KernelSymbol> kernel_symbol(Resolver& r, const Thread& t,
                                                          uint64_t addr) {
  Frame fr = r.resolve_addr(t, kMiscKernel, addr);
  if (!fr.sym) return std::nullopt;
  TraceFormatter::KernelSymbol ks;
  ks.name = std::string(fr.sym->name);
  // map__unmap_ip(map, sym->start): the symbol's start as a kernel address.
  ks.start = addr - (fr.sym_addr - fr.sym->start);
  // __map__is_kmodule(): a module's symbols name it by its short name, "[ext4]".
  if (fr.dso && fr.dso->space != DsoSpace::kUser && fr.dso->short_name != "[kernel.kallsyms]" &&
      fr.dso->short_name != "[guest.kernel.kallsyms]") {
    ks.module = fr.dso->short_name;
  }
  return ks;
}

void ScriptTrace::print(const Sample& s, const Evsel& evsel, const Thread& thread, OutBuffer& out) {
  if (!tried_ && pd_.tracing_data()) {
    tried_ = true;
    auto tf = TraceFormatter::create(*pd_.tracing_data());
    if (tf) {
      formatter_ = std::move(*tf);
      // cmd_script() sets the resolver on the handle the file's header built; in a pipe the
      // tracing data comes later, as a record, and its handle keeps libtraceevent's own
      // lookup (no kallsyms: addresses print as numbers).
      if (lookup_ && pd_.kind() != ContainerKind::kPipe) {
        formatter_->set_kernel_resolver(
            [this](uint64_t addr) { return thread_ ? lookup_(*thread_, addr) : std::nullopt; });
      }
    }
  }
  if (!formatter_) return;
  thread_ = &thread;
  line_.clear();
  formatter_->format(evsel.attr.config, static_cast<int>(s.cpu), s.raw, line_);
  out.write(line_);
  thread_ = nullptr;
}

}  // namespace readperf
