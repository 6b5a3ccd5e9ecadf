// `export --format pprof|speedscope|chrome|gecko`: the viewers' formats, with the collapsed
// export's symbol settings.
#include "export_command.h"
#include "readperf/output/chrome_trace_exporter.h"
#include "readperf/output/collapsed_exporter.h"
#include "readperf/output/gecko_exporter.h"
#include "readperf/output/pprof_exporter.h"
#include "readperf/output/speedscope_exporter.h"

namespace readperf::cli {

Status run_viewer_export(const ExportOptions& o, const CollapsedConfig& cfg, PerfData& data,
                         OutBuffer& out) {
  if (o.format == "pprof") {
    PprofConfig pc;
    pc.symbols = cfg.symbols;
    pc.max_stack = cfg.max_stack;
    pc.selection = cfg.selection;
    out.flush();
    return run_pprof_export(data, pc, out.file());
  }
  if (o.format == "chrome") {
    ChromeTraceConfig cc;
    cc.symbols = cfg.symbols;
    cc.max_stack = cfg.max_stack;
    cc.selection = cfg.selection;
    cc.event = o.event;
    return run_chrome_trace_export(data, cc, out);
  }
  if (o.format == "gecko") {
    GeckoConfig gc;
    gc.symbols = cfg.symbols;
    gc.max_stack = cfg.max_stack;
    gc.selection = cfg.selection;
    gc.event = o.event;
    gc.srclines = o.srcline;
    return run_gecko_export(data, gc, out);
  }
  // speedscope: every event, each its own profile (--event does not filter).
  return run_speedscope_export(data, cfg, out, stderr);
}

}  // namespace readperf::cli
