#include "kernel_elf_symbols.h"

#include <elf.h>
#include <fmt/format.h>

#include <string>
#include <string_view>
#include <vector>

#include "elf_symbol_walk.h"

namespace readperf {

namespace {

// The maps a kernel ELF file's symbols are placed in, as dso__process_kernel_symbol() makes
// them: the DSO's own (.text), then one per other section met, found again by name.
class KernelSymbolPlacer {
 public:
  KernelSymbolPlacer(KernelElfSymbols& out, uint64_t reloc, bool adjust)
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
        // The kernel map, first based on the kernel MMAP, now maps the .text section (a
        // module's map takes its file offset only).
        if (!out_.text) {
          KernelSectionMap m;
          m.name = ".text";
          m.start = sh.sh_addr + reloc_;
          m.end = m.start + sh.sh_size;
          m.pgoff = sh.sh_offset;
          out_.text = std::move(m);
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

  // symbols__insert() into the DSO's own table, after its passes.
  void add_late(const Symbol& s) {
    kernel_.add(s.start, s.end - s.start, s.binding, s.type, s.name);
  }

  void finish() {
    out_.symbols = std::move(kernel_).finish();
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

  KernelElfSymbols& out_;
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

}  // namespace

Status check_recorded_build_id(const ElfFile& elf, const BuildId& recorded) {
  if (recorded.empty()) return {};
  Result<BuildId> own = elf.build_id();
  if (!own) return make_error(fmt::format("{}: cannot read its build-id", elf.path()));
  if (!recorded.matches(*own)) {
    return make_error(fmt::format("{}: build-id {} is not the recorded {}", elf.path(), own->hex(),
                                  recorded.hex()));
  }
  return {};
}

Result<KernelElfSymbols> place_kernel_symbols(const ElfFile& elf, uint64_t reloc, bool adjust,
                                              std::span<const Symbol> late) {
  KernelElfSymbols out;
  KernelSymbolPlacer placer(out, reloc, adjust);
  auto place = [&](elf_walk::KeptSymbol& s) { placer.place(s); };
  // dso__load_sym(): .symtab, then .dynsym, each one dso__load_sym_internal() pass.
  for (bool dynsym : {false, true}) {
    if (dynsym && !elf.has_dynsym()) break;
    placer.start_pass();
    RETURN_IF_ERROR(elf_walk::for_each_kept_symbol(elf, elf, dynsym, place));
    placer.end_pass();
  }
  if (placer.placed() == 0) return make_error(fmt::format("{}: no symbols", elf.path()));
  for (const Symbol& s : late) placer.add_late(s);
  placer.finish();
  return out;
}

}  // namespace readperf
