// The walk over an ELF symbol table that perf's dso__load_sym_internal() (symbol-elf.c) makes
// before it places a symbol: which symbols it keeps and the section header each is placed by.
// Shared by the user-space loader (elf_symbols.cpp) and the kernel's (kernel_elf_symbols.cpp,
// for a vmlinux and a module's .ko), which differ only in where they put what the walk hands
// them.
#pragma once

#include <elf.h>
#include <fmt/format.h>
#include <gelf.h>

#include <cstring>

#include "elf_file.h"
#include "readperf/format/error.h"

namespace readperf::elf_walk {

#ifndef STT_GNU_IFUNC
#define STT_GNU_IFUNC 10
#endif

// symbol-elf.c elf_sym__is_function / elf_sym__is_object / elf_sym__is_label.
inline bool is_function(const GElf_Sym& s) {
  uint8_t t = GELF_ST_TYPE(s.st_info);
  return (t == STT_FUNC || t == STT_GNU_IFUNC) && s.st_name != 0 && s.st_shndx != SHN_UNDEF;
}

inline bool is_object(const GElf_Sym& s) {
  return GELF_ST_TYPE(s.st_info) == STT_OBJECT && s.st_name != 0 && s.st_shndx != SHN_UNDEF;
}

inline bool is_label(const GElf_Sym& s) {
  uint8_t vis = GELF_ST_VISIBILITY(s.st_other);
  return GELF_ST_TYPE(s.st_info) == STT_NOTYPE && s.st_name != 0 && s.st_shndx != SHN_UNDEF &&
         s.st_shndx != SHN_ABS && vis != STV_HIDDEN && vis != STV_INTERNAL;
}

// The string at `off` of a string table's data, or null when out of bounds.
inline const char* string_at(const Elf_Data* strs, size_t off) {
  if (!strs || !strs->d_buf || off >= strs->d_size) return nullptr;
  const char* s = static_cast<const char*>(strs->d_buf) + off;
  // A table must end with a NUL; refuse a name that runs off its end.
  if (!std::memchr(s, '\0', strs->d_size - off)) return nullptr;
  return s;
}

struct KeptSymbol {
  GElf_Sym sym;      // st_value with a Thumb function's flag bit cleared
  const char* name;  // in the string table's data
  GElf_Shdr shdr;    // its section's header (the runtime file's, for a NOBITS one)
  const char* section_name;
};

// Calls f(KeptSymbol&) for each symbol of `from`'s .symtab (or .dynsym) that perf keeps:
// functions, objects, and labels in text and data sections, in loaded sections, ARM mapping
// symbols and SHN_ABS ones left out. `runtime` gives the headers of the sections a debug file
// leaves NOBITS. Fails, after calling f for the symbols before it, at a symbol naming a
// section that does not exist (perf then stops loading that file).
template <class F>
Status for_each_kept_symbol(const ElfFile& from, const ElfFile& runtime, bool dynsym, F&& f) {
  GElf_Shdr shdr;
  Elf_Scn* sec = dynsym ? from.dynsym(&shdr) : from.symtab(&shdr);
  Elf* elf = from.elf();
  const char* what = dynsym ? ".dynsym" : ".symtab";
  Elf_Data* data = elf_getdata(sec, nullptr);
  Elf_Scn* strsec = elf_getscn(elf, shdr.sh_link);
  Elf_Data* strs = strsec ? elf_getdata(strsec, nullptr) : nullptr;
  if (!data || !strs || shdr.sh_entsize == 0) {
    return make_error(fmt::format("{}: unreadable {}", from.path(), what));
  }
  uint16_t machine = from.ehdr().e_machine;
  size_t nr_syms = shdr.sh_size / shdr.sh_entsize;
  for (size_t idx = 0; idx < nr_syms; ++idx) {
    KeptSymbol k;
    GElf_Sym& sym = k.sym;
    if (gelf_getsym(data, static_cast<int>(idx), &sym) == nullptr) break;
    bool label = is_label(sym);
    if (!label && !is_function(sym) && !is_object(sym)) continue;
    const char* name = string_at(strs, sym.st_name);
    if (!name) continue;
    // ARM "mapping symbols" ($a, $d, $t, $x) mark code and data runs, not functions.
    if ((machine == EM_ARM || machine == EM_AARCH64) && name[0] == '$' && name[1] &&
        std::strchr("adtx", name[1]) && (name[2] == '\0' || name[2] == '.')) {
      continue;
    }
    if (sym.st_shndx == SHN_ABS) continue;
    Elf_Scn* ssec = elf_getscn(elf, sym.st_shndx);
    if (!ssec) {
      return make_error(fmt::format("{}: {} symbol {} names section {}, which does not exist",
                                    from.path(), what, name, sym.st_shndx));
    }
    GElf_Shdr& sh = k.shdr;
    gelf_getshdr(ssec, &sh);
    // Sections that are not loaded (.gnu.warning.*) hold no code.
    if (!(sh.sh_flags & SHF_ALLOC)) continue;
    const ElfFile* sec_owner = &from;
    // A debug file's NOBITS sections have no meaningful sh_offset: take the header of the
    // same section in the binary that ran.
    if (sh.sh_type == SHT_NOBITS) {
      Elf_Scn* rsec = elf_getscn(runtime.elf(), sym.st_shndx);
      if (!rsec) {
        return make_error(fmt::format("{}: section {} of {} missing from {}", from.path(),
                                      sym.st_shndx, name, runtime.path()));
      }
      gelf_getshdr(rsec, &sh);
      sec_owner = &runtime;
    }
    k.section_name = sec_owner->section_name(sh);
    // Labels count only in text and data sections (elf_sec__filter).
    if (label && !std::strstr(k.section_name, "text") && !std::strstr(k.section_name, "data")) {
      continue;
    }
    // Thumb functions have bit 0 set as a flag.
    if (machine == EM_ARM && GELF_ST_TYPE(sym.st_info) == STT_FUNC && (sym.st_value & 1)) {
      --sym.st_value;
    }
    k.name = name;
    f(k);
  }
  return {};
}

}  // namespace readperf::elf_walk
