// `--sort srcline`: perf's map__srcline() (util/map.c) and __get_srcline() (util/srcline.c),
// answered from the DWARF line tables in-process where perf 6.1 asks `addr2line`.
#include <elf.h>
#include <fmt/format.h>

#include "readperf/analysis/resolver.h"

namespace readperf {

namespace {

// srcline.c A2L_FAIL_LIMIT: "Number of addr2line failures (without success) before disabling
// it for that dso."
constexpr uint32_t kA2lFailLimit = 123;

}  // namespace

size_t Resolver::SrclineKeyHash::operator()(const SrclineKey& k) const {
  uint64_t h = reinterpret_cast<uintptr_t>(k.dso) * 0x9e3779b97f4a7c15ull;
  h ^= k.addr + 0x7f4a7c159e3779b9ull + (h << 6) + (h >> 2);
  h ^= reinterpret_cast<uintptr_t>(k.sym) * 0xbf58476d1ce4e5b9ull;
  return static_cast<size_t>(h ^ (h >> 31));
}

std::string_view Resolver::intern_srcline(std::string_view s) {
  return *srclines_.emplace(s).first;
}

std::string_view Resolver::script_srcline(const Frame& f) {
  // evsel_fprintf.c: the cursor node's srcline, else map__fprintf_srcline(), which asks
  // map__srcline() without a symbol and prints nothing for "??:0".
  if (!f.srcline.empty()) return f.srcline;
  if (!f.map || !f.dso) return {};
  std::string_view s = lookup_srcline(f, false, false);
  if (s.starts_with("??:0")) return {};
  return s;
}

std::string_view Resolver::callchain_srcline(const Frame& f, bool show_addr) {
  // An unwound frame carries its addr2line record's srcline (machine.c append_inlines()).
  if (!f.srcline.empty()) return intern_srcline(f.srcline);
  if (!f.map || !f.dso) return {};
  // get_srcline(dso, map__rip_2objdump(map, al.addr), sym, show_sym=false, show_addr, al.addr)
  // (srcline.c __get_srcline()).
  std::string path;
  uint64_t objdump_addr = f.addr;
  if (addr2line_target(f, f.addr, &path, &objdump_addr)) {
    const std::vector<InlineRecord>* recs = records_at(f, f.addr);
    if (recs && !recs->empty()) return intern_srcline(recs->front().srcline);
    if (!(f.sym && f.sym->name.ends_with("@plt"))) {
      if (const std::vector<InlineRecord>* none = no_line_record(path, objdump_addr)) {
        return intern_srcline(none->front().srcline);
      }
    }
  }
  if (!show_addr) return {};
  if (f.sym) return intern_srcline(fmt::format("+{}", f.addr - f.sym->start));
  return intern_srcline(fmt::format("{}[{:x}]", f.dso->short_name, objdump_addr));
}

std::string_view Resolver::srcline(const Frame& f, bool chain, bool asks_addr2line) {
  // An unwound frame carries its addr2line record's srcline (append_inlines() gives it to the
  // cursor node, fill_callchain_info() to the entry).
  if (!f.srcline.empty()) return intern_srcline(f.srcline);
  return lookup_srcline(f, chain, true, asks_addr2line);
}

std::string_view Resolver::srcfile(const Frame& f, bool chain) {
  if (!f.map || !f.dso) return {};
  // The fallbacks ("+OFFSET", "DSO[ADDR]") have no ':', so they give no file.
  std::string_view s = lookup_srcline(f, chain, false);
  size_t colon = s.find(':');
  if (colon == std::string_view::npos || colon == 0) return {};
  // addr2line's "??" (the function known, its line not) is no file for perf's srcfile either.
  std::string_view file = s.substr(0, colon);
  if (file == "??") return {};
  return intern_srcline(file);
}

bool Resolver::addr2line_target(const Frame& f, uint64_t addr, std::string* path,
                                uint64_t* objdump_addr) {
  *objdump_addr = addr;
  if (!f.map || !f.dso) return false;
  if (f.dso->space != DsoSpace::kUser) {
    // The kernel read from a vmlinux: addr2line reads it under the name perf keeps
    // (dso->long_name: -k's as given, unjoined to the symfs) at map__rip_2objdump(), the
    // unrelocated address. The other sections' maps and a kallsyms kernel are "[...]" names.
    const Map* vm = machine_.vmlinux_map();
    if (!kernel_ || !kernel_->from_vmlinux || !vm || vm->dso != f.dso) return false;
    *path = kernel_->path;
    if (path->empty() || (*path)[0] == '[') return false;
    if (kernel_->adjust_symbols) *objdump_addr = vm->unmap_ip(addr) - kernel_->reloc;
    return true;
  }
  // srcline.c dso__name(): the symbol source file, never a "[...]" name.
  const DsoSymbols* ds = f.dso->space == DsoSpace::kUser ? user_symbols(*f.map) : nullptr;
  if (!ds) return false;
  *path = ds->symtab_path.empty() ? f.dso->long_name : ds->symtab_path;
  if (path->empty() || (*path)[0] == '[' || path->compare(0, 10, "/tmp/perf-") == 0) return false;
  // map__rip_2objdump(): executables' addresses are their ELF virtual addresses.
  const CfiFile* rt = ds->runtime_path.empty() ? nullptr : cfi_.get(ds->runtime_path);
  if (rt && rt->elf_type() != ET_DYN) *objdump_addr = rt->offset_to_vaddr(addr);
  return true;
}

bool Resolver::srcline_split(const Frame& f, std::string* file, uint32_t* line) {
  // srcline.c get_srcline_split(): addr2line's first record, its whole file name.
  std::string path;
  uint64_t objdump_addr = 0;
  if (!addr2line_target(f, f.addr, &path, &objdump_addr)) return false;
  const std::vector<InlineRecord>& recs = inlines_.lookup(path, objdump_addr, nullptr);
  if (!recs.empty()) {
    *file = recs.front().file;
    *line = recs.front().line;
    return true;
  }
  // addr2line names a function of the symbol table without a line: "FILE:?" ("??:?" without
  // an STT_FILE), which perf takes as FILE and line 0. Its "??:0" (no function either) is no
  // answer (srcline.c filename_split()).
  const std::vector<InlineRecord>* no_line = no_line_record(path, objdump_addr);
  if (!no_line) return false;
  *file = no_line->front().file;
  *line = 0;
  return true;
}

std::string_view Resolver::lookup_srcline(const Frame& f, bool chain, bool with_sym,
                                          bool asks_addr2line) {
  // map__srcline(): "??:0" without a map.
  if (!f.map || !f.dso) return intern_srcline("??:0");
  // he->ip: the sample's own entry has the map-relative address (al->addr), a call-chain
  // entry the recorded one (fill_callchain_info() sets al->addr = node->ip).
  const uint64_t addr = chain ? f.ip : f.addr;
  SrclineKey key{f.dso, addr, with_sym ? f.sym : nullptr};
  auto it = srcline_memo_.find(key);
  if (it == srcline_memo_.end()) {
    uint64_t objdump_addr = addr;
    std::string path;  // the file addr2line reads
    const std::vector<InlineRecord>* recs = nullptr;
    if (addr2line_target(f, addr, &path, &objdump_addr)) recs = records_at(f, addr);
    SrclineAnswer a;
    const std::vector<InlineRecord>* no_line = nullptr;
    if (recs && !recs->empty()) {
      a.answer = intern_srcline(recs->front().srcline);
    } else if (!chain && recs && !(f.sym && f.sym->name.ends_with("@plt")) &&
               (no_line = no_line_record(path, objdump_addr))) {
      // addr2line names the symbol table's function without a line: "FILE:0"
      // (filename_split() of "FILE:?"), "??:0" without an STT_FILE. It names one where perf
      // has no symbol too: the nearest before the address.
      a.answer = intern_srcline(no_line->front().srcline);
    }
    if (f.sym && with_sym) {
      // __get_srcline() without an answer: "%s+%lu" of the symbol and the offset from it.
      a.fallback = intern_srcline(fmt::format("{}+{}", f.sym->name, addr - f.sym->start));
    } else {
      a.fallback = intern_srcline(fmt::format("{}[{:x}]", f.dso->short_name, objdump_addr));
    }
    it = srcline_memo_.emplace(key, a).first;
  }
  const SrclineAnswer& a = it->second;
  if (!asks_addr2line) return a.answer.empty() ? a.fallback : a.answer;
  auto [state, first] = a2l_states_.try_emplace(f.dso);
  A2lState& st = state->second;
  if (first) ++unsettled_dsos_;
  if (!st.has_srcline) return a.fallback;
  if (!a.answer.empty()) {
    if (st.fails) --unsettled_dsos_;
    st.fails = 0;
    return a.answer;
  }
  if (st.fails && ++st.fails > kA2lFailLimit) {
    st.has_srcline = false;
    --unsettled_dsos_;
  }
  return a.fallback;
}

const std::vector<InlineRecord>* Resolver::records_at(const Frame& f, uint64_t addr) {
  std::string path;
  uint64_t objdump_addr = 0;
  if (!addr2line_target(f, addr, &path, &objdump_addr)) return nullptr;
  std::optional<EnclosingSymbol> enclosing;
  if (f.sym) enclosing = EnclosingSymbol{f.sym->name, objdump_addr - (f.addr - f.sym->start)};
  return &inlines_.lookup(path, objdump_addr, enclosing ? &*enclosing : nullptr);
}

const InlineRecord* Resolver::line_record(const Frame& f) {
  if (f.record) return f.record;
  const std::vector<InlineRecord>* recs = records_at(f, f.addr);
  return recs && !recs->empty() ? &recs->front() : nullptr;
}

const std::vector<InlineRecord>* Resolver::no_line_record(const std::string& path, uint64_t addr) {
  std::string file, function;
  if (!inlines_.symbol_source_file(path, addr, &file, &function)) return nullptr;
  // The record names the function addr2line prints: among aliases of one address the first
  // in the symbol table (`fork` where perf's symbol is `__libc_fork`), which append_inlines()
  // then shows as an inline frame of perf's symbol (srcline.c new_inline_sym()).
  auto [it, inserted] = no_line_records_.try_emplace(file + '\0' + function);
  if (inserted) {
    it->second.push_back(InlineRecord{function, file, 0,
                                      srcline_from_fileline(file, 0, inlines_.full_source_path())});
  }
  return &it->second;
}

}  // namespace readperf
