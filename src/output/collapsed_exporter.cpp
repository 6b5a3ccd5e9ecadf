// The collapsed exporter: builtin-script.c's sample path (the sample pipeline, and the field
// table of the script printer) rendering each sample's lines into a scratch buffer for
// StackCollapser, which folds them as stackcollapse-perf.pl would have read them.
#include "readperf/output/collapsed_exporter.h"

#include <fmt/format.h>

#include "readperf/analysis/sample_pipeline.h"
#include "readperf/analysis/stack_counts.h"
#include "readperf/format/perf_abi.h"
#include "script_fields.h"

namespace readperf {

namespace {

using namespace script;  // NOLINT: the field names

class CollapsedSink : public SamplePipeline {
 public:
  CollapsedSink(PerfData& pd, const CollapsedConfig& cfg, StackCollapser& collapser)
      : SamplePipeline(pd, {.symbols = cfg.symbols,
                            .max_stack = cfg.max_stack,
                            .unwind_foreign_arches = false,
                            .selection = cfg.selection}),
        cfg_(cfg),
        collapser_(collapser) {
    if (cfg.collapse.include_pid || cfg.collapse.include_tid) {
      // The script's --pid and --tid need perf script to print the pid: `-F +pid`.
      std::string warnings;
      (void)table_.parse("+pid", warnings);
    }
  }

  Status check_output() {
    const EventList& events = pd_.events();
    for (size_t i = 0; i < events.size(); ++i) setup_type(events[i]);
    return status_;
  }
  Status status() const { return status_; }
  bool done() const override { return !status_; }

 private:
  // The script printer's setup_type(): the fields of each event type, settled once.
  bool setup_type(const Evsel& evsel) {
    if (!status_) return false;
    int type = output_type(evsel.attr.type);
    if (type_ready_[type]) return true;
    type_ready_[type] = true;
    const Evsel* first = &first_of_output_type(pd_.events(), evsel);
    TypeOutput& o = table_[type];
    if (o.fields) {
      Status st = table_.check_attr(*first, pd_.header().features[kFeatStat],
                                    pd_.header().features[kFeatAuxtrace]);
      if (!st) {
        status_ = st;
        return false;
      }
    }
    if (type == kTypeTracepoint && !o.user_set && use_callchain() &&
        (first->attr.sample_type & kSampleCallchain)) {
      o.fields |= kIp | kSym | kSymoffset | kDso;
    }
    table_.set_print_ip_opts(first->attr);
    return true;
  }

  bool use_callchain() const {
    if (pd_.kind() == ContainerKind::kPipe) return true;
    return (pd_.events().combined_sample_type() & kSampleCallchain) != 0;
  }

  void on_sample(const Sample& s, const Evsel& evsel, uint64_t period, const ResolvedSample& rs,
                 std::span<const Frame> /*frames*/) override {
    if (!setup_type(evsel)) return;
    const TypeOutput& o = table_.of(evsel.attr);
    bool chain = (o.fields & kIp) && use_callchain() && s.has_callchain;
    if (o.fields == 0) return;
    if (cfg_.collapse.event_root) {
      emit_viewer(s, evsel, rs, period, chain);
      return;
    }
    emit(s, evsel, o, rs, period, chain);
  }

  // The lines for the viewers (event_root): the header in the one shape the collapser reads
  // (comm, tid, time, period and event, whatever fields perf script would print), a frame line
  // per call chain entry or the sample's ip alone, and the blank line that ends every sample,
  // so samples without call chains and tracepoints fold too.
  void emit_viewer(const Sample& s, const Evsel& evsel, const ResolvedSample& rs, uint64_t period,
                   bool chain) {
    line_.clear();
    auto out = fmt::appender(line_);
    fmt::format_to(
        out, "{} {:5}/{:<5} {}.{:06}: {:10} {}: ", rs.comm.empty() ? "[unknown]" : rs.comm, s.pid,
        s.tid, s.time / 1000000000ull, s.time % 1000000000ull / 1000, period, event_name_of(evsel));
    collapser_.line(std::string_view(line_.data(), line_.size()));
    auto frame = [&](const Frame& fr) {
      line_.clear();
      fmt::format_to(out, "\t{:16x} ", fr.chain_ip());
      std::string_view name = fr.symbol_name();
      line_.append(name.data(), name.data() + name.size());
      if (fr.inlined) {
        fmt::format_to(out, " (inlined)");
      } else {
        fmt::format_to(out, " ({})", fr.dso_name());
      }
      collapser_.line(std::string_view(line_.data(), line_.size()));
    };
    if (chain) {
      for (const Frame& fr : rs.callchain) frame(fr);
    } else {
      frame(rs.self);
    }
    collapser_.line("");
  }

