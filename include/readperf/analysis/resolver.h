// Turning a sample into what perf shows: the thread, the map and DSO of each address, the
// symbol, and the resolved call chain. This is perf's machine__resolve() (util/event.c) and
// thread__resolve_callchain() (util/machine.c) on top of the session's Machine and the
// symbols layer's SymbolCache. Both `script` and `report` are fed by it, so both print the same
// names for the same address.
//
//   Machine machine;
//   SessionBuilder builder(machine, data.order());      // applies the records (session/)
//   SymbolCache symbols(config);
//   Resolver resolver(machine, symbols);                 // one per run
//   // for each SAMPLE, after the records before it were applied:
//   const ResolvedSample& rs = resolver.resolve(sample, evsel);
//   for (const Frame& f : rs.callchain) print(f.ip, f.symbol_name(), f.dso_name());
//
// SPEC (implemented in src/analysis/resolver.cpp, target readperf_analysis):
// - Frame: ip (as recorded), addr (map-relative, perf's al.addr / map__map_ip), map (may be
//   null), dso (may be null), sym (may be null), level ('k', '.', 'H', ...), cpumode,
//   and for inline frames later (DWARF issue) an `inlined` flag and srcline.
// - ResolvedSample: thread, comm, the sample's own Frame (ip), and `callchain`: the frames
//   perf's callchain cursor holds for this sample in caller-last order (leaf first), after
//   perf's rules: PERF_CONTEXT_* markers switch cpumode and are dropped, the kernel/user
//   parts filtered as perf does, frame-pointer chains as-is; `--call-graph dwarf` unwinding is
//   the DWARF issue's (a hook left for it).
// - Lookups are cached per (dso, address); vectors are reused between samples (no allocation
//   per sample in the steady state).
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "readperf/analysis/call_tree.h"
#include "readperf/reader/event_list.h"
#include "readperf/reader/sample.h"
#include "readperf/session/machine.h"
#include "readperf/symbols/dwarf_unwind.h"
#include "readperf/symbols/inline_frames.h"
#include "readperf/symbols/kernel_module.h"
#include "readperf/symbols/symbol_cache.h"

namespace readperf {

// perf_event.h PERF_CONTEXT_*: the markers a kernel call chain holds between its entries.
inline constexpr uint64_t kContextHv = static_cast<uint64_t>(-32);
inline constexpr uint64_t kContextKernel = static_cast<uint64_t>(-128);
inline constexpr uint64_t kContextUser = static_cast<uint64_t>(-512);
inline constexpr uint64_t kContextGuest = static_cast<uint64_t>(-2048);
inline constexpr uint64_t kContextGuestKernel = static_cast<uint64_t>(-2176);
inline constexpr uint64_t kContextGuestUser = static_cast<uint64_t>(-2560);
inline constexpr uint64_t kContextMax = static_cast<uint64_t>(-4095);

// machine.c add_callchain_ip() on a PERF_CONTEXT_* marker: sets the cpumode of the chain
// entries after it; false for a marker perf does not know ("invalid callchain context": the
// chain is dropped whole).
bool context_cpumode(uint64_t marker, uint8_t& cpumode);

// One resolved address: perf's addr_location, or a callchain_cursor_node.
struct Frame {
  uint64_t ip = 0;    // as recorded
  uint64_t addr = 0;  // map-relative (map__map_ip) when there is a map, else ip
  // The map as it was when resolved. Maps are cut and replaced by later MMAPs: the pointer
  // is valid until the next record is applied to the Machine; `dso` stays valid for the
  // Machine's life.
  const Map* map = nullptr;
  const Dso* dso = nullptr;
  const Symbol* sym = nullptr;  // owned by the SymbolCache (or the Resolver): stable
  uint64_t map_start = 0;       // the map's start, for perf's symbol offset quirk
  char level = 0;               // 'k' kernel, '.' user, 'H' cpumodes perf does not resolve
  uint8_t cpumode = 0;
  bool inlined = false;  // an inline frame (DWARF issue)
  // An inline frame's function: the symbol table's, whose range `sym` has.
  const Symbol* enclosing_sym = nullptr;
  // The map's binary was looked for and not found anywhere (no symbols for any address in it).
  bool binary_missing = false;
  std::string_view srcline;  // for inline frames (DWARF issue)
  // The addr2line record an unwound frame was made from (append_inlines()), with its source
  // file and line; owned by the Resolver.
  const InlineRecord* record = nullptr;

