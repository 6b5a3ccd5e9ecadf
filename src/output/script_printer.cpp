// `script`: builtin-script.c with no script given. The records build the Machine in perf's
// order (SessionBuilder); each sample that passes the filters of process_sample_event() is
// resolved (Resolver: machine__resolve, thread__resolve_callchain) and printed by
// process_event(); files of `perf stat record` print their counts at each STAT_ROUND.
#include "readperf/output/script_printer.h"

#include <algorithm>
#include <memory>
#include <unordered_map>

#include "dump_internal.h"
#include "readperf/analysis/resolver.h"
#include "readperf/format/perf_abi.h"
#include "readperf/output/event_name.h"
#include "readperf/output/symbol_sources.h"
#include "readperf/session/session_builder.h"
#include "script_fields.h"
#include "script_internal.h"
#include "script_trace.h"

namespace readperf {

namespace {

using namespace script;  // NOLINT: the field names

constexpr uint64_t kSwPageFaults = 2;     // PERF_COUNT_SW_PAGE_FAULTS
constexpr uint64_t kSwPageFaultsMin = 5;  // PERF_COUNT_SW_PAGE_FAULTS_MIN
constexpr uint64_t kSwPageFaultsMaj = 6;  // PERF_COUNT_SW_PAGE_FAULTS_MAJ

// event.c sample_addr_correlates_sym(): page faults' addr is a data address worth a symbol.
bool addr_correlates_sym(const EventAttr& attr) {
  return attr.type == kTypeSoftware &&
         (attr.config == kSwPageFaults || attr.config == kSwPageFaultsMin ||
          attr.config == kSwPageFaultsMaj);
}

// units.c unit_number__scnprintf() through get_page_size_name(): "4K", "2M", "N/A".
void print_page_size(OutBuffer& out, uint64_t size) {
  if (!size) {
    out.write(" N/A");
    return;
  }
  static constexpr char kUnits[] = "BKMGTPEZY";
  int i = 0;
  while (size / 1024 > 1 && i < 8) {
    size /= 1024;
    ++i;
  }
  out.print(" {}{}", size, kUnits[i]);
}

class ScriptSink : public EventSink {
 public:
  ScriptSink(PerfData& pd, const ScriptConfig& cfg, OutputTable& table, const ScriptFilters& f,
             OutBuffer& out)
      : pd_(pd),
        cfg_(cfg),
        table_(table),
        filters_(f),
        out_(out),
        builder_(machine_, pd.order()),
        stat_(pd, out),
        trace_(pd) {
    builder_.begin(pd.features());
    trace_.set_kernel_lookup(
        [this](const Thread& t, uint64_t addr) { return kernel_symbol(resolver(), t, addr); });
    if (pd.features().arch) arch_ = std::string(normalize_arch(*pd.features().arch));
  }

  void on_user_record(const RecordView& r) override {
    builder_.on_user_record(r);
    stat_.on_user_record(r);
    out_.maybe_flush();
  }

  void on_kernel_record(const RecordView& r, const Sample& s, const Evsel* evsel) override {
    if (r.type != kRecordSample) {
      builder_.apply(r, s);
      return;
    }
    if (!evsel) return;
    if (!(evsel->attr.sample_type & kSampleRead)) {
      process_sample(s, *evsel, s.period);
    } else {
      // session.c evlist__deliver_sample(): a sample reading counters is delivered once per
      // counter that moved since its last sample, as a sample of that counter's event.
      uint64_t rf = evsel->attr.read_format;
      if (rf & kFormatGroup) {
        for (uint64_t i = 0; i < s.read.group_nr; ++i) deliver_value(s, s.read.group_value(i, rf));
      } else {
        deliver_value(s, s.read.one);
      }
    }
    out_.maybe_flush();
  }

  // perf_session__check_output_opt(): a file's events are known before its records, so
  // perf settles (and refuses) the fields of each type before printing anything.
  Status check_output() {
    const EventList& events = pd_.events();
    for (size_t i = 0; i < events.size(); ++i) setup_type(events[i]);
    return status_;
  }

  // Null when no sample was resolved.
  const Resolver* used_resolver() const { return resolver_.get(); }
  Status status() const { return status_; }
  bool done() const override { return !status_; }

