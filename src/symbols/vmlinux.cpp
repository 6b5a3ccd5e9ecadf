#include "readperf/symbols/vmlinux.h"

#include <elf.h>
#include <fmt/format.h>

#include <cstring>
#include <string_view>

#include "elf_file.h"
#include "elf_symbol_walk.h"

namespace readperf {

namespace {

// The maps a vmlinux's symbols are placed in, as dso__process_kernel_symbol() makes them: the
// kernel's own (.text), then one per other section met, found again by name.
class KernelSymbolPlacer {
 public:
  KernelSymbolPlacer(KernelSymbols& out, uint64_t reloc, bool adjust)
      : out_(out), reloc_(reloc), adjust_(adjust) {
    kernel_.track_tree();
  }

  void place(elf_walk::KeptSymbol& k) {
    GElf_Sym& sym = k.sym;
    const GElf_Shdr& sh = k.shdr;
    // "Adjust symbol to map to file offset".
    if (adjust_) sym.st_value -= sh.sh_addr - sh.sh_offset;
    std::string_view section = k.section_name;
    if (section != current_) {
      if (section == ".text") {
        // The kernel map, first based on the kernel MMAP, now maps the .text section.
        if (!out_.text_map) {
          KernelSectionMap m;
          m.name = ".text";
          m.start = sh.sh_addr + reloc_;
          m.end = m.start + sh.sh_size;
          m.pgoff = sh.sh_offset;
          out_.text_map = std::move(m);
        }
        current_.clear();
        current_builder_ = &kernel_;
      } else {
        current_builder_ = &section_builder(section, sym, sh);
        current_ = section;
      }
    }
    // The kernel's names are not demangled (symbol_conf.demangle_kernel is off by default).
    current_builder_->add(sym.st_value, sym.st_size, GELF_ST_BIND(sym.st_info),
                          GELF_ST_TYPE(sym.st_info), k.name);
    ++placed_;
    ++pass_placed_;
  }

  // Each table (.symtab, then .dynsym) is one dso__load_sym_internal() call: it starts in
  // the kernel's own map and ends with the fix-ups, if it placed anything.
  void start_pass() {
    current_.clear();
    current_builder_ = &kernel_;
    pass_placed_ = 0;
  }
  void end_pass() {
    if (pass_placed_ == 0) return;
    // "For misannotated, zeroed, ASM function sizes": the kernel's own symbols only.
    kernel_.fixup_end(false);
    kernel_.fixup_duplicate();
  }

  size_t placed() const { return placed_; }

  void finish() {
    out_.kernel = std::move(kernel_).finish();
    for (size_t i = 0; i < out_.sections.size(); ++i) {
      out_.sections[i].symbols = std::move(section_builders_[i]).finish();
    }
  }

 private:
  SymbolTableBuilder& section_builder(std::string_view section, const GElf_Sym& sym,
                                      const GElf_Shdr& sh) {
    for (size_t i = 0; i < out_.sections.size(); ++i) {
      if (out_.sections[i].name == section) return section_builders_[i];
    }
    KernelSectionMap m;
    m.name = std::string(section);
    if (adjust_) {
      m.start = sh.sh_addr + reloc_;
      m.end = m.start + sh.sh_size;
      m.pgoff = sh.sh_offset;
    } else {
      // An identity map from the first symbol on, its end fixed up to the next map's start.
      m.start = sym.st_value;
      m.identity = true;
    }
    out_.sections.push_back(std::move(m));
    section_builders_.emplace_back();
    return section_builders_.back();
  }