  // The address in the symbol table's coordinates, the one `sym` was found with.
  uint64_t sym_addr = 0;
  // A frame a branch made (`--branch-history`, `--call-graph lbr`): the branch's flags.
  ChainBranch branch;

  // map__fprintf_dsoname(): the dso's name, "[unknown]" without a map; with `long_names`
  // (symbol_conf.show_kernel_path, --show-kernel-path) its long name where it has one.
  std::string_view dso_name() const;
  std::string_view dso_name(bool long_names) const {
    if (long_names && map && dso && !dso->perf_long_name().empty()) return dso->perf_long_name();
    return dso_name();
  }
  // __symbol__fprintf_symname(): the symbol's name, "[unknown]" without one.
  std::string_view symbol_name() const;
  // __symbol__fprintf_symname_offs(): the offset printed after '+'.
  uint64_t symoff() const;
  // Whether perf prints this frame's ip as the map-relative address in a call chain (a
  // user-space DSO: sample__fprintf_callchain "Show binary offset for userspace addr").
  bool user_dso() const { return map && dso && dso->space == DsoSpace::kUser; }
  // The address sample__fprintf_callchain prints.
  uint64_t chain_ip() const { return user_dso() ? addr : ip; }
};

struct ResolvedSample {
  Thread* thread = nullptr;
  std::string_view comm;  // thread__comm_str() when the sample was resolved
  Frame self;             // the sample's ip (machine__resolve)
  // The callchain cursor's frames, leaf first; empty without a call chain.
  std::vector<Frame> callchain;
  bool has_callchain = false;
  // Where the frames unwound from the user stack copy begin in `callchain` (they end it);
  // callchain.size() when there are none.
  size_t unwound_begin = 0;
};

// A binary samples fell in whose symbols were not found, and how many samples (their own
// address, not their callers') fell in it.
struct MissingBinary {
  const Dso* dso = nullptr;
  uint64_t samples = 0;
};

struct ResolverOptions {
  // Resolve call chains (perf's symbol_conf.use_callchain).
  bool callchain = true;
  // max_stack (PERF_MAX_STACK_DEPTH by default): entries beyond it are dropped, context
  // markers not counted.
  uint32_t max_stack = 127;
  // machine__kernel_start(): where kernel addresses begin, for machine__addr_cpumode(). perf
  // keeps 1 << 63 on x86_64 (its PTI trampolines lie below the kernel map).
  uint64_t kernel_start = 1ull << 63;
  // Unwind the user stack copy of `--call-graph dwarf` samples (perf's
  // thread__resolve_callchain_unwind()), with inline frames for the unwound addresses.
  bool dwarf_unwind = true;
  // callchain_param.order == ORDER_CALLER: unwound frames are resolved root first, as perf
  // resolves them (the result stays leaf first).
  bool caller_order = false;
  // unwind__prepare_access(): with the ARCH feature recorded, perf unwinds a process's stacks
  // only once one of its maps had a file it could read as ELF (dso__type()); without it
  // (perf's env->arch NULL), from its first map on.
  bool unwind_needs_readable_map = true;
  // callchain_param.branch_callstack (`--branch-history`, `-g branch`): a sample with a
  // branch stack has its branches (target, then source, newest first) before its call chain.
  bool branch_callstack = false;
  // symbol_conf.show_branchflag_count (`--branch-history` on a recording with the
  // BRANCH_STACK feature): a sample without a call chain gets one from its branches.
  bool chain_from_branches = false;
  // --stitch-lbr (thread->lbr_stitch_enable) with the PMU's LBR depth (the CPU_PMU_CAPS
  // feature's "branches", env->max_branches): an LBR call stack that continues the previous
  // sample's of its thread gets that sample's older entries appended.
  bool stitch_lbr = false;
  uint32_t max_lbr = 0;
};

// One branch of a sample's stack, as machine.c remove_loops() sees it.
struct BranchHop {
  uint64_t from = 0;
  uint64_t to = 0;
  uint64_t flags = 0;
  // struct iterations: the repetitions cut after this hop, and their cycles.
  uint32_t nr_loop_iter = 0;
  uint64_t iter_cycles = 0;
};

// machine.c remove_loops(): the first `nr` hops with repeated runs (loops) cut out, in place;
// returns how many are left.
size_t remove_branch_loops(std::vector<BranchHop>& hops, size_t nr);

// unwind-libunwind.c unwind__prepare_access(): perf 6.1 as Debian builds it unwinds x86_64
// stacks only ("unwind: target platform=%s is not supported" otherwise), so a foreign
// recording keeps just its kernel call chain. `arch` is the ARCH feature, if recorded.
inline bool unwinds_user_stacks(const std::optional<std::string>& arch) {
  return !arch || *arch == "x86_64" || *arch == "amd64";
}

class Resolver {
 public:
  Resolver(Machine& machine, SymbolCache& symbols, ResolverOptions options = {});
  // Hands its count of samples in missing binaries to the process's summary
  // (missing_symbols.h); the Machine must still be alive.
  ~Resolver();
  Resolver(const Resolver&) = delete;
  Resolver& operator=(const Resolver&) = delete;

