// `script -F brstack`, `brstacksym` and `brstackoff` (builtin-script.c): the branch stack of a
// sample, each entry's ends as addresses, symbols or map offsets, then its flags.
#include <array>

#include "readperf/analysis/resolver.h"
#include "readperf/format/perf_abi.h"
#include "readperf/symbols/x86_insn.h"
#include "script_fields.h"
#include "script_internal.h"

namespace readperf {

using namespace script;  // NOLINT: the field bits

namespace {

// print_bstack_flags(): "/%c/%c/%c/%d/%s ", mispred_str() first.
void print_flags(OutBuffer& out, const BranchFlags& f) {
  char pred = !(f.mispred() || f.predicted()) ? '-' : f.predicted() ? 'P' : 'M';
  out.put('/');
  out.put(pred);
  out.put('/');
  out.put(f.in_tx() ? 'X' : '-');
  out.put('/');
  out.put(f.abort() ? 'A' : '-');
  out.put('/');
  out.dec(f.cycles());
  out.put('/');
  out.write(std::string_view(branch_type_text(f)));
  out.put(' ');
}

// builtin-script.c perf_sample__fprintf_brstackinsn()'s state: perf's struct perf_insn (the
// cpumode and word size of the last block read) and its buffer of up to MAXBB bytes.
class BlockPrinter {
 public:
  BlockPrinter(OutBuffer& out, Resolver& resolver, const Thread& thread, uint64_t fields,
               BlockSource source)
      : out_(out),
        resolver_(resolver),
        thread_(thread),
        insn_len_(fields & kBrstackinsnlen),
        srcline_(fields & kSrcline),
        source_(fields & kSrccode ? source : BlockSource{}) {}

  // grab_bb(): the code from `start` to `end` and one instruction more; the bytes read, 0 when
  // there is nothing to read, -1 (perf's -ENXIO) for a block crossing the kernel boundary.
  long grab(uint64_t start, uint64_t end) {
    if (!start || !end) return 0;
    const uint64_t kernel_start = resolver_.options().kernel_start;
    const bool kernel = start >= kernel_start;
    cpumode_ = kernel ? kMiscKernel : kMiscUser;
    if (kernel != (end >= kernel_start)) return -1;
    if (end - start > kMaxBlock - kMaxInsn) return 0;
    size_t n =
        resolver_.read_code(thread_, start, buffer_.data(), end - start + kMaxInsn, &is_64bit_);
    return static_cast<long>(n);
  }

  // ip__fprintf_sym(): "\tSYMBOL+OFF:" where a new symbol begins.
  void symbol_line(uint64_t addr) {
    Frame f = resolver_.resolve_addr(thread_, cpumode_, addr);
    if (!f.map) return;
    const uint64_t al_addr = f.sym_addr;
    if (last_sym_ && al_addr >= last_sym_->start && al_addr < last_sym_->end) return;
    if (!f.sym) return;
    int64_t off =
        al_addr < f.sym->end ? al_addr - f.sym->start : al_addr - f.map->start - f.sym->start;
    out_.put('\t');
    out_.write(f.sym->name);
    if (static_cast<int>(off)) out_.print("{:+d}", static_cast<int>(off));
    out_.put(':');
    if (srcline_) {
      // map__fprintf_srcline(al.map, al.addr, "\t", fp).
      std::string_view line = resolver_.script_srcline(f);
      if (!line.empty()) {
        out_.put('\t');
        out_.write(line);
      }
    }
    out_.put('\n');
    last_sym_ = f.sym;
  }

  // print_srccode(): the source line of `addr` when it is not the thread's last one, on
  // standard output (perf writes it there whatever file the sample goes to).
  void source_line(uint64_t addr) {
    if (!source_.lines) return;
    Frame f = resolver_.resolve_addr(thread_, cpumode_, addr);
    if (!f.map) return;
    if (source_.lines->print(*source_.out, resolver_, f, &thread_)) source_.out->put('\n');
  }

  // dump_insn() (intel-pt-insn-decoder.c): "insn: " and each byte with a space after it, or
  // "<bad>" (the length then stays 0).
  std::string_view insn_text(long at, long avail, int* len) {
    text_.clear();
    int n =
        avail > 0 ? x86_insn_length(buffer_.data() + at, static_cast<size_t>(avail), is_64bit_) : 0;
    if (n == 0) return "<bad>";
    *len = n;
    text_ = "insn: ";
    for (int i = 0; i < n; ++i)
      fmt::format_to(std::back_inserter(text_), "{:02x} ", buffer_[at + i]);
    return text_;
  }

