// builtin-script.c process_event(): a sample's line, field by field (the line start, period,
// event name, trace, addr, data_src, weight, ip and call chain, registers, branch stacks,
// instruction bytes, physical address, page sizes, source code).
#include <algorithm>

#include "dump_internal.h"
#include "readperf/format/perf_abi.h"
#include "readperf/output/mem_info.h"
#include "readperf/symbols/x86_insn.h"
#include "script_sink.h"

namespace readperf {

using namespace script;  // NOLINT: the field names

namespace {

void print_page_size(OutBuffer& out, uint64_t size) { out.print(" {}", page_size_name(size)); }

}  // namespace

// perf_sample__fprintf_start(): the comm is not padded when a call chain follows it.
bool ScriptSink::comm_unpadded(const Evsel& evsel, uint64_t fields) const {
  return (fields & kIp) && (evsel.attr.sample_type & kSampleCallchain) && use_callchain();
}

// __symbol__fprintf_symname_offs() and map__fprintf_dsoname() for one frame.
void ScriptSink::print_sym(const Frame& fr, unsigned opts) {
  out_->put(' ');
  out_->write(fr.symbol_name());
  if (fr.sym && (opts & kPrintSymoffset)) {
    out_->write("+0x");  // "+{:#x}"
    out_->hex(fr.symoff());
  }
}

std::string_view ScriptSink::dso_name(const Frame& fr) const {
  std::string_view name = fr.dso_name(cfg_.show_kernel_path);
  if (!cfg_.pad_dso) return name;
  // scnprintf_pad(buf, pad, "%s", name): at most pad - 1 characters, then spaces to pad.
  pad_buf_.assign(name.substr(0, cfg_.pad_dso - 1));
  pad_buf_.resize(cfg_.pad_dso, ' ');
  return pad_buf_;
}

void ScriptSink::print_dso(std::string_view name) {  // " ({})"
  out_->write(" (");
  out_->write(name);
  out_->put(')');
}

// evsel_fprintf.c sample__fprintf_sym() / sample__fprintf_callchain().
void ScriptSink::print_ip(const Sample& s, const ResolvedSample& rs, unsigned opts, bool chain) {
  if (chain) {
    for (const Frame& fr : rs.callchain) {
      if (opts & kPrintIp) {
        out_->put('\t');  // "\t{:16x}"
        out_->hex(fr.chain_ip(), 16, ' ');
      }
      if (opts & kPrintSym) print_sym(fr, opts);
      if ((opts & kPrintDso) && !fr.inlined) print_dso(dso_name(fr));
      if (opts & kPrintSrcline) print_srcline(fr);
      if (fr.inlined) out_->write(" (inlined)");
      out_->put('\n');
      // symbol_conf.bt_stop_list (--stop-bt).
      if (fr.sym && !cfg_.stop_bt.empty() &&
          std::find(cfg_.stop_bt.begin(), cfg_.stop_bt.end(), fr.sym->name) != cfg_.stop_bt.end()) {
        break;
      }
    }
    return;
  }
  if (opts & kPrintIp) out_->hex(s.ip, 16, ' ');  // "{:16x}"
  if (opts & kPrintSym) print_sym(rs.self, opts);
  if (opts & kPrintDso) print_dso(dso_name(rs.self));
  if (opts & kPrintSrcline) print_srcline(rs.self);
}

void ScriptSink::print_srcline(const Frame& fr) {  // "\n  {}"
  std::string_view s = resolver().script_srcline(fr);
  if (s.empty()) return;
  out_->write("\n  ");
  out_->write(s);
}

void ScriptSink::print_regs(const RegsDump& regs, uint64_t mask) {
  // builtin-script.c perf_sample__fprintf_regs().
  if (regs.regs.empty()) return;
  out_->print(" ABI:{} ", regs.abi);
  size_t i = 0;
  for (unsigned r = 0; r < 64; ++r) {
    if (!(mask & (1ull << r))) continue;
    uint64_t v = i < regs.regs.size() ? regs.regs[i] : 0;
    ++i;
    out_->print("{:>5}:{:#x} ", perf_reg_name(r, arch_), v);
  }
}

// builtin-script.c perf_sample__fprintf_insn() after script_fetch_insn(): the bytes of
// the instruction at the sample's ip, read from the binary when the recording is of this
// machine's architecture (native_arch), with their length.
void ScriptSink::print_insn(const Sample& s, const Thread& thread, uint64_t f) {
  uint8_t code[16];  // perf's MAX_INSN
  int len = 0;
  if (native_arch_ && s.ip) {
    bool is_64bit = false;
    size_t n = resolver().read_code(thread, s.ip, code, sizeof code, &is_64bit);
    if (n) len = x86_insn_length(code, n, is_64bit);
  }
  if (f & kInsnlen) out_->print(" ilen: {}", len);
  if ((f & kInsn) && len) {
    out_->write(" insn:");
    for (int i = 0; i < len; ++i) out_->print(" {:02x}", code[i]);
  }
}

// builtin-script.c data_src__fprintf(): the value and its decoding, padded to the longest
// such text printed so far (a static maxlen in perf: one for every event).
void ScriptSink::print_data_src(uint64_t data_src) {
  std::string text = script_data_src_text(data_src);
  data_src_width_ = std::max(data_src_width_, text.size());
  out_->print("{:<{}}", text, data_src_width_);
}

// builtin-script.c process_event().
void ScriptSink::print_event(const Sample& s, const Evsel& evsel, const TypeOutput& o,
                             const ResolvedSample& rs, uint64_t period, bool chain) {
  uint64_t f = o.fields;
  start_.print(*out_, s, rs.comm, f, comm_unpadded(evsel, f), kRecordSample);
  if (f & kPeriod) {
    out_->dec(period, 10);  // "{:10} "
    out_->put(' ');
  }
  if (f & kEvname) {
    if (!name_width_) name_width_ = max_name_len();
    const std::string& name = event_name_of(evsel);
    out_->padded(name, name_width_);  // "{:>{}}: "
    out_->write(": ");
  }
  // Only samples synthesized from AUX data carry branch flags (perf_sample.flags).
  if (table_.print_flags()) print_sample_flags(*out_, 0);
  if ((f & kTrace) && s.raw_size) trace_.print(s, evsel, *rs.thread, *out_);
  if (f & kAddr) {
    out_->print("{:16x}", s.addr);
    if (evsel.attr.addr_correlates_sym()) {
      Frame fr = resolver().resolve_addr_fb(*rs.thread, s.cpumode(), s.addr);
      if (f & kSym) {
        out_->put(' ');
        out_->write(fr.symbol_name());
        if (fr.sym && (f & kSymoffset)) out_->print("+{:#x}", fr.symoff());
      }
      if (f & kDso) out_->print(" ({})", dso_name(fr));
    }
  }
  if (f & kDataSrc) print_data_src(s.data_src);
  if (f & kWeight) out_->print("{:16}", s.weight);
  if (f & kInsLat) out_->print("{:16}", s.ins_lat);
  if (f & kIp) {
    out_->put(chain ? '\n' : ' ');
    print_ip(s, rs, o.print_ip_opts, chain);
  }
  if (f & kIregs) print_regs(s.intr_regs, evsel.attr.sample_regs_intr);
  if (f & kUregs) print_regs(s.user_regs, evsel.attr.sample_regs_user);
  if (f & (kBrstack | kBrstacksym | kBrstackoff)) {
    print_branch_stack(
        *out_, resolver(), *rs.thread, s, f,
        [](const Frame& fr, const void* self) {
          return static_cast<const ScriptSink*>(self)->dso_name(fr);
        },
        this);
  }
  // perf_sample__fprintf_insn() → arch_fetch_insn(): every printed sample's instruction is
  // fetched on its own architecture (thread__memcpy(), which asks where the kernel starts).
  if (native_arch_ && s.ip) resolver().use_kernel_start();
  if (f & (kInsn | kInsnlen)) print_insn(s, *rs.thread, f);
  if (f & (kBrstackinsn | kBrstackinsnlen)) {
    print_branch_stack_insns(*out_, resolver(), *rs.thread, s, f, cfg_.max_blocks,
                             {&srccode_, &stdout_});
  }
  if (f & kPhysAddr) out_->print("{:16x}", s.phys_addr);
  if (f & kDataPageSize) print_page_size(*out_, s.data_page_size);
  if (f & kCodePageSize) print_page_size(*out_, s.code_page_size);
  out_->put('\n');
  // process_event() prints the source line to standard output, whichever file the sample's
  // line went to.
  if ((f & kSrccode) && srccode_.print(stdout_, resolver(), rs.self, rs.thread)) {
    stdout_.put('\n');
  }
}

// evlist__max_name_len().
int ScriptSink::max_name_len() {
  size_t len = 0;
  for (size_t i = 0; i < pd_.events().size(); ++i) {
    len = std::max(len, event_name_of(pd_.events()[i]).size());
  }
  return static_cast<int>(len);
}

}  // namespace readperf