  // machine__resolve() and thread__resolve_callchain() for one sample. The result is valid
  // until the next resolve() or the next record applied to the Machine.
  const ResolvedSample& resolve(const Sample& s, const Evsel* evsel = nullptr);

  // The same with the call chain resolved only when `callchain` (and options().callchain).
  const ResolvedSample& resolve(const Sample& s, const Evsel* evsel, bool callchain);

  // thread__find_symbol(): one address of `t` in `cpumode`.
  Frame resolve_addr(const Thread& t, uint8_t cpumode, uint64_t ip);
  // thread__find_symbol_fb(): the same, retried in the cpumode the address's side of the
  // kernel boundary implies (machine__addr_cpumode) when the first look finds no map; how
  // perf resolves a sample's `addr`.
  Frame resolve_addr_fb(const Thread& t, uint8_t cpumode, uint64_t addr);
  // thread.c thread__find_cpumode_addr_location(): user, kernel, guest user, guest kernel,
  // until one has a map (the last look's frame when none has).
  Frame resolve_any_cpumode(const Thread& t, uint64_t addr);
  // thread__find_map_fb(): the map alone (no symbols loaded), with the same retry.
  const Map* find_map_fb(const Thread& t, uint8_t cpumode, uint64_t addr);
  // dso->adjust_symbols as perf has it now: set when dso__load() read a user-space DSO's
  // symbols from an ELF file (symbol-elf.c symsrc__init()), so false for one not loaded yet
  // or not found, and for the kernel read from kallsyms.
  bool adjusts_symbols(const Dso* dso) const;
  // machine.h machine__kernel_start(): asked first (thread__find_map_fb(), thread__memcpy()
  // of script's instruction fetch), it loads the kernel's map: a module met after that sees
  // the kernel's kallsyms read before it (KernelSymbols::module_run_starts).
  void use_kernel_start();
  // sort.c _sort__sym_snprintf() under verbose: for a kernel Dso whose symbols were adjusted
  // (the kernel read from a vmlinux, a module from its .ko), map__unmap_ip() of a
  // map-relative address; else `ip`.
  uint64_t kernel_unmap_ip(const Dso* dso, uint64_t ip) const;
  // dso.c dso__symtab_origin(): the letter of where a DSO's symbols came from ('B' the
  // build-id cache, 'k' kallsyms, 'v' a vmlinux, 'K' a module, ...), '!' for none or a DSO
  // not loaded.
  char symtab_origin(const Dso* dso) const;

