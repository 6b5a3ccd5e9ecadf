#include "readperf/analysis/resolver.h"

#include <algorithm>

#include "readperf/analysis/missing_symbols.h"
#include "readperf/format/perf_abi.h"
#include "readperf/symbols/compressed_file.h"

namespace readperf {

std::string_view Frame::dso_name() const {
  // map.c map__fprintf_dsoname() prints dso->name: the path for files, "[kernel.kallsyms]",
  // "[vdso]", and for a module the "[name]" its Dso was created under (machine.c
  // machine__findnew_module_dso) unless the build-id table named it by its path first.
  if (!map || !dso) return "[unknown]";
  if (dso->named_short) return dso->short_name;
  if (dso->long_name.empty()) return dso->short_name;  // BPF images (map.c is_bpf_image)
  return dso->long_name;
}

std::string_view Frame::symbol_name() const { return sym ? sym->name : "[unknown]"; }

uint64_t Frame::symoff() const {
  if (!sym) return 0;
  // symbol_fprintf.c __symbol__fprintf_symname_offs(): past the symbol's end (a zero-size
  // symbol hit at its start) perf subtracts the map's start as well, and prints what comes out.
  if (sym_addr < sym->end) return sym_addr - sym->start;
  return sym_addr - map_start - sym->start;
}

Resolver::Resolver(Machine& machine, SymbolCache& symbols, ResolverOptions options)
    : machine_(machine), symbols_(symbols), options_(options) {
  result_.callchain.reserve(options_.max_stack + 1);
  inlines_.set_full_source_path(symbols.config().full_source_path);
}

Resolver::~Resolver() { add_missing_symbols(*this); }

const DsoSymbols& Resolver::load_user_dso(const Dso& dso) {
  DsoKind kind = dso.running_vdso_copy ? DsoKind::kRunningVdso : dso_kind_for(dso.long_name);
  return symbols_.dso(dso.long_name, BuildId::from_bytes(dso.build_id), kind);
}

const Resolver::DsoEntry& Resolver::entry_for(const Map& map) {
  const Dso* dso = map.dso;
  if (dso == last_dso_) return *last_entry_;
  auto it = dsos_.find(dso);
  if (it != dsos_.end()) {
    last_dso_ = dso;
    last_entry_ = &it->second;
    return it->second;
  }
  // First use of this Dso: perf's map__load() → dso__load(), with what is known now (a
  // build-id recorded later does not reload it, as in perf).
  DsoEntry e;
  if (dso->space == DsoSpace::kUser) {
    e.user = &load_user_dso(*dso);
  } else {
    const Map* vm = machine_.vmlinux_map();
    if (dso->is_module) {
      load_module(*dso, e);
    } else if (vm && vm->dso == dso) {
      load_kernel();
      e.kernel = true;
    } else if (auto sec = section_symbols_.find(dso); sec != section_symbols_.end()) {
      e.section = &sec->second->symbols;
    } else {
      // A KSYMBOL (BPF) Dso: machine__process_ksymbol_register() gives it one symbol, at
      // map-relative 0, of the map's length, named as the event named it.
      e.own = true;
      Symbol s;
      s.start = 0;
      s.end = map.end - map.start;
      s.name = dso->short_name;
      own_symbols_.emplace(dso, s);
    }
  }
  load_order_.push_back(dso);
  return dsos_.emplace(dso, e).first->second;
}

void Resolver::find_symbol(Frame& f) {
  // map.c map__find_symbol(): the map's Dso loaded on first use, then looked up at al->addr.
  const DsoEntry& e = entry_for(*f.map);
  f.sym_addr = f.addr;
  if (e.user) {
    f.sym = symbols_.find(*e.user, f.addr);
    f.binary_missing = !e.user->found();
  } else if (e.kernel) {
    f.sym = kernel_->find(f.addr);
    f.binary_missing = !kernel_->found();
  } else if (e.ko) {
    // The .ko read just now may have moved the map's pgoff (.text's file offset).
    f.addr = f.map->map_ip(f.ip);
    f.sym_addr = f.addr;
    f.sym = e.ko->symbols.find(f.addr);
  } else if (e.module) {
    // Module symbols are kept at their kallsyms (absolute) addresses; perf's are relative to
    // the module map, which gives the same symbol and offset.
    f.sym_addr = f.ip;
    f.sym = e.module->find(f.ip);
    // maps__split_kallsyms() dropped the first symbol of each run of a module perf had
    // loaded before the kernel's kallsyms (KernelSymbols::module_run_starts).
    if (f.sym && e.dropped_run_starts &&
        std::binary_search(e.dropped_run_starts->begin(), e.dropped_run_starts->end(),
                           f.sym->start)) {
      f.sym = nullptr;
    }
  } else if (e.section) {
    f.sym = e.section->find(f.addr);
  } else if (e.own) {
    const Symbol& s = own_symbols_.at(f.dso);
    f.sym = s.contains(f.addr) ? &s : nullptr;
  } else if (f.dso->is_module) {
    f.binary_missing = !kernel_ || !kernel_->found();  // a module kallsyms did not name
  }
}

Frame Resolver::resolve_addr(const Thread& t, uint8_t cpumode, uint64_t ip) {
  // event.c thread__find_symbol() → thread__find_map().
  Frame f;
  f.ip = ip;
  f.addr = ip;
  f.sym_addr = ip;
  f.cpumode = cpumode;
  const Map* m = machine_.find_map(t, cpumode, ip, &f.level);
  if (m && cpumode == kMiscKernel && !kernel_ && m == machine_.vmlinux_map()) {
    // thread__find_map() loads the map it found before using it: for the kernel's, loading
    // kallsyms may move its bounds, so look again. (A module's map is loaded alone: the
    // kernel's waits for a sample of its own.)
    load_kernel();
    m = machine_.find_map(t, cpumode, ip, &f.level);
  }
  if (!m) return f;
  f.map = m;
  f.dso = m->dso;
  f.map_start = m->start;
  f.addr = m->map_ip(ip);
  find_symbol(f);
  return f;
}

bool context_cpumode(uint64_t marker, uint8_t& cpumode) {
  switch (marker) {
    case kContextHv:
      cpumode = kMiscHypervisor;
      return true;
    case kContextKernel:
      cpumode = kMiscKernel;
      return true;
    case kContextUser:
      cpumode = kMiscUser;
      return true;
    default:
      return false;
  }
}

void Resolver::resolve_callchain(const Thread& t, const Sample& s) {
  // machine.c thread__resolve_callchain_sample() in callee order (perf's default): markers set
  // the cpumode of the entries after them, user mode to begin with; only real entries count
  // towards max_stack; an unknown marker means a corrupt chain, dropped whole.
  uint8_t cpumode = kMiscUser;
  uint32_t entries = 0;
  for (size_t i = 0; i < s.callchain.size() && entries < options_.max_stack; ++i) {
    uint64_t ip = s.callchain[i];
    if (ip >= kContextMax) {
      if (!context_cpumode(ip, cpumode)) {
        result_.callchain.clear();  // callchain_cursor_reset()
        return;
      }
      continue;
    }
    ++entries;
    result_.callchain.push_back(resolve_addr(t, cpumode, ip));
  }
}

bool Resolver::resolve_lbr_callchain(const Thread& t, const Sample& s) {
  // "LBR only affects the user callchain": the recorded chain up to its PERF_CONTEXT_USER
  // marker (looked for within max_stack entries), then the first branch's target and every
  // branch's source, in user mode (lbr_callchain_add_kernel_ip(), lbr_callchain_add_lbr_ip()).
  size_t n = std::min<size_t>(options_.max_stack, s.callchain.size());
  size_t user = 0;
  while (user < n && s.callchain[user] != kContextUser) ++user;
  if (user == n) return false;
  uint8_t cpumode = kMiscUser;
  for (size_t i = 0; i <= user; ++i) {
    uint64_t ip = s.callchain[i];
    if (ip >= kContextMax) {
      if (!context_cpumode(ip, cpumode)) {
        result_.callchain.clear();  // perf's usual path then
        return false;
      }
      continue;
    }
    result_.callchain.push_back(resolve_addr(t, cpumode, ip));
  }
  // perf reads entries[0] even of an empty stack (the bytes after it); readperf adds nothing.
  const BranchStack& b = s.branch_stack;
  // --stitch-lbr: whether this stack continues the thread's previous one (which it then
  // becomes); the stitched frames end the chain.
  LbrStitch* st = nullptr;
  bool stitched = false;
  if (options_.stitch_lbr && b.has_hw_idx && options_.max_lbr > 0) {
    st = &lbr_stitch_[&t];
    if (st->prev_from.empty()) st->prev_from.resize(options_.max_lbr + 1);
    stitched = has_stitched_lbr(*st, b);
    if (!stitched) st->lists.clear();
    st->prev_hw_idx = b.hw_idx;
    st->prev.clear();
    for (size_t i = 0; i < b.nr; ++i) st->prev.push_back(b.entry(i));
  }
  auto append_stitched = [&] {
    if (!stitched) return;
    // lbr_callchain_add_stitched_lbr_ip(). The cursor of caller order starts with them: leaf
    // first, they end it, reversed.
    auto add = [&](const StitchNode& n) {
      result_.callchain.emplace_back(resolve_addr(t, kMiscUser, n.ip)).branch = n.branch;
    };
    if (options_.caller_order) {
      std::for_each(st->lists.rbegin(), st->lists.rend(), add);
    } else {
      std::for_each(st->lists.begin(), st->lists.end(), add);
    }
  };
  if (b.nr == 0) {
    append_stitched();
    return true;
  }
  // The frames carry their branches (add_callchain_ip() with branch = true): the first
  // branch's target with its source as branch_from, and each source with that same
  // branch_from in callee order, none in caller order (lbr_callchain_add_lbr_ip() sets it
  // only after the sources there).
  const BranchEntry first = b.entry(0);
  Frame& to = result_.callchain.emplace_back(resolve_addr(t, kMiscUser, first.to));
  to.branch = {.branch = true, .from = first.from, .flags = first.flags};
  for (size_t i = 0; i < b.nr; ++i) {
    const BranchEntry e = b.entry(i);
    Frame& from = result_.callchain.emplace_back(resolve_addr(t, kMiscUser, e.from));
    from.branch = {
        .branch = true, .from = options_.caller_order ? 0 : first.from, .flags = e.flags};
    // save_lbr_cursor_node(): the frame each source made, for the next sample to stitch.
    if (st && i < st->prev_from.size()) st->prev_from[i] = StitchNode{e.from, from.branch};
  }
  append_stitched();
  return true;
}

bool Resolver::has_stitched_lbr(LbrStitch& st, const BranchStack& cur) {
  if (st.prev.empty()) return false;
  // "Find the physical index of the base-of-stack for current sample" (u64 arithmetic, as
  // perf's, wrapping where it wraps).
  const uint64_t max_lbr = options_.max_lbr;
  const uint64_t prev_nr = st.prev.size();
  uint64_t cur_base = max_lbr - cur.nr + cur.hw_idx + 1;
  uint64_t distance =
      st.prev_hw_idx > cur_base ? st.prev_hw_idx - cur_base : max_lbr + st.prev_hw_idx - cur_base;
  // "Previous sample has shorter stack. Nothing can be stitched."
  if (distance + 1 > prev_nr) return false;
  // Identical branches (from, to, flags) in the same LBR registers, from the current
  // sample's base of stack.
  int identical = 0;
  for (int64_t i = static_cast<int64_t>(distance), j = static_cast<int64_t>(cur.nr) - 1;
       i >= 0 && j >= 0; --i, --j) {
    const BranchEntry& p = st.prev[static_cast<size_t>(i)];
    BranchEntry c = cur.entry(static_cast<size_t>(j));
    if (p.from != c.from || p.to != c.to || p.flags != c.flags) break;
    ++identical;
  }
  if (!identical) return false;
  // The previous stack's entries older than the current one's base: list_add() in callee
  // order, list_add_tail() in caller order.
  for (int64_t i = static_cast<int64_t>(prev_nr) - 1; i > static_cast<int64_t>(distance); --i) {
    if (static_cast<size_t>(i) >= st.prev_from.size() || !st.prev_from[i]) continue;
    if (options_.caller_order) {
      st.lists.push_back(*st.prev_from[i]);
    } else {
      st.lists.push_front(*st.prev_from[i]);
    }
  }
  return true;
}

Frame Resolver::resolve_addr_fb(const Thread& t, uint8_t cpumode, uint64_t addr) {
  Frame f = resolve_addr(t, cpumode, addr);
  if (f.map) return f;
  uint8_t other = addr_cpumode(cpumode, addr);
  if (other == cpumode) return f;
  return resolve_addr(t, other, addr);
}

char Resolver::symtab_origin(const Dso* dso) const {
  auto it = dsos_.find(dso);
  if (!dso || it == dsos_.end()) return '!';
  const DsoEntry& e = it->second;
  if (e.user) return static_cast<char>(e.user->origin);
  // DSO_BINARY_TYPE__VMLINUX for the kernel and its sections' maps read from a vmlinux;
  // DSO_BINARY_TYPE__KALLSYMS for the kernel and the modules kallsyms split off.
  if (e.section) return 'v';
  // A module Dso is made with DSO_BINARY_TYPE__SYSTEM_PATH_KMODULE (dso__set_module_info()),
  // the next type, SYSTEM_PATH_KMODULE_COMP, for a compressed one; it stays unless its .ko came
  // from elsewhere.
  if (e.ko) return e.ko->origin;
  if (dso->is_module) return kmod_compression(dso->long_name) == FileCompression::kNone ? 'K' : 'm';
  if (e.kernel) {
    if (!kernel_ || !kernel_->found()) return '!';
    return kernel_->from_vmlinux ? 'v' : 'k';
  }
  return '!';
}

uint8_t Resolver::addr_cpumode(uint8_t cpumode, uint64_t addr) {
  // machine.c machine__addr_cpumode() (single address space: every arch but sparc), which
  // asks machine__kernel_start().
  use_kernel_start();
  if (addr >= options_.kernel_start) {
    if (cpumode == kMiscUser) return kMiscKernel;
    if (cpumode == kMiscGuestUser) return kMiscGuestKernel;
  } else {
    if (cpumode == kMiscKernel) return kMiscUser;
    if (cpumode == kMiscGuestKernel) return kMiscGuestUser;
  }
  return cpumode;
}

const Map* Resolver::find_map_fb(const Thread& t, uint8_t cpumode, uint64_t addr) {
  char level = 0;
  if (const Map* m = machine_.find_map(t, cpumode, addr, &level)) return m;
  uint8_t other = addr_cpumode(cpumode, addr);
  if (other == cpumode) return nullptr;
  return machine_.find_map(t, other, addr, &level);
}

bool Resolver::adjusts_symbols(const Dso* dso) const {
  auto it = dsos_.find(dso);
  return it != dsos_.end() && it->second.user && it->second.user->found() &&
         it->second.user->origin != BinaryType::kJavaJit;
}

const ResolvedSample& Resolver::resolve(const Sample& s, const Evsel* evsel) {
  return resolve(s, evsel, true);
}

const ResolvedSample& Resolver::resolve(const Sample& s, const Evsel* evsel, bool callchain) {
  // event.c machine__resolve().
  Thread* t = machine_.findnew_thread(s.pid, s.tid);
  result_.thread = t;
  result_.comm = t->comm_str();
  result_.self = resolve_addr(*t, s.cpumode(), s.ip);
  ++samples_resolved_;
  // Without symbol tables (addresses only) nothing is missing.
  if (result_.self.binary_missing && symbols_.config().symbol_tables) {
    ++missing_samples_[result_.self.dso];
  }
  result_.callchain.clear();
  // callchain.c sample__resolve_callchain(): a sample without a chain still gets its
  // branches with show_branchflag_count.
  result_.has_callchain =
      (s.has_callchain || (options_.chain_from_branches && s.has_branch_stack)) &&
      options_.callchain && callchain;
  if (result_.has_callchain) {
    // thread__resolve_callchain_sample(): evsel__has_branch_callstack() samples take their
    // user part from the branch stack.
    bool lbr = evsel && (evsel->attr.branch_sample_type & kBranchSampleCallStack) &&
               s.has_branch_stack && resolve_lbr_callchain(*t, s);
    if (!lbr && options_.branch_callstack && s.has_branch_stack) {
      resolve_branch_history(*t, s);
    } else if (!lbr) {
      resolve_callchain(*t, s);
    }
  }
  // machine.c thread__resolve_callchain(), callee order: the recorded chain, then the frames
  // unwound from the user stack copy (thread__resolve_callchain_unwind()).
  result_.unwound_begin = result_.callchain.size();
  if (result_.has_callchain && options_.dwarf_unwind) unwind_user(*t, s);
  return result_;
}

void Resolver::count_repeat(const Sample& s) {
  ++samples_resolved_;
  // Nothing missing so far: nothing to look up (the common case costs an increment).
  if (missing_samples_.empty()) return;
  const Thread* t = machine_.find_thread(s.pid, s.tid);
  char level = 0;
  const Map* m = t ? machine_.find_map(*t, s.cpumode(), s.ip, &level) : nullptr;
  if (!m || !m->dso) return;
  auto it = missing_samples_.find(m->dso);
  if (it != missing_samples_.end()) ++it->second;
}

std::vector<MissingBinary> Resolver::missing_binaries() const {
  std::vector<MissingBinary> out;
  for (const auto& [dso, n] : missing_samples_) out.push_back({dso, n});
  std::sort(out.begin(), out.end(), [](const MissingBinary& a, const MissingBinary& b) {
    if (a.samples != b.samples) return a.samples > b.samples;
    return a.dso->long_name < b.dso->long_name;
  });
  return out;
}

void Resolver::for_each_loaded(const std::function<void(const Dso&, const DsoSymbols&)>& fn) const {
  for (const Dso* d : load_order_) {
    const DsoEntry& e = dsos_.at(d);
    if (e.user) fn(*d, *e.user);
  }
}

}  // namespace readperf
