// The source file addr2line names for an address the DWARF line tables say nothing of: the
// STT_FILE symbol before the symbol-table function holding it, as binutils 2.40
// _bfd_elf_find_function() picks that function (better_fit()) and its file. perf 6.1 prints
// it as "FILE:0" (srcline.c filename_split() of addr2line's "FILE:?"): "libc-start.o:0" for
// __libc_start_call_main in a static binary.
//
//   SymtabSourceFiles files(elf);
//   std::string_view file;
//   if (files.find(vaddr, &file)) ...   // a function; `file` "??" without an STT_FILE
#pragma once

#include <libelf.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace readperf {

class SymtabSourceFiles {
 public:
  // Reads .symtab, or .dynsym when there is none (addr2line's slurp_symtab()).
  explicit SymtabSourceFiles(Elf* elf);

  // Whether addr2line's symbol lookup finds a function for `vaddr`: the nearest symbol at or
  // before it in its section, covering it or not (better_fit() takes the closest start). Sets
  // `file` to that function's STT_FILE name (which may be empty: addr2line then prints
  // ":?"), or "??" without one, and `function` (when
  // given) to the function's name: the symbol addr2line prints, which among aliases of one
  // address is the first in the table, not always the one perf's symbol table keeps.
  bool find(uint64_t vaddr, std::string_view* file, std::string_view* function = nullptr) const;

 private:
  struct Section {
    uint64_t start, end;
    size_t index;
  };
  struct Entry {
    uint64_t value;
    uint64_t size;   // maybe_function_sym(): st_size, or 1 for none
    size_t section;  // st_shndx
    int file;        // index in files_, -1 for none
    bool is_file;    // an STT_FILE symbol (only `file` is meaningful)
    bool is_function;
    bool is_local;
    bool is_notype;
    uint32_t name;  // st_name
  };
  Elf* elf_ = nullptr;
  size_t strtab_ = 0;  // the symbol table's sh_link
  std::vector<Section> sections_;
  std::vector<Entry> symbols_;  // in symbol-table order
  std::vector<std::string> files_;
};

}  // namespace readperf