  // thread.c thread__memcpy(): up to `len` bytes of the code at `ip` in `t`'s maps, read from
  // the mapped file (perf's dso__data_read_offset()); 0 without a map or a readable file (the
  // kernel's, which perf reads from no kallsyms). `is_64bit`: the file's ELF class.
  size_t read_code(const Thread& t, uint64_t ip, uint8_t* out, size_t len, bool* is_64bit);
  // The code of `sym` (sym.end - sym.start bytes into `out`) from the file of `map`, which
  // holds it (perf's annotation disassembles it there); false when it cannot all be read or
  // is not x86 code (this machine's objdump disassembles no other for perf).
  bool read_symbol_code(const Map& map, const Symbol& sym, uint8_t* out, bool* is_64bit);

  // Calls `fn` for every DSO whose symbols were looked for, in first-use order (for
  // --verbose), and tells whether the kernel's were.
  void for_each_loaded(const std::function<void(const Dso&, const DsoSymbols&)>& fn) const;
  const KernelSymbols* kernel_symbols() const { return kernel_; }

  // The samples resolved so far, and those among them whose address fell in a binary whose
  // symbols were not found, by binary, most samples first (name order on ties).
  uint64_t samples_resolved() const { return samples_resolved_; }
  // Counts a sample its owner did not resolve again, because it is the same as one resolved
  // since the Machine last changed (report's repeat cache): it fell where that one fell.
  void count_repeat(const Sample& s);
  std::vector<MissingBinary> missing_binaries() const;

  // unwind_entry(): the frames of one address unwound from a user stack, appended to `out`
  // leaf first: the inline frames at it (innermost first, `inlined`), then the function they
  // are in; or the one frame thread__find_symbol() gives.
  void expand_unwound(const Thread& t, uint64_t ip, std::vector<Frame>& out);

  // The source file and line of a frame (its record, else the line tables' first answer at
  // its map-relative address); null where DWARF says nothing.
  const InlineRecord* line_record(const Frame& f);

  // sort.c hist_entry__srcline(): the srcline of a frame, interned (equal strings share their
  // storage for the Resolver's life). `chain`: the frame is a call-chain entry (perf looks
  // those up at the recorded address), else the sample's own (at the map-relative one).
  std::string_view srcline(const Frame& f, bool chain, bool asks_addr2line = false);
  // No DSO's srclines depend any more on how often perf 6.1 asked addr2line (A2lState below):
  // each one asked has had an answer, or stopped being asked.
  bool srcline_calls_settled() const { return unsettled_dsos_ == 0; }
  // sort.c hist_entry__get_srcfile(): the file of __get_srcline() without the symbol (a
  // basename unless --full-source-path), interned; empty when addr2line found no line.
  std::string_view srcfile(const Frame& f, bool chain);
  // srcline.c get_srcline_split(): the source file (whole path) and line of a sample's own
  // frame, for `script -F +srccode`; false without one.
  bool srcline_split(const Frame& f, std::string* file, uint32_t* line);
  // What `script -F +srcline` prints under a frame (empty: nothing).
  std::string_view script_srcline(const Frame& f);
  // machine.c callchain_srcline() for a call-chain frame under `-g address` (`show_addr`) or
  // `-g srcline`: the addr2line answer, else "+OFFSET" from the symbol or "DSO[ADDR]" with
  // `show_addr`; interned, null data for none (no map, or no answer without `show_addr`).
  std::string_view callchain_srcline(const Frame& f, bool show_addr);

  Machine& machine() { return machine_; }
  const Machine& machine() const { return machine_; }
  SymbolCache& symbols() { return symbols_; }
  const ResolverOptions& options() const { return options_; }
  void set_dwarf_unwind(bool on, bool needs_readable_map = true) {
    options_.dwarf_unwind = on;
    options_.unwind_needs_readable_map = needs_readable_map;
  }

