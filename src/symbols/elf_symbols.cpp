#include "readperf/symbols/elf_symbols.h"

#include <elf.h>
#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include "elf_symbol_walk.h"
#include "elf_symbols_impl.h"
#include "readperf/symbols/demangle.h"

namespace readperf {

namespace {

std::vector<GElf_Phdr> load_segments(Elf* elf) {
  std::vector<GElf_Phdr> out;
  size_t n = 0;
  if (elf_getphdrnum(elf, &n) != 0) return out;
  for (size_t i = 0; i < n; ++i) {
    GElf_Phdr ph;
    if (gelf_getphdr(elf, static_cast<int>(i), &ph) == nullptr) break;
    if (ph.p_type == PT_LOAD && std::max(ph.p_memsz, ph.p_filesz) != 0) out.push_back(ph);
  }
  return out;
}

class ElfSymbolLoader {
 public:
  ElfSymbolLoader(const ElfFile& syms, const ElfFile& runtime, const ElfLoadOptions& options)
      : syms_(syms), runtime_(runtime), options_(options), segments_(load_segments(runtime.elf())) {
    // perf's dso->symbols rb-tree decides lookups among overlapping symbols.
    builder_.track_tree();
  }

  // One dso__load_sym_internal() pass over .symtab or .dynsym: the number of symbols added,
  // or an error (perf then keeps what it added but skips the fix-ups and the PLT).
  // `from` is the file whose table is read: syms_, or the runtime file for the .dynsym pass
  // after a MiniDebugInfo .symtab.
  Result<size_t> load_pass(const ElfFile& from, bool dynsym);
  // dso__synthesize_plt_symbols(): "name@plt" for each .rela.plt/.rel.plt entry.
  void synthesize_plt();

  SymbolTableBuilder& builder() { return builder_; }

 private:
  void add(uint64_t start, uint64_t size, uint8_t bind, uint8_t type, const char* name);

