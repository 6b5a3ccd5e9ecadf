#include "symtab_source_files.h"

#include <gelf.h>

namespace readperf {

namespace {

Elf_Scn* symbol_section(Elf* elf, GElf_Shdr* shdr) {
  for (GElf_Word type : {GElf_Word{SHT_SYMTAB}, GElf_Word{SHT_DYNSYM}}) {
    for (Elf_Scn* scn = elf_nextscn(elf, nullptr); scn; scn = elf_nextscn(elf, scn)) {
      if (gelf_getshdr(scn, shdr) && shdr->sh_type == type && shdr->sh_entsize != 0 &&
          shdr->sh_size / shdr->sh_entsize > 1) {
        return scn;
      }
    }
  }
  return nullptr;
}

}  // namespace

SymtabSourceFiles::SymtabSourceFiles(Elf* elf) {
  if (!elf) return;
  size_t nsections = 0;
  if (elf_getshdrnum(elf, &nsections) != 0) return;
  for (Elf_Scn* scn = elf_nextscn(elf, nullptr); scn; scn = elf_nextscn(elf, scn)) {
    GElf_Shdr shdr;
    if (gelf_getshdr(scn, &shdr) && (shdr.sh_flags & SHF_ALLOC) && shdr.sh_size) {
      sections_.push_back({shdr.sh_addr, shdr.sh_addr + shdr.sh_size, elf_ndxscn(scn)});
    }
  }
  GElf_Shdr shdr;
  Elf_Scn* scn = symbol_section(elf, &shdr);
  Elf_Data* data = scn ? elf_getdata(scn, nullptr) : nullptr;
  if (!data) return;
  elf_ = elf;
  strtab_ = shdr.sh_link;
  const size_t count = shdr.sh_size / shdr.sh_entsize;
  int file = -1;
  for (size_t i = 1; i < count; ++i) {  // bfd leaves out the null symbol
    GElf_Sym sym;
    if (!gelf_getsym(data, static_cast<int>(i), &sym)) break;
    const int type = GELF_ST_TYPE(sym.st_info);
    Entry e{};
    if (type == STT_FILE) {
      const char* name = elf_strptr(elf, shdr.sh_link, sym.st_name);
      files_.emplace_back(name ? name : "");
      file = static_cast<int>(files_.size()) - 1;
      e.is_file = true;
      e.file = file;
      symbols_.push_back(e);
      continue;
    }
    e.name = static_cast<uint32_t>(sym.st_name);
    e.value = sym.st_value;
    e.size = sym.st_size;
    e.section = sym.st_shndx;
    e.file = file;
    e.is_local = GELF_ST_BIND(sym.st_info) == STB_LOCAL;
    e.is_notype = type == STT_NOTYPE;
    e.is_function = type == STT_FUNC || type == STT_GNU_IFUNC;
    // _bfd_elf_maybe_function_sym(): no section, object or TLS symbols; no hidden local
    // zero-size untyped ones (annobin markers); a zero size counts as 1.
    bool candidate = type != STT_SECTION && type != STT_OBJECT && type != STT_TLS &&
                     type != STT_COMMON && sym.st_shndx != SHN_UNDEF &&
                     sym.st_shndx < SHN_LORESERVE;
    if (candidate && e.size == 0 && e.is_local && e.is_notype &&
        GELF_ST_VISIBILITY(sym.st_other) == STV_HIDDEN) {
      candidate = false;
    }
    if (!candidate) e.section = SIZE_MAX;  // still a symbol for the file-state machine
    if (e.size == 0) e.size = 1;
    symbols_.push_back(e);
  }
}

bool SymtabSourceFiles::find(uint64_t vaddr, std::string_view* file_name,
                             std::string_view* function) const {
  *file_name = "??";
  if (function) *function = {};
  const Section* sec = nullptr;
  for (const Section& s : sections_) {
    if (vaddr >= s.start && vaddr < s.end) {
      sec = &s;
      break;
    }
  }
  if (!sec) return false;
  // _bfd_elf_find_function() over the table in order, with better_fit().
  enum { kNothingSeen, kSymbolSeen, kFileAfterSymbolSeen } state = kNothingSeen;
  const Entry* best = nullptr;
  uint64_t best_off = 0, best_size = 0;
  int best_file = -1;
  int file = -1;
  for (const Entry& e : symbols_) {
    if (e.is_file) {
      file = e.file;
      if (state == kSymbolSeen) state = kFileAfterSymbolSeen;
      continue;
    }
    if (state == kNothingSeen) state = kSymbolSeen;
    if (e.section != sec->index) continue;
    const uint64_t off = e.value, size = e.size;
    bool better;
    if (off > vaddr || off < best_off) {
      better = false;
    } else if (off > best_off) {
      better = true;
    } else if (best_off + best_size <= vaddr) {
      better = size > best_size;
    } else if (off + size <= vaddr) {
      better = false;
    } else if (best->is_function != e.is_function) {
      better = e.is_function;  // functions over other symbols
    } else if (best->is_notype != e.is_notype) {
      better = best->is_notype;  // typed over untyped
    } else {
      better = size < best_size;
    }
    if (!better) continue;
    best = &e;
    best_off = off;
    best_size = size;
    best_file = (file >= 0 && (e.is_local || state != kFileAfterSymbolSeen)) ? file : -1;
  }
  if (!best) return false;
  if (best_file >= 0) *file_name = files_[static_cast<size_t>(best_file)];
  if (function) {
    const char* name = elf_strptr(elf_, strtab_, best->name);
    if (name) *function = name;
  }
  return true;
}

}  // namespace readperf