 private:
  struct DsoEntry {
    const DsoSymbols* user = nullptr;     // user-space DSOs
    const SymbolTable* module = nullptr;  // kernel modules: their table in the kernel's
    bool kernel = false;                  // the kernel itself (vmlinux)
    bool own = false;                     // a KSYMBOL dso: one symbol over its map
    const SymbolTable* section = nullptr;  // a vmlinux section's map (KernelSectionMap)
    const ModuleSymbols* ko = nullptr;     // a kernel module read from its .ko
    // A module loaded before the kernel's kallsyms: the starts of the symbols of its that
    // maps__split_kallsyms() discarded (KernelSymbols::module_run_starts).
    const std::vector<uint64_t>* dropped_run_starts = nullptr;
  };
  const DsoEntry& entry_for(const Map& map);
  // machine.c machine__addr_cpumode(): the cpumode the address's side of the kernel boundary
  // implies, for a look that found no map in `cpumode`.
  uint8_t addr_cpumode(uint8_t cpumode, uint64_t addr);
  // dso__load() of a user-space Dso, with what is known of it now.
  const DsoSymbols& load_user_dso(const Dso& dso);
  const KernelSymbols& load_kernel();
  // dso__load() of a kernel module's Dso, into `e`.
  void load_module(const Dso& dso, DsoEntry& e);
  void find_symbol(Frame& f);
  void resolve_callchain(const Thread& t, const Sample& s);
  // machine.c resolve_lbr_callchain_sample() for `--call-graph lbr` (an event sampling its
  // branch stack as a call stack): the kernel part of the recorded chain, then the user part
  // from the branch stack. False when the chain has no user part (perf then resolves it as
  // usual).
  bool resolve_lbr_callchain(const Thread& t, const Sample& s);
  // resolver_branch_history.cpp: thread__resolve_callchain_sample() with
  // callchain_param.branch_callstack, for a sample with a branch stack.
  void resolve_branch_history(const Thread& t, const Sample& s);

  // resolver_unwind.cpp: the DWARF unwinding of the sample's user stack, and one unwound
  // address appended with its inline frames (machine.c unwind_entry()).
  void unwind_user(const Thread& t, const Sample& s);
  const DsoSymbols* user_symbols(const Map& map);
  // Whether perf would have registered its unwinder for these maps by now
  // (Maps::unwind_access, filled in on the way).
  bool unwinder_registered(Maps& maps);