 private:
  // session.c deliver_sample_value().
  void deliver_value(const Sample& s, const ReadValue& v) {
    const Evsel* ev = pd_.events().find_id(v.id);
    if (!ev) return;
    uint64_t& last = counter_values_[v.id];
    uint64_t period = v.value - last;
    last = v.value;
    if (!period) return;
    process_sample(s, *ev, period);
  }

  // Settles the fields of `evsel`'s type the first time one of its samples comes:
  // perf_session__check_output_opt() (file mode) or process_attr() (pipe mode) did it for the
  // first event of each type.
  bool setup_type(const Evsel& evsel) {
    if (!status_) return false;  // perf stops before the first sample then
    int type = output_type(evsel.attr.type);
    if (type_ready_[type]) return true;
    type_ready_[type] = true;
    const Evsel* first = &evsel;
    const EventList& events = pd_.events();
    for (size_t i = 0; i < events.size(); ++i) {
      const EventAttr& a = events[i].attr;
      if (a.type == kTypeSoftware && a.config == 9) continue;  // dummy events
      if (output_type(a.type) == type) {
        first = &events[i];
        break;
      }
    }
    TypeOutput& o = table_[type];
    if (o.fields) {
      Status st = table_.check_attr(*first, pd_.header().features[kFeatStat],
                                    pd_.header().features[kFeatAuxtrace]);
      if (!st) {
        status_ = st;
        return false;
      }
    }
    // Tracepoints with call chains print where they fired (check_output_opt).
    if (type == kTypeTracepoint && !o.user_set && use_callchain() &&
        (first->attr.sample_type & kSampleCallchain)) {
      o.fields |= kIp | kSym | kSymoffset | kDso;
    }
    table_.set_print_ip_opts(first->attr);
    return true;
  }

  // The symbols are set up at the first sample: in a pipe the header features (the
  // recorded kernel release among them) come as records before it.
  Resolver& resolver() {
    if (!resolver_) {
      SymbolConfig sc = cfg_.symbols;
      if (pd_.features().os_release) sc.recorded_os_release = *pd_.features().os_release;
      symbols_ = std::make_unique<SymbolCache>(std::move(sc));
      resolver_ = std::make_unique<Resolver>(
          machine_, *symbols_,
          ResolverOptions{.callchain = !cfg_.hide_call_graph,
                          .max_stack = cfg_.max_stack,
                          .dwarf_unwind = unwinds_user_stacks(pd_.features().arch)});
    }
    return *resolver_;
  }

  // symbol_conf.use_callchain: on unless -G, and off when no event records call chains
  // (perf_session__check_output_opt; in pipe mode the events are not known then, so it
  // stays on).
  bool use_callchain() const {
    if (cfg_.hide_call_graph) return false;
    if (pd_.kind() == ContainerKind::kPipe) return true;
    return (pd_.events().combined_sample_type() & kSampleCallchain) != 0;
  }

  // builtin-script.c process_sample_event().
  void process_sample(const Sample& s, const Evsel& evsel, uint64_t period) {
    if (filters_.skip_time(s.time)) return;
    if (filters_.skip_cpu(s.cpu)) return;
    if (!setup_type(evsel)) return;
    const TypeOutput& o = table_.of(evsel.attr);
    bool print_ip = o.fields & kIp;
    bool chain = print_ip && use_callchain() && s.has_callchain;
    const ResolvedSample& rs = resolver().resolve(s, &evsel, chain);
    if (filters_.skip_thread(*rs.thread)) return;
    if (o.fields == 0) return;
    print_event(s, evsel, o, rs, period, chain);
  }