  // One instruction that is not the block's branch: "\tADDR\tinsn: ...".
  int insn_line(uint64_t ip, long at, long avail) {
    int len = 0;
    std::string_view text = insn_text(at, avail, &len);
    out_.print("\t{:016x}\t{}", ip, text);
    if (insn_len_) out_.print("\tilen: {}", len);
    out_.put('\n');
    return len;
  }

  // ip__fprintf_jump(): the branch instruction with the entry's flags, cycles and IPC.
  void jump_line(uint64_t ip, const BranchEntry& e, long at, long avail, int insns) {
    int len = 0;
    std::string_view text = insn_text(at, avail, &len);
    out_.print("\t{:016x}\t{:<30}\t", ip, text);
    if (insn_len_) out_.print("ilen: {}\t", len);
    BranchFlags f(e.flags);
    out_.put('#');
    if (f.predicted()) out_.write(" PRED");
    if (f.mispred()) out_.write(" MISPRED");
    if (f.in_tx()) out_.write(" INTX");
    if (f.abort()) out_.write(" ABORT");
    if (f.cycles()) {
      total_cycles_ += static_cast<int>(f.cycles());
      out_.print(" {} cycles [{}]", f.cycles(), total_cycles_);
      if (insns) out_.print(" {:.2f} IPC", static_cast<float>(insns) / f.cycles());
    }
    out_.put('\n');
  }

  int is_branch(long at, long avail) const {
    return avail > 0
               ? x86_insn_is_branch(buffer_.data() + at, static_cast<size_t>(avail), is_64bit_)
               : -1;
  }

  static constexpr uint64_t kMaxBlock = 16384;  // MAXBB
  static constexpr uint64_t kMaxInsn = 15;      // MAXINSN