  Machine& machine_;
  SymbolCache& symbols_;
  ResolverOptions options_;
  ResolvedSample result_;
  std::vector<BranchHop> hops_;  // resolve_branch_history()'s, reused
  // A frame kept for stitching: its address (resolved again when stitched: maps move
  // between samples) and its branch.
  struct StitchNode {
    uint64_t ip = 0;
    ChainBranch branch;
  };
  // machine.c struct lbr_stitch, per thread: the previous sample's branch stack (none yet:
  // empty, which stitches nothing), the frame made of each of its branches' sources
  // (prev_lbr_cursor), and the frames stitched so far (lists, in perf's list order).
  struct LbrStitch {
    uint64_t prev_hw_idx = 0;
    std::vector<BranchEntry> prev;
    std::vector<std::optional<StitchNode>> prev_from;
    std::deque<StitchNode> lists;
  };
  std::unordered_map<const Thread*, LbrStitch> lbr_stitch_;
  // machine.c has_stitched_lbr(): whether `b` continues `st`'s previous stack, the frames of
  // the previous stack's older entries then added to st.lists.
  bool has_stitched_lbr(LbrStitch& st, const BranchStack& b);
  const KernelSymbols* kernel_ = nullptr;
  std::unordered_map<const Dso*, DsoEntry> dsos_;
  // The last entry_for() answer (a sample's frames mostly share a few Dsos; the map's nodes
  // stay put).
  const Dso* last_dso_ = nullptr;
  const DsoEntry* last_entry_ = nullptr;
  uint64_t samples_resolved_ = 0;
  std::unordered_map<const Dso*, uint64_t> missing_samples_;
  std::vector<const Dso*> load_order_;
  // KSYMBOL (BPF) dsos get one symbol named after them, at map-relative 0, as
  // machine.c machine__process_ksymbol_register() inserts.
  std::unordered_map<const Dso*, Symbol> own_symbols_;
  // The Dsos of a vmlinux's (or a .ko's) section maps, with their symbols.
  std::unordered_map<const Dso*, const KernelSectionMap*> section_symbols_;
  // The .ko files read (stable addresses), and the modules loaded before the kernel's
  // kallsyms, which load_kernel() gives kallsyms' symbols.
  std::vector<std::unique_ptr<ModuleSymbols>> modules_;
  std::vector<const Dso*> early_modules_;
  bool kernel_start_known_ = false;  // machine->kernel_start computed
  UnwindCfiCache cfi_;
  InlineFrames inlines_;
  std::vector<uint64_t> unwound_;
  std::vector<std::byte> swapped_stack_;  // a byte-swapped file's stack copy, swapped back
  // The symbols of inline frames (srcline.c new_inline_sym()), per inline answer.
  std::unordered_map<const std::vector<InlineRecord>*, std::vector<Symbol>> inline_syms_;
  std::unordered_set<std::string> inline_names_;  // demangled names inline_syms_ point into
  std::vector<size_t> group_ends_;                // unwind_user() scratch
  std::vector<Frame> reordered_;                  // unwind_user() scratch
  // resolver_srcline.cpp.
  struct SrclineKey {
    const Dso* dso;
    uint64_t addr;
    const Symbol* sym;
    bool operator==(const SrclineKey&) const = default;
  };
  struct SrclineKeyHash {
    size_t operator()(const SrclineKey& k) const;
  };
  std::string_view intern_srcline(std::string_view s);
  std::string_view lookup_srcline(const Frame& f, bool chain, bool with_sym,
                                  bool asks_addr2line = false);
  // The file addr2line is run on for `f`'s DSO and the address it is given for `addr` (a
  // map-relative address); false for DSOs perf asks no addr2line about.
  bool addr2line_target(const Frame& f, uint64_t addr, std::string* path, uint64_t* objdump_addr);
  // addr2line's records at `addr` of the frame's DSO (map-relative; null when perf asks
  // addr2line nothing about it).
  const std::vector<InlineRecord>* records_at(const Frame& f, uint64_t addr);
  std::unordered_set<std::string> srclines_;
  // addr2line's answer where the line tables have nothing: "FUNCTION\nFILE:?" when its symbol
  // table has a function there, kept by the file it names; null when it answers nothing.
  std::unordered_map<std::string, std::vector<InlineRecord>> no_line_records_;
  const std::vector<InlineRecord>* no_line_record(const std::string& path, uint64_t addr);
  // What addr2line answers (empty: nothing) and the fallback text (__get_srcline()'s "out").
  struct SrclineAnswer {
    std::string_view answer, fallback;
  };
  std::unordered_map<SrclineKey, SrclineAnswer, SrclineKeyHash> srcline_memo_;
  // srcline.c __get_srcline(): a DSO whose first 123 questions to addr2line got no answer
  // (dso->a2l_fails, from 1 until an answer sets it to 0) is asked nothing more
  // (dso->has_srcline = 0): its later srclines are the fallbacks. perf 6.1 keeps no answer
  // for `--sort srcline` (map__srcline() asks again for every entry it makes), so each
  // question counts, remembered here or not; unsettled: a DSO asked, not yet answered.
  struct A2lState {
    uint32_t fails = 1;
    bool has_srcline = true;
  };
  std::unordered_map<const Dso*, A2lState> a2l_states_;
  size_t unsettled_dsos_ = 0;
};

}  // namespace readperf
