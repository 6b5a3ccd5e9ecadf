#include "readperf/symbols/vmlinux.h"

#include <elf.h>
#include <fmt/format.h>

#include <cstring>
#include <string_view>

#include "elf_file.h"
#include "elf_symbol_walk.h"
#include "kernel_elf_symbols.h"
#include "readperf/symbols/dso_loader.h"

namespace readperf {

namespace {

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
  std::string file = name.empty() || name[0] != '/' ? join_symfs(config.symfs, name) : name;
  ASSIGN_OR_RETURN(ElfFile elf, ElfFile::open(file));
  RETURN_IF_ERROR(check_recorded_build_id(elf, build_id));
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

  ASSIGN_OR_RETURN(KernelElfSymbols placed, place_kernel_symbols(elf, k.reloc, adjust));
  k.kernel = std::move(placed.symbols);
  k.text_map = std::move(placed.text);
  k.sections = std::move(placed.sections);
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