  // The lines builtin-script.c process_event() prints for the sample, handed to the
  // collapser one by one. Fields whose text the script's regexes never look into (a trace,
  // an address after the event name) are stood in for by text of the same shape.
  void emit(const Sample& s, const Evsel& evsel, const TypeOutput& o, const ResolvedSample& rs,
            uint64_t period, bool chain) {
    uint64_t f = o.fields;
    line_.clear();
    auto out = fmt::appender(line_);
    if (f & kComm) {
      if ((f & kIp) && (evsel.attr.sample_type & kSampleCallchain) && use_callchain()) {
        fmt::format_to(out, "{} ", rs.comm);
      } else {
        fmt::format_to(out, "{:>16} ", rs.comm);
      }
    }
    if ((f & kPid) && (f & kTid)) {
      fmt::format_to(out, "{:5}/{:<5} ", s.pid, s.tid);
    } else if (f & kPid) {
      fmt::format_to(out, "{:5} ", s.pid);
    } else if (f & kTid) {
      fmt::format_to(out, "{:5} ", s.tid);
    }
    if (f & kCpu) fmt::format_to(out, "[{:03}] ", static_cast<int32_t>(s.cpu));
    if (f & kTime) {
      uint64_t secs = s.time / 1000000000ull;
      uint64_t usecs = (s.time - secs * 1000000000ull) / 1000;
      fmt::format_to(out, "{:>12}: ", fmt::format("{}.{:06}", secs, usecs));
    }
    if (f & kPeriod) fmt::format_to(out, "{:10} ", period);
    if (f & kEvname) {
      if (!name_width_) name_width_ = max_name_len();
      fmt::format_to(out, "{:>{}}: ", event_name_of(evsel), name_width_);
    }
    if ((f & kTrace) && s.raw_size) fmt::format_to(out, "trace");
    if (f & kAddr) fmt::format_to(out, "{:16x}", s.addr);
    if (f & kDataSrc) fmt::format_to(out, " data_src");
    if (f & kWeight) fmt::format_to(out, "{:16}", s.weight);
    if (f & kInsLat) fmt::format_to(out, "{:16}", s.ins_lat);
    unsigned opts = o.print_ip_opts;
    if ((f & kIp) && chain) {
      collapser_.line(std::string_view(line_.data(), line_.size()));
      for (const Frame& fr : rs.callchain) {
        line_.clear();
        line_.push_back('\t');
        if (opts & kPrintIp) fmt::format_to(out, "{:16x}", fr.chain_ip());
        append_sym(fr, opts);
        if ((opts & kPrintDso) && !fr.inlined) fmt::format_to(out, " ({})", fr.dso_name());
        if (fr.inlined) fmt::format_to(out, " (inlined)");
        collapser_.line(std::string_view(line_.data(), line_.size()));
      }
      line_.clear();
    } else if (f & kIp) {
      line_.push_back(' ');
      if (opts & kPrintIp) fmt::format_to(out, "{:16x}", s.ip);
      append_sym(rs.self, opts);
      if (opts & kPrintDso) fmt::format_to(out, " ({})", rs.self.dso_name());
    }
    // What ends the sample's last line: registers, physical address, page sizes.
    if (f & kPhysAddr) fmt::format_to(out, "{:16x}", s.phys_addr);
    if (f & (kDataPageSize | kCodePageSize)) fmt::format_to(out, " page_size");
    collapser_.line(std::string_view(line_.data(), line_.size()));
  }

  void append_sym(const Frame& fr, unsigned opts) {
    if (!(opts & kPrintSym)) return;
    line_.push_back(' ');
    std::string_view name = fr.symbol_name();
    line_.append(name.data(), name.data() + name.size());
    if (fr.sym && (opts & kPrintSymoffset)) {
      fmt::format_to(fmt::appender(line_), "+{:#x}", fr.symoff());
    }
  }

  int max_name_len() {
    size_t len = 0;
    for (size_t i = 0; i < pd_.events().size(); ++i) {
      len = std::max(len, event_name_of(pd_.events()[i]).size());
    }
    return static_cast<int>(len);
  }

  const CollapsedConfig& cfg_;
  StackCollapser& collapser_;
  OutputTable table_;
  bool type_ready_[kOutputTypes] = {};
  int name_width_ = 0;
  fmt::memory_buffer line_;
  Status status_;
};

}  // namespace

Status collapse_stacks(PerfData& data, const CollapsedConfig& config, StackCounts& counts,
                       FILE* err) {
  StackCollapser collapser(config.collapse, counts, err);
  PerfData::ProcessOptions po;
  po.ordered = data.kind() == ContainerKind::kPipe || data.events().sample_id_all();
  CollapsedSink sink(data, config, collapser);
  if (data.kind() != ContainerKind::kPipe) RETURN_IF_ERROR(sink.check_output());
  Status st = data.process(sink, po);
  RETURN_IF_ERROR(sink.status());
  return st;
}

Status run_collapsed_export(PerfData& data, const CollapsedConfig& config, OutBuffer& out,
                            FILE* err) {
  StackCounts counts;
  Status st = collapse_stacks(data, config, counts, err);
  // What was read before a damaged record is folded, as the pipeline folds what perf printed.
  counts.for_each_folded([&](std::string_view stack, uint64_t n) {
    out.write(stack);
    out.print(" {}\n", n);
  });
  out.flush();
  return st;
}

}  // namespace readperf
