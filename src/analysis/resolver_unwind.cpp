// The `--call-graph dwarf` half of Resolver: machine.c thread__resolve_callchain_unwind() and
// unwind_entry(), over the symbols layer's CFI unwinder (perf 6.1 as Debian builds it uses
// libunwind: util/unwind-libunwind-local.c) and inline frames (util/srcline.c).
#include <elf.h>

#include <bit>
#include <cstring>

#include "readperf/analysis/resolver.h"
#include "readperf/format/perf_abi.h"
#include "readperf/symbols/demangle.h"

namespace readperf {

const DsoSymbols* Resolver::user_symbols(const Map& map) {
  if (!map.dso || map.dso->space != DsoSpace::kUser) return nullptr;
  return entry_for(map).user;
}

bool Resolver::unwinder_registered(Maps& maps) {
  // unwind-libunwind.c unwind__prepare_access(), called for each map as it is inserted
  // (thread__insert_map(), maps__clone()): without env->arch it registers the unwinder at
  // once; with it, only when dso__type() can open the map's file (the build-id cache's copy,
  // else the path under --symfs) and read an ELF header, else "return 0" and nothing is
  // registered. A process whose binaries are all missing is never unwound: perf prints not
  // even the sample's ip for the user part (unwind__get_entries() returns 0 without ops).
  Maps::UnwindAccess& access = maps.unwind_access;
  const std::vector<const Dso*>& dsos = maps.inserted_dsos();
  while (!access.registered && access.dsos_checked < dsos.size()) {
    const Dso* dso = dsos[access.dsos_checked++];
    if (!options_.unwind_needs_readable_map) {
      access.registered = true;
    } else if (dso && dso->space == DsoSpace::kUser) {
      const DsoSymbols& ds = load_user_dso(*dso);
      access.registered = !ds.runtime_path.empty() && cfi_.get(ds.runtime_path) != nullptr;
    }
  }
  return access.registered;
}

void Resolver::unwind_user(const Thread& t, const Sample& s) {
  // thread__resolve_callchain_unwind(): only with both PERF_SAMPLE_REGS_USER and
  // PERF_SAMPLE_STACK_USER, and something captured in both.
  constexpr uint64_t kNeeded = kSampleRegsUser | kSampleStackUser;
  if ((s.sample_type & kNeeded) != kNeeded) return;
  if (s.user_regs.regs.empty() || s.user_stack_size == 0) return;
  if (!t.maps || !unwinder_registered(*t.maps)) return;

  // access_reg(): the sample's registers by their perf index (perf_reg_value()).
  UnwindRegs regs;
  const uint64_t mask = s.user_regs.mask;
  for (int r = 0; r < kDwarfRegCount; ++r) {
    int p = perf_reg_for_dwarf_x86_64(r);
    if (!((mask >> p) & 1)) continue;
    size_t idx = std::popcount(mask & ((uint64_t{1} << p) - 1));
    if (idx < s.user_regs.regs.size()) regs.set(r, s.user_regs.regs[idx]);
  }
  if (!regs.has(kDwarfRsp)) return;
  const uint64_t sp = regs.value[kDwarfRsp];
  const uint64_t stack_end = sp + s.user_stack_size;
  Bytes stack = s.user_stack;
  if (s.user_stack_order == ByteOrder::kSwapped) {
    // perf swaps the copy back word by word before unwinding; words are then read at any
    // offset, so undo the swap over the whole copy.
    swapped_stack_.resize(stack.size());
    for (size_t i = 0; i + 8 <= stack.size(); i += 8) {
      uint64_t w;
      std::memcpy(&w, stack.data() + i, 8);
      w = __builtin_bswap64(w);
      std::memcpy(swapped_stack_.data() + i, &w, 8);
    }
    stack = Bytes(swapped_stack_.data(), stack.size() / 8 * 8);
  }

  char level = 0;  // find_map() always writes it
  UnwindCallbacks cb;
  cb.find_code = [&](uint64_t ip, CodeLocation* where) {
    // find_proc_info(): the map of the address and its file.
    const Map* m = machine_.find_map(t, kMiscUser, ip, &level);
    if (!m || !m->dso) return false;
    const DsoSymbols* ds = user_symbols(*m);
    if (!ds || ds->runtime_path.empty()) return false;
    const CfiFile* file = cfi_.get(ds->runtime_path);
    if (!file) return false;
    where->file = file;
    where->map_start = m->start;
    where->map_end = m->end;
    // read_unwind_spec_eh_frame(): "if (map->dso == dso && map->start < base_addr) base_addr =
    // map->start - map->pgoff" over the maps in address order, so the lowest map of the DSO
    // wins, even one an exec left behind from the parent process.
    uint64_t base = m->start - m->pgoff;
    for (const auto& [start, other] : t.maps->entries()) {
      if (other.dso == m->dso) {
        base = other.start - other.pgoff;
        break;
      }
    }
    where->eh_frame_bias = base - file->elf_base_address();
    where->debug_frame_bias = ip - file->offset_to_vaddr(m->map_ip(ip));
    return true;
  };
  cb.read_word = [&](uint64_t addr, uint64_t* value) {
    // access_mem(): the stack copy from the sampled sp for its filled size (the last word
    // left out, as perf's check `addr + 8 >= end` does), else the mapped file's bytes
    // (access_dso_mem()).
    if (addr + 8 < addr) return false;
    if (addr >= sp && addr + 8 < stack_end && addr - sp + 8 <= stack.size()) {
      std::memcpy(value, stack.data() + (addr - sp), 8);
      return true;
    }
    // access_dso_mem() fails (-1) only without a map or DSO. A map whose bytes cannot be read
    // (the rest of [stack], an anonymous map, past the file's end) makes it return 1, which
    // access_mem() passes on with the value set to 0: libunwind takes any return >= 0 as
    // success, so a stack copy cut short yields a return address of 0 (perf prints the frame
    // as 0xffffffffffffffff, ??:0 for srcline).
    const Map* m = machine_.find_map(t, kMiscUser, addr, &level);
    if (!m || !m->dso) return false;
    const DsoSymbols* ds = user_symbols(*m);
    const CfiFile* file = ds && !ds->runtime_path.empty() ? cfi_.get(ds->runtime_path) : nullptr;
    if (!file || !file->read_word(m->map_ip(addr), value)) *value = 0;
    return true;
  };
  unwind_x86_64(regs, cb, options_.max_stack, unwound_);
  // get_entries(): entries of ip 0 are skipped. They are resolved in callchain order, root
  // first for caller order: that is the order perf asks addr2line in, which decides some of
  // its answers (InlineFrames::lookup()). The frames are kept leaf first all the same.
  if (!options_.caller_order) {
    for (uint64_t ip : unwound_) {
      if (ip) expand_unwound(t, ip, result_.callchain);
    }
    return;
  }
  const size_t first = result_.callchain.size();
  group_ends_.clear();
  for (auto it = unwound_.rbegin(); it != unwound_.rend(); ++it) {
    if (*it) expand_unwound(t, *it, result_.callchain);
    group_ends_.push_back(result_.callchain.size());
  }
  // Each ip's frames (innermost inline first) stay together; the groups go back leaf first.
  reordered_.clear();
  for (size_t g = group_ends_.size(); g-- > 0;) {
    size_t begin = g == 0 ? first : group_ends_[g - 1];
    reordered_.insert(reordered_.end(), result_.callchain.begin() + begin,
                      result_.callchain.begin() + group_ends_[g]);
  }
  std::copy(reordered_.begin(), reordered_.end(), result_.callchain.begin() + first);
}

size_t Resolver::read_code(const Thread& t, uint64_t ip, uint8_t* out, size_t len, bool* is_64bit) {
  // machine__kernel_ip() picks the cpumode to look the address up in.
  uint8_t cpumode = ip >= options_.kernel_start ? kMiscKernel : kMiscUser;
  char level = 0;
  const Map* m = machine_.find_map(t, cpumode, ip, &level);
  if (!m || !m->dso || m->dso->space != DsoSpace::kUser) return 0;
  const DsoSymbols* ds = user_symbols(*m);
  const CfiFile* file = ds && !ds->runtime_path.empty() ? cfi_.get(ds->runtime_path) : nullptr;
  if (!file) return 0;
  *is_64bit = file->is_64bit();
  return file->read_bytes(m->map_ip(ip), out, len);
}

bool Resolver::read_symbol_code(const Map& map, const Symbol& sym, uint8_t* out, bool* is_64bit) {
  if (!map.dso || map.dso->space != DsoSpace::kUser) return false;
  const DsoSymbols* ds = user_symbols(map);
  const CfiFile* file = ds && !ds->runtime_path.empty() ? cfi_.get(ds->runtime_path) : nullptr;
  // x86 code only, which is what this machine's objdump disassembles for perf.
  if (!file || (file->elf_machine() != EM_X86_64 && file->elf_machine() != EM_386)) return false;
  *is_64bit = file->is_64bit();
  // A symbol's addresses are map-relative (map__map_ip()), as read_code() reads them.
  const size_t size = sym.end - sym.start;
  return file->read_bytes(sym.start, out, size) == size;
}

void Resolver::expand_unwound(const Thread& t, uint64_t ip, std::vector<Frame>& out) {
  // unwind-libunwind-local.c entry(): thread__find_symbol() in user mode.
  Frame f = resolve_addr(t, kMiscUser, ip);
  // machine.c append_inlines(): with a symbol, the addr2line answer for the address replaces
  // the frame, one frame per record, innermost first.
  const DsoSymbols* ds = (f.map && f.sym) ? user_symbols(*f.map) : nullptr;
  if (ds && !ds->symtab_path.empty() && symbols_.config().inline_names) {
    // map__rip_2objdump(): a shared object's (ET_DYN) address stays the map-relative one.
    uint64_t addr = f.addr;
    const CfiFile* rt = ds->runtime_path.empty() ? nullptr : cfi_.get(ds->runtime_path);
    if (rt && rt->elf_type() != ET_DYN) addr = rt->offset_to_vaddr(addr);
    const EnclosingSymbol enclosing{f.sym->name, addr - (f.addr - f.sym->start)};
    const std::vector<InlineRecord>* found = &inlines_.lookup(ds->symtab_path, addr, &enclosing);
    // Where the line table has nothing but the symbol table names the function, addr2line
    // answers "FUNCTION\nFILE:?", which srcline.c filename_split() takes as line 0 (not for
    // perf's own "@plt" symbols, which are in no symbol table addr2line reads).
    if (found->empty() && !f.sym->name.ends_with("@plt")) {
      if (const std::vector<InlineRecord>* none = no_line_record(ds->symtab_path, addr)) {
        found = none;
      }
    }
    const std::vector<InlineRecord>& recs = *found;
    if (!recs.empty()) {
      std::vector<Symbol>& syms = inline_syms_[&recs];
      if (syms.empty()) {
        // srcline.c new_inline_sym(): the real symbol when the name is its own, else one of
        // the same range under the inlined function's name.
        for (const InlineRecord& r : recs) {
          Symbol is = *f.sym;
          // addr2line names the symbol table's function where DWARF has none. The name is
          // demangled as a symbol's is (new_inline_sym() calls dso__demangle_sym()), so an
          // inlined copy named as its symbol is that symbol, not "(inlined)".
          if (!r.function.empty()) {
            std::optional<std::string> d;
            if (symbols_.config().demangle)
              d = demangle_symbol(r.function, symbols_.config().demangle_params);
            is.name = d ? std::string_view(*inline_names_.insert(std::move(*d)).first)
                        : std::string_view(r.function);
          }
          is.inlined = is.name != f.sym->name;
          syms.push_back(is);
        }
      }
      for (size_t i = 0; i < recs.size(); ++i) {
        Frame fi = f;
        fi.srcline = recs[i].srcline;  // the cursor node's srcline (append_inlines())
        fi.record = &recs[i];
        if (syms[i].inlined) {
          fi.sym = &syms[i];
          fi.inlined = true;
          fi.enclosing_sym = f.sym;
        }
        out.push_back(fi);
      }
      return;
    }
  }
  out.push_back(f);
}

}  // namespace readperf