 private:
  OutBuffer& out_;
  Resolver& resolver_;
  const Thread& thread_;
  const bool insn_len_;
  const bool srcline_;
  const BlockSource source_;
  uint8_t cpumode_ = kMiscUser;  // perf leaves x.cpumode unset until a block is read
  bool is_64bit_ = true;
  const Symbol* last_sym_ = nullptr;
  int total_cycles_ = 0;
  std::string text_;
  std::array<uint8_t, kMaxBlock + kMaxInsn> buffer_{};
};

}  // namespace

void print_branch_stack(OutBuffer& out, Resolver& resolver, const Thread& thread, const Sample& s,
                        uint64_t fields, std::string_view (*dso_name)(const Frame&, const void*),
                        const void* dso_name_arg) {
  const BranchStack& br = s.branch_stack;
  if (!s.has_branch_stack || br.nr == 0) return;
  const bool with_dso = fields & kDso;
  const uint8_t cpumode = s.cpumode();
  auto print_dso = [&](const Frame& f) {
    out.put('(');
    out.write(dso_name(f, dso_name_arg));
    out.put(')');
  };
  // A map alone, as thread__find_map_fb() finds it (no symbols loaded).
  auto map_frame = [&](uint64_t addr) {
    Frame f;
    f.map = resolver.find_map_fb(thread, cpumode, addr);
    f.dso = f.map ? f.map->dso : nullptr;
    return f;
  };
  const size_t n = std::min<uint64_t>(br.nr, br.entries.size() / 24);
  for (size_t i = 0; i < n; ++i) {
    const BranchEntry e = br.entry(i);
    if (fields & kBrstack) {
      out.write(" 0x");
      out.hex(e.from);
      if (with_dso) print_dso(map_frame(e.from));
      out.write("/0x");
      out.hex(e.to);
      if (with_dso) print_dso(map_frame(e.to));
    } else if (fields & kBrstacksym) {
      // thread__find_symbol_fb(), then symbol__fprintf_symname_offs(): "NAME+0xOFF", or
      // "[unknown]", with no space before it.
      for (int end = 0; end < 2; ++end) {
        Frame f = resolver.resolve_addr_fb(thread, cpumode, end ? e.to : e.from);
        out.write(f.symbol_name());
        if (f.sym) {
          out.write("+0x");
          out.hex(f.symoff());
        }
        if (with_dso) print_dso(f);
        if (!end) out.put('/');
      }
    } else {
      // The map offset of an address whose DSO's symbols are not "adjusted" (not loaded yet,
      // or not found), the address itself otherwise.
      for (int end = 0; end < 2; ++end) {
        uint64_t addr = end ? e.to : e.from;
        Frame f = map_frame(addr);
        uint64_t shown = addr;
        if (f.map && !resolver.adjusts_symbols(f.dso)) {
          // map__map_ip(). perf's kernel and module maps have pgoff 0 (the kernel MMAP's pgoff
          // locates _text, machine__process_kernel_mmap_event()), so their offset is from the
          // map's start.
          bool kernel = f.dso && f.dso->space != DsoSpace::kUser;
          shown = kernel ? addr - f.map->start : f.map->map_ip(addr);
        }
        out.write(end ? "/0x" : " 0x");
        out.hex(shown);
        if (with_dso) print_dso(f);
      }
    }
    print_flags(out, BranchFlags(e.flags));
  }
}

void print_branch_stack_insns(OutBuffer& out, Resolver& resolver, const Thread& thread,
                              const Sample& s, uint64_t fields, int max_blocks,
                              BlockSource source) {
  const BranchStack& br = s.branch_stack;
  if (!s.has_branch_stack || br.nr == 0) return;
  long nr = static_cast<long>(std::min<uint64_t>(br.nr, br.entries.size() / 24));
  if (nr == 0) return;
  if (max_blocks > 0 && nr > max_blocks + 1) nr = max_blocks + 1;
  BlockPrinter p(out, resolver, thread, fields, source);
  out.put('\n');
  // The first entry's source, whose block start is unknown.
  BranchEntry first = br.entry(static_cast<size_t>(nr - 1));
  long len = p.grab(first.from, first.from);
  if (len > 0) {
    p.symbol_line(first.from);
    p.jump_line(first.from, first, 0, len, 0);
    p.source_line(first.from);
  }
  // Every block between one branch's target and the next one's source.
  for (long i = nr - 2; i >= 0; --i) {
    uint64_t start = br.entry(static_cast<size_t>(i + 1)).to;
    uint64_t end = br.entry(static_cast<size_t>(i)).from;
    len = p.grab(start, end);
    // A transfer into the kernel the ring filter hid: patched up to the next source.
    if (len == -1 && i > 0) {
      end = br.entry(static_cast<size_t>(--i)).from;
      len = p.grab(start, end);
    }
    if (len <= 0) continue;
    int insns = 0;
    uint64_t off = 0;
    int ilen = 0;
    for (; off < static_cast<uint64_t>(len); off += static_cast<uint64_t>(ilen)) {
      uint64_t ip = start + off;
      p.symbol_line(ip);
      long at = static_cast<long>(off);
      if (ip == end) {
        p.jump_line(ip, br.entry(static_cast<size_t>(i)), at, len - at, ++insns);
        p.source_line(ip);
        break;
      }
      ilen = p.insn_line(ip, at, len - at);
      if (ilen == 0) break;
      p.source_line(ip);
      ++insns;
    }
    if (off != end - start) out.write("\tmismatch of LBR data and executable\n");
  }
  // Done when the sample hit the branch itself (its target not run yet) or an abort.
  const BranchEntry last = br.entry(0);
  if (last.from == s.ip || BranchFlags(last.flags).abort()) return;
  // The final block, up to the sample; a sample before the last target lost a branch or two
  // to pipeline delays: 128 bytes are scanned for the next branch.
  uint64_t start = last.to;
  uint64_t end = s.ip < start ? start + 128 : s.ip;
  len = p.grab(start, end);
  p.symbol_line(start);
  if (len <= 0) {
    // At least the sample's own instruction.
    len = p.grab(s.ip, s.ip);
    if (len <= 0) return;
    p.insn_line(s.ip, 0, len);
    p.source_line(s.ip);
    return;
  }
  int ilen = 0;
  for (uint64_t off = 0; off <= end - start; off += static_cast<uint64_t>(ilen)) {
    long at = static_cast<long>(off);
    ilen = p.insn_line(start + off, at, len - at);
    if (ilen == 0) break;
    if (p.is_branch(at, len - at) && start + off != s.ip) {
      out.write("\t... not reaching sample ...\n");
      break;
    }
    p.source_line(start + off);
  }
}

}  // namespace readperf