  // builtin-script.c perf_sample__fprintf_start().
  void print_start(const Sample& s, const Evsel& evsel, uint64_t f, const ResolvedSample& rs) {
    if (f & kComm) {
      if ((f & kIp) && (evsel.attr.sample_type & kSampleCallchain) && use_callchain()) {
        out_.write(rs.comm);  // "{} "
        out_.put(' ');
      } else {
        out_.padded(rs.comm, 16);  // "{:>16} "
        out_.put(' ');
      }
    }
    if ((f & kPid) && (f & kTid)) {
      out_.dec(s.pid, 5);  // "{:5}/{:<5} "
      out_.put('/');
      out_.dec(s.tid, 5, /*left=*/true);
      out_.put(' ');
    } else if (f & kPid) {
      out_.dec(s.pid, 5);  // "{:5} "
      out_.put(' ');
    } else if (f & kTid) {
      out_.dec(s.tid, 5);  // "{:5} "
      out_.put(' ');
    }
    if (f & kCpu) {
      int32_t cpu = static_cast<int32_t>(s.cpu);
      if (cpu >= 0) {
        out_.put('[');  // "[{:03}] "
        out_.dec0(static_cast<uint64_t>(cpu), 3);
        out_.write("] ");
      } else {
        out_.print("[{:03}] ", cpu);
      }
    }
    if (f & kMisc) {
      int n = 0;
      auto flag = [&](char c) {
        out_.put(c);
        ++n;
      };
      // perf's has(m) tests the bits of m in misc, so a GUEST_USER (5) sample also shows
      // as KERNEL (1) and GUEST_KERNEL (4).
      auto has = [&](uint16_t m) { return (s.misc & m) == m; };
      if (has(kMiscKernel)) flag('K');
      if (has(kMiscUser)) flag('U');
      if (has(kMiscHypervisor)) flag('H');
      if (has(kMiscGuestKernel)) flag('G');
      if (has(kMiscGuestUser)) flag('g');
      out_.print("{:>{}}", " ", std::max(6 - n, 1));
    }
    if (f & kTod) out_.write(filters_.tod(s.time));
    if (f & kTime) {
      uint64_t secs = s.time / 1000000000ull;
      uint64_t nsecs = s.time - secs * 1000000000ull;
      if (cfg_.nanosecs) {
        out_.dec(secs, 5);  // "{:5}.{:09}: "
        out_.put('.');
        out_.dec0(nsecs, 9);
        out_.write(": ");
      } else {
        // time-utils.c timestamp__scnprintf_usec() in "%12s": "{}.{:06}" right-aligned.
        uint64_t usecs = nsecs / 1000;
        size_t digits = 1;
        for (uint64_t v = secs; v >= 10; v /= 10) ++digits;
        out_.pad(' ', digits + 7, 12);
        out_.dec(secs);
        out_.put('.');
        size_t usec_digits = 1;
        for (uint64_t v = usecs; v >= 10; v /= 10) ++usec_digits;
        out_.pad('0', usec_digits, 6);
        out_.dec(usecs);
        out_.write(": ");
      }
    }
  }

  // __symbol__fprintf_symname_offs() and map__fprintf_dsoname() for one frame.
  void print_sym(const Frame& fr, unsigned opts) {
    out_.put(' ');
    out_.write(fr.symbol_name());
    if (fr.sym && (opts & kPrintSymoffset)) {
      out_.write("+0x");  // "+{:#x}"
      out_.hex(fr.symoff());
    }
  }

  void print_dso(std::string_view name) {  // " ({})"
    out_.write(" (");
    out_.write(name);
    out_.put(')');
  }

  // evsel_fprintf.c sample__fprintf_sym() / sample__fprintf_callchain().
  void print_ip(const Sample& s, const ResolvedSample& rs, unsigned opts, bool chain) {
    if (chain) {
      for (const Frame& fr : rs.callchain) {
        if (opts & kPrintIp) {
          out_.put('\t');  // "\t{:16x}"
          out_.hex(fr.chain_ip(), 16, ' ');
        }
        if (opts & kPrintSym) print_sym(fr, opts);
        if ((opts & kPrintDso) && !fr.inlined) print_dso(fr.dso_name());
        if (opts & kPrintSrcline) print_srcline(fr);
        if (fr.inlined) out_.write(" (inlined)");
        out_.put('\n');
      }
      return;
    }
    if (opts & kPrintIp) out_.hex(s.ip, 16, ' ');  // "{:16x}"
    if (opts & kPrintSym) print_sym(rs.self, opts);
    if (opts & kPrintDso) print_dso(rs.self.dso_name());
    if (opts & kPrintSrcline) print_srcline(rs.self);
  }

  void print_srcline(const Frame& fr) {  // "\n  {}"
    std::string_view s = resolver().script_srcline(fr);
    if (s.empty()) return;
    out_.write("\n  ");
    out_.write(s);
  }

  void print_regs(const RegsDump& regs, uint64_t mask) {
    // builtin-script.c perf_sample__fprintf_regs().
    if (regs.regs.empty()) return;
    out_.print(" ABI:{} ", regs.abi);
    size_t i = 0;
    for (unsigned r = 0; r < 64; ++r) {
      if (!(mask & (1ull << r))) continue;
      uint64_t v = i < regs.regs.size() ? regs.regs[i] : 0;
      ++i;
      out_.print("{:>5}:{:#x} ", perf_reg_name(r, arch_), v);
    }
  }

