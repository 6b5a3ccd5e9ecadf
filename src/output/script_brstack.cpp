// `script -F brstack`, `brstacksym` and `brstackoff` (builtin-script.c): the branch stack of a
// sample, each entry's ends as addresses, symbols or map offsets, then its flags.
#include "readperf/analysis/resolver.h"
#include "script_fields.h"
#include "script_internal.h"

namespace readperf {

using namespace script;  // NOLINT: the field bits

namespace {

// struct perf_branch_entry's flag bits (include/uapi/linux/perf_event.h, perf 6.1):
// mispred:1, predicted:1, in_tx:1, abort:1, cycles:16, type:4, spec:2, new_type:4, priv:3.
struct BranchFlags {
  explicit BranchFlags(uint64_t f) : bits(f) {}
  bool mispred() const { return bits & 1; }
  bool predicted() const { return bits & 2; }
  bool in_tx() const { return bits & 4; }
  bool abort() const { return bits & 8; }
  unsigned cycles() const { return (bits >> 4) & 0xffff; }
  unsigned type() const { return (bits >> 20) & 0xf; }
  unsigned new_type() const { return (bits >> 26) & 0xf; }
  uint64_t bits;
};

// util/branch.c get_branch_type(): "" for PERF_BR_UNKNOWN, branch_new_type_name() for
// PERF_BR_EXTEND_ABI (the x86 build's names; past PERF_BR_NEW_MAX perf passes NULL to "%s",
// which glibc prints as "(null)"), else branch_type_name().
std::string_view branch_type(const BranchFlags& f) {
  static constexpr std::string_view kTypes[] = {
      "",       "COND",      "UNCOND",   "IND",  "CALL", "IND_CALL", "RET",   "SYSCALL",
      "SYSRET", "COND_CALL", "COND_RET", "ERET", "IRQ",  "SERROR",   "NO_TX", ""};
  static constexpr std::string_view kNewTypes[] = {
      "FAULT_ALGN", "FAULT_DATA", "FAULT_INST", "ARCH_1", "ARCH_2", "ARCH_3", "ARCH_4", "ARCH_5"};
  if (f.type() == 15) return f.new_type() < 8 ? kNewTypes[f.new_type()] : "(null)";
  return kTypes[f.type()];
}

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
  out.write(branch_type(f));
  out.put(' ');
}

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

}  // namespace readperf