  KernelSymbols& out_;
  uint64_t reloc_;
  bool adjust_;
  SymbolTableBuilder kernel_;
  std::vector<SymbolTableBuilder> section_builders_;  // parallel to out_.sections
  // The section of the map the last symbol went to (perf compares each symbol's section with
  // the suffix of that map's name): "" for the kernel's own map.
  std::string current_;
  SymbolTableBuilder* current_builder_ = &kernel_;
  size_t placed_ = 0;
  size_t pass_placed_ = 0;
};

// The value of `name` in the symbol table, as ref_reloc_sym_not_found()'s scan finds it:
// the first symbol of that name, whatever its type.
std::optional<uint64_t> symbol_value(const ElfFile& f, const std::string& name) {
  GElf_Shdr shdr;
  Elf_Scn* sec = f.symtab(&shdr);
  Elf_Data* data = sec ? elf_getdata(sec, nullptr) : nullptr;
  Elf_Scn* strsec = elf_getscn(f.elf(), shdr.sh_link);
  Elf_Data* strs = strsec ? elf_getdata(strsec, nullptr) : nullptr;
  if (!data || !strs || shdr.sh_entsize == 0) return std::nullopt;
  size_t n = shdr.sh_size / shdr.sh_entsize;
  for (size_t i = 0; i < n; ++i) {
    GElf_Sym sym;
    if (gelf_getsym(data, static_cast<int>(i), &sym) == nullptr) break;
    const char* s = elf_walk::string_at(strs, sym.st_name);
    if (s && name == s) return sym.st_value;
  }
  return std::nullopt;
}

}  // namespace

Result<KernelSymbols> load_vmlinux(const std::string& name, const BuildId& build_id,
                                   const std::optional<RefRelocSym>& ref,
                                   const SymbolConfig& config) {
  // symbol.c dso__load_vmlinux(): a relative name is under the symfs.
  std::string file = name;
  if (name.empty() || name[0] != '/') {
    const std::string& symfs = config.symfs;
    file = symfs.empty() ? name : symfs + (symfs.back() == '/' ? "" : "/") + name;
  }
  ASSIGN_OR_RETURN(ElfFile elf, ElfFile::open(file));
  // symsrc__init(): "Always reject images with a mismatched build-id".
  if (!build_id.empty()) {
    Result<BuildId> own = elf.build_id();
    if (!own) return make_error(fmt::format("{}: cannot read its build-id", file));
    if (!build_id.matches(*own)) {
      return make_error(
          fmt::format("{}: build-id {} is not the recorded {}", file, own->hex(), build_id.hex()));
    }
  }
  if (!elf.has_symtab()) return make_error(fmt::format("{}: no .symtab (stripped)", file));

  KernelSymbols k;
  k.from_vmlinux = true;
  k.path = name;
  k.file = file;
  k.build_id = build_id;
  // "The kernel relocation symbol is needed in advance in order to adjust kernel maps".
  if (ref && !ref->name.empty() && ref->addr != 0) {
    if (std::optional<uint64_t> v = symbol_value(elf, ref->name)) k.reloc = ref->addr - *v;
  }
  // elf__needs_adjust_symbols() (ET_EXEC, ET_REL, ET_DYN: every vmlinux), or a relocation.
  uint16_t type = elf.ehdr().e_type;
  bool adjust = type == ET_EXEC || type == ET_REL || type == ET_DYN || k.reloc != 0;
  k.adjust_symbols = adjust;

  KernelSymbolPlacer placer(k, k.reloc, adjust);
  auto place = [&](elf_walk::KeptSymbol& s) { placer.place(s); };
  for (bool dynsym : {false, true}) {
    if (dynsym && !elf.has_dynsym()) break;
    placer.start_pass();
    RETURN_IF_ERROR(elf_walk::for_each_kept_symbol(elf, elf, dynsym, place));
    placer.end_pass();
  }
  if (placer.placed() == 0) return make_error(fmt::format("{}: no symbols", file));
  placer.finish();
  return k;
}

std::vector<std::string> vmlinux_search_path(const SymbolConfig& config) {
  std::vector<std::string> out = {"vmlinux", "/boot/vmlinux"};
  // "only try kernel version if no symfs was given"
  if (!config.symfs.empty() || config.recorded_os_release.empty()) return out;
  const std::string& rel = config.recorded_os_release;
  out.push_back("/boot/vmlinux-" + rel);
  out.push_back("/usr/lib/debug/boot/vmlinux-" + rel);
  out.push_back("/lib/modules/" + rel + "/build/vmlinux");
  out.push_back("/usr/lib/debug/lib/modules/" + rel + "/vmlinux");
  out.push_back("/usr/lib/debug/boot/vmlinux-" + rel + ".debug");
  return out;
}

}  // namespace readperf