  const ElfFile& syms_;
  const ElfFile& runtime_;
  const ElfLoadOptions& options_;
  std::vector<GElf_Phdr> segments_;
  SymbolTableBuilder builder_;
};

void ElfSymbolLoader::add(uint64_t start, uint64_t size, uint8_t bind, uint8_t type,
                          const char* name) {
  if (options_.demangle) {
    if (std::optional<std::string> d = demangle_symbol(name, options_.demangle_params)) {
      builder_.add(start, size, bind, type, *d);
      return;
    }
  }
  builder_.add(start, size, bind, type, name);
}

Result<size_t> ElfSymbolLoader::load_pass(const ElfFile& from, bool dynsym) {
  size_t nr = 0;
  RETURN_IF_ERROR(
      elf_walk::for_each_kept_symbol(from, runtime_, dynsym, [&](elf_walk::KeptSymbol& k) {
        const GElf_Sym& sym = k.sym;
        const GElf_Shdr& sh = k.shdr;
        const char* name = k.name;
        // User-space symbols always move from link-time addresses to file offsets (symsrc__init
        // sets adjust_symbols for every user DSO): through the segment holding them, else
        // through their section.
        uint64_t v = sym.st_value;
        auto seg = std::find_if(segments_.begin(), segments_.end(), [v](const GElf_Phdr& ph) {
          return v >= ph.p_vaddr && v < ph.p_vaddr + std::max(ph.p_memsz, ph.p_filesz);
        });
        if (seg != segments_.end()) {
          v -= seg->p_vaddr - seg->p_offset;
        } else {
          v -= sh.sh_addr - sh.sh_offset;
        }
        add(v, sym.st_size, GELF_ST_BIND(sym.st_info), GELF_ST_TYPE(sym.st_info), name);
        ++nr;
      }));
  if (nr > 0) {
    // "For misannotated, zeroed, ASM function sizes."
    builder_.fixup_end(false);
    builder_.fixup_duplicate();
  }
  return nr;
}

void ElfSymbolLoader::synthesize_plt() {
  GElf_Shdr dynshdr;
  Elf_Scn* dynsec = runtime_.dynsym(&dynshdr);
  if (!dynsec) return;
  GElf_Shdr relshdr, pltshdr;
  Elf_Scn* relsec = runtime_.section(".rela.plt", &relshdr);
  if (!relsec) relsec = runtime_.section(".rel.plt", &relshdr);
  if (!relsec || relshdr.sh_link != runtime_.dynsym_index()) return;
  if (!runtime_.section(".plt", &pltshdr)) return;
  Elf_Data* reldata = elf_getdata(relsec, nullptr);
  Elf_Data* syms = elf_getdata(dynsec, nullptr);
  Elf_Scn* strsec = elf_getscn(runtime_.elf(), dynshdr.sh_link);
  Elf_Data* strs = strsec ? elf_getdata(strsec, nullptr) : nullptr;
  if (!reldata || !syms || !strs || strs->d_size == 0 || relshdr.sh_entsize == 0) return;

  // perf 6.1 names the .plt entries (not .plt.sec), at .plt's file offset, one per relocation
  // after the header; only a few machines have known sizes, the rest use sh_entsize.
  uint64_t header = pltshdr.sh_entsize, entry = pltshdr.sh_entsize;
  switch (runtime_.ehdr().e_machine) {
    case EM_ARM:
      header = 20, entry = 12;
      break;
    case EM_AARCH64:
      header = 32, entry = 16;
      break;
    case EM_SPARC:
      header = 48, entry = 12;
      break;
    case EM_SPARCV9:
      header = 128, entry = 32;
      break;
    default:
      break;
  }
  uint64_t offset = pltshdr.sh_offset + header;
  size_t nr = relshdr.sh_size / relshdr.sh_entsize;
  bool rela = relshdr.sh_type == SHT_RELA;
  if (!rela && relshdr.sh_type != SHT_REL) return;
  std::string name;
  for (size_t i = 0; i < nr; ++i) {
    uint64_t info;
    if (rela) {
      GElf_Rela r;
      if (!gelf_getrela(reldata, static_cast<int>(i), &r)) break;
      info = r.r_info;
    } else {
      GElf_Rel r;
      if (!gelf_getrel(reldata, static_cast<int>(i), &r)) break;
      info = r.r_info;
    }
    GElf_Sym sym{};
    gelf_getsym(syms, static_cast<int>(GELF_R_SYM(info)), &sym);
    const char* s = elf_walk::string_at(strs, sym.st_name);
    name.clear();
    std::optional<std::string> d;
    if (s && options_.demangle) d = demangle_symbol(s, options_.demangle_params);
    name.append(d ? *d : std::string(s ? s : ""));
    name.append("@plt");
    builder_.add(offset, entry, STB_GLOBAL, STT_FUNC, name);
    offset += entry;
  }
}

}  // namespace

Result<SymbolTable> load_elf_symbols(const ElfFile& syms, const ElfFile& runtime,
                                     const ElfLoadOptions& options, const ElfFile* dynsym_from) {
  ElfSymbolLoader loader(syms, runtime, options);
  size_t nr = 0;
  bool failed = false;
  // dso__load_sym(): .symtab, then .dynsym too; a file with neither is read through .dynsym
  // of the runtime file by the caller picking it as `syms`.
  if (syms.has_symtab()) {
    Result<size_t> n = loader.load_pass(syms, false);
    if (n)
      nr += *n;
    else
      failed = true;
  }
  const ElfFile& dyn = dynsym_from ? *dynsym_from : syms;
  if (!failed && dyn.has_dynsym()) {
    Result<size_t> n = loader.load_pass(dyn, true);
    if (n)
      nr += *n;
    else
      failed = true;
  }
  if (!failed && nr > 0) loader.synthesize_plt();
  return std::move(loader.builder()).finish();
}

Result<SymbolTable> load_elf_symbols(const std::string& syms_path, const std::string& runtime_path,
                                     const ElfLoadOptions& options) {
  ASSIGN_OR_RETURN(ElfFile syms, ElfFile::open(syms_path));
  if (runtime_path.empty() || runtime_path == syms_path) {
    return load_elf_symbols(syms, syms, options);
  }
  ASSIGN_OR_RETURN(ElfFile runtime, ElfFile::open(runtime_path));
  return load_elf_symbols(syms, runtime, options);
}

}  // namespace readperf