  // builtin-script.c process_event().
  void print_event(const Sample& s, const Evsel& evsel, const TypeOutput& o,
                   const ResolvedSample& rs, uint64_t period, bool chain) {
    uint64_t f = o.fields;
    print_start(s, evsel, f, rs);
    if (f & kPeriod) {
      out_.dec(period, 10);  // "{:10} "
      out_.put(' ');
    }
    if (f & kEvname) {
      if (!name_width_) name_width_ = max_name_len();
      const std::string& name = event_name_of(evsel);
      out_.padded(name, name_width_);  // "{:>{}}: "
      out_.write(": ");
    }
    if ((f & kTrace) && s.raw_size) trace_.print(s, evsel, *rs.thread, out_);
    if (f & kAddr) {
      out_.print("{:16x}", s.addr);
      if (addr_correlates_sym(evsel.attr)) {
        Frame fr = resolver().resolve_addr_fb(*rs.thread, s.cpumode(), s.addr);
        if (f & kSym) {
          out_.put(' ');
          out_.write(fr.symbol_name());
          if (fr.sym && (f & kSymoffset)) out_.print("+{:#x}", fr.symoff());
        }
        if (f & kDso) out_.print(" ({})", fr.dso_name());
      }
    }
    if (f & kDataSrc) print_data_src(out_, s.data_src);
    if (f & kWeight) out_.print("{:16}", s.weight);
    if (f & kInsLat) out_.print("{:16}", s.ins_lat);
    if (f & kIp) {
      out_.put(chain ? '\n' : ' ');
      print_ip(s, rs, o.print_ip_opts, chain);
    }
    if (f & kIregs) print_regs(s.intr_regs, evsel.attr.sample_regs_intr);
    if (f & kUregs) print_regs(s.user_regs, evsel.attr.sample_regs_user);
    if (f & kPhysAddr) out_.print("{:16x}", s.phys_addr);
    if (f & kDataPageSize) print_page_size(out_, s.data_page_size);
    if (f & kCodePageSize) print_page_size(out_, s.code_page_size);
    out_.put('\n');
  }

  const std::string& event_name_of(const Evsel& evsel) {
    if (names_.size() <= evsel.index) names_.resize(evsel.index + 1);
    std::string& n = names_[evsel.index];
    if (n.empty()) n = event_name(evsel);
    return n;
  }

  // evlist__max_name_len().
  int max_name_len() {
    size_t len = 0;
    for (size_t i = 0; i < pd_.events().size(); ++i) {
      len = std::max(len, event_name_of(pd_.events()[i]).size());
    }
    return static_cast<int>(len);
  }

  PerfData& pd_;
  const ScriptConfig& cfg_;
  OutputTable& table_;
  const ScriptFilters& filters_;
  OutBuffer& out_;
  Machine machine_;
  SessionBuilder builder_;
  std::unique_ptr<SymbolCache> symbols_;
  std::unique_ptr<Resolver> resolver_;
  ScriptStat stat_;
  ScriptTrace trace_;
  std::string arch_ = "x86";
  bool type_ready_[kOutputTypes] = {};
  int name_width_ = 0;
  std::vector<std::string> names_;
  std::unordered_map<uint64_t, uint64_t> counter_values_;
  Status status_;
};

}  // namespace

Status run_script(PerfData& data, const ScriptConfig& config, OutBuffer& out, FILE* err) {
  OutputTable table;
  std::string warnings;
  for (const std::string& f : config.fields) {
    Status st = table.parse(f, warnings);
    if (!warnings.empty()) {
      std::fputs(warnings.c_str(), err);
      warnings.clear();
    }
    if (!st) return st;
  }
  ScriptFilters filters;
  RETURN_IF_ERROR(filters.setup(config, data));

  // session.c __perf_session__new(): without sample_id_all perf cannot order by time.
  PerfData::ProcessOptions po;
  po.ordered = data.kind() == ContainerKind::kPipe || data.events().sample_id_all();
  ScriptSink sink(data, config, table, filters, out);
  if (data.kind() != ContainerKind::kPipe) RETURN_IF_ERROR(sink.check_output());
  Status st = data.process(sink, po);
  out.flush();
  if (config.verbose && sink.used_resolver()) print_symbol_sources(*sink.used_resolver(), err);
  if (!sink.status()) return sink.status();
  return st;
}

}  // namespace readperf
