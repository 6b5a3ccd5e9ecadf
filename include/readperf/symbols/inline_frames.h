// The inline frames at an address, as perf 6.1 gets them from `addr2line -e FILE -i -f`
// (util/srcline.c addr2line() and inline_list__append_record()), read here from the file's
// DWARF with libdw: the function whose code is at the address (innermost inlined one first),
// then each function it was inlined into, up to the real (out-of-line) function.
//
//   InlineFrames inl;
//   for (const InlineRecord& r : inl.lookup("/path/debug", vaddr)) print(r.function);
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace readperf {

struct InlineRecord {
  std::string function;  // "??" when DWARF names none
  std::string file;      // the source file of the line this record stands at
  uint32_t line = 0;
  // srcline.c srcline_from_fileline(): "basename:line", what perf shows for this record
  // ("path:line" with full source paths).
  std::string srcline;
};

// The symbol-table function holding an address, as addr2line's own symbol lookup finds it
// (binutils _bfd_elf_find_function()): its name as perf prints it, and its start (an ELF
// virtual address, as the looked-up address is).
struct EnclosingSymbol {
  std::string_view name;
  uint64_t start = 0;
};

class InlineFrames {
 public:
  InlineFrames();
  ~InlineFrames();
  // srcline.c srcline_full_filename: records' srclines keep the whole path (set before the
  // first lookup).
  void set_full_source_path(bool on) { full_source_path_ = on; }
  // binutils' DEBUGDIR, where addr2line looks for separate debug files (/usr/lib/debug; a
  // test's tree otherwise). Set before the first lookup.
  void set_debug_dir(std::string dir) { debug_dir_ = std::move(dir); }
  bool full_source_path() const { return full_source_path_; }
  InlineFrames(const InlineFrames&) = delete;
  InlineFrames& operator=(const InlineFrames&) = delete;

  // addr2line's records for ELF address `vaddr` of `path`, innermost first; empty when the
  // first record would be unknown ("??:0", which perf takes as no answer). Stable until the
  // object dies.
  // `symbol` is the function addr2line's symbol lookup finds at the address, if any.
  const std::vector<InlineRecord>& lookup(const std::string& path, uint64_t vaddr,
                                          const EnclosingSymbol* symbol = nullptr);

  // For an address of `path` its line tables do not hold: whether addr2line still answers,
  // naming a function of the symbol table, and the file it then names (`file`: the STT_FILE
  // for that function, "??" without one; see symtab_source_files.h), as printed, not its base
  // name; `function` (when given) the function it names.
  bool symbol_source_file(const std::string& path, uint64_t vaddr, std::string* file,
                          std::string* function = nullptr);

 private:
  struct File;
  struct Naming;
  File* file(const std::string& path);
  void open_separate_debug(File& f, const std::string& path);
  std::unordered_map<std::string, std::unique_ptr<File>> files_;
  bool full_source_path_ = false;
  std::string debug_dir_ = "/usr/lib/debug";
};

// srcline.c srcline_from_fileline(): "FILE:LINE" with FILE cut to its base name (unless it
// ends in '/') or kept whole.
std::string srcline_from_fileline(std::string_view file, uint32_t line, bool full_path);

}  // namespace readperf
