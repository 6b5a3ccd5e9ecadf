// One ELF file opened through libelf (mmap'ed, read-only), with the few look-ups the symbol
// loader needs. Private to the symbols layer: nothing above it sees libelf.
#pragma once

#include <gelf.h>
#include <libelf.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "readperf/format/error.h"
#include "readperf/symbols/build_id.h"

namespace readperf {

class ElfFile {
 public:
  // Fails on a missing file or one that is not ELF.
  static Result<ElfFile> open(const std::string& path);
  // An ELF image held in memory (a decompressed .gnu_debugdata); `name` is for messages.
  static Result<ElfFile> from_memory(const std::string& name, std::vector<char> image);
  ElfFile(ElfFile&& o) noexcept;
  ElfFile& operator=(ElfFile&& o) noexcept;
  ElfFile(const ElfFile&) = delete;
  ElfFile& operator=(const ElfFile&) = delete;
  ~ElfFile();

  Elf* elf() const { return elf_; }
  const GElf_Ehdr& ehdr() const { return ehdr_; }
  const std::string& path() const { return path_; }

  // symbol-elf.c elf_section_by_name(): the first section of that name, its header and index.
  Elf_Scn* section(const char* name, GElf_Shdr* shdr, size_t* index = nullptr) const;
  // The section name of a header of this file ("" when out of range).
  const char* section_name(const GElf_Shdr& shdr) const;

  Result<BuildId> build_id() const;
  // The file name stored in .gnu_debuglink, if any.
  std::optional<std::string> debuglink() const;

  // What symsrc__init() notes: a real .symtab, a real .dynsym (and its index).
  bool has_symtab() const { return symtab_ != nullptr; }
  bool has_dynsym() const { return dynsym_ != nullptr; }
  Elf_Scn* symtab(GElf_Shdr* shdr) const {
    *shdr = symshdr_;
    return symtab_;
  }
  Elf_Scn* dynsym(GElf_Shdr* shdr) const {
    *shdr = dynshdr_;
    return dynsym_;
  }
  size_t dynsym_index() const { return dynsym_idx_; }

 private:
  ElfFile() = default;
  // Reads the header and notes the symbol tables, once elf_ is set.
  Status init();
  void reset();
  std::string path_;
  int fd_ = -1;
  std::unique_ptr<std::vector<char>> image_;  // from_memory()'s bytes, which elf_ reads
  Elf* elf_ = nullptr;
  GElf_Ehdr ehdr_{};
  Elf_Scn* symtab_ = nullptr;
  GElf_Shdr symshdr_{};
  Elf_Scn* dynsym_ = nullptr;
  GElf_Shdr dynshdr_{};
  size_t dynsym_idx_ = 0;
};

}  // namespace readperf
