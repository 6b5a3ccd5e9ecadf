#include "readperf/symbols/inline_frames.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwelf.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <gelf.h>
#include <unistd.h>

#include <cstring>
#include <optional>
#include <string_view>

#include "readperf/symbols/symbol_files.h"
#include "symtab_source_files.h"
#include "unit_functions.h"

namespace readperf {

// binutils' naming state of one function (struct funcinfo: name, is_linkage).
struct InlineFrames::Naming {
  std::string name;
  bool is_linkage = false;
};

struct InlineFrames::File {
  int fd = -1;
  Elf* elf = nullptr;
  Dwarf* dwarf = nullptr;
  std::unordered_map<uint64_t, std::vector<InlineRecord>> memo;
  std::unordered_map<Dwarf_Off, std::unique_ptr<UnitFunctions>> units;
  std::unordered_map<Dwarf_Off, Naming> naming;     // by DIE offset
  std::unique_ptr<SymtabSourceFiles> symtab_files;  // built on first need
  // symbol_source_file()'s answers by address: the file and the function (views into
  // symtab_files and the ELF's string table), nullopt where there is no function. Asked once
  // per unwound frame, a scan of the table each time.
  struct SymtabAnswer {
    std::string_view file, function;
  };
  std::unordered_map<uint64_t, std::optional<SymtabAnswer>> symtab_answers;
  // The separate debug file the DWARF came from (open_separate_debug()), if any.
  int debug_fd = -1;
  Elf* debug_elf = nullptr;
  ~File() {
    if (dwarf) dwarf_end(dwarf);
    if (debug_elf) elf_end(debug_elf);
    if (debug_fd >= 0) close(debug_fd);
    if (elf) elf_end(elf);
    if (fd >= 0) close(fd);
  }
};

InlineFrames::InlineFrames() = default;
InlineFrames::~InlineFrames() = default;

namespace {

// libdw's dwarf_begin_elf() inflates every compressed .debug_* section up front (elfutils
// check_section()), and line lookups never read the location lists, frame tables or macros:
// for a distribution's libc debug file (.debug_loclists of megabytes, zlib) that inflation was
// most of a `report --sort srcline`. The sections left out are hidden from libdw as NOBITS in
// a private copy-on-write mapping (ELF_C_READ_MMAP_PRIVATE: the file is untouched).
Elf* open_for_lines(int fd) {
  elf_version(EV_CURRENT);
  Elf* elf = elf_begin(fd, ELF_C_READ_MMAP_PRIVATE, nullptr);
  if (!elf) return nullptr;
  size_t shstrndx = 0;
  if (elf_getshdrstrndx(elf, &shstrndx) != 0) return elf;
  static constexpr std::string_view kUnused[] = {
      ".debug_loc",     ".debug_loclists", ".debug_frame",   ".debug_macro",
      ".debug_macinfo", ".debug_pubnames", ".debug_pubtypes"};
  for (Elf_Scn* scn = elf_nextscn(elf, nullptr); scn; scn = elf_nextscn(elf, scn)) {
    GElf_Shdr shdr;
    if (!gelf_getshdr(scn, &shdr) || (shdr.sh_flags & SHF_COMPRESSED) == 0) continue;
    const char* name = elf_strptr(elf, shstrndx, shdr.sh_name);
    if (!name) continue;
    std::string_view n = name;
    if (n.starts_with(".zdebug")) continue;  // the GNU form is inflated by name: left as is
    for (std::string_view u : kUnused) {
      if (n == u) {
        shdr.sh_type = SHT_NOBITS;
        gelf_update_shdr(scn, &shdr);
        break;
      }
    }
  }
  return elf;
}

}  // namespace

InlineFrames::File* InlineFrames::file(const std::string& path) {
  auto it = files_.find(path);
  if (it != files_.end()) return it->second.get();
  auto f = std::make_unique<File>();
  f->fd = open_symbol_file(path);
  if (f->fd >= 0) f->elf = open_for_lines(f->fd);
  if (f->elf) f->dwarf = dwarf_begin_elf(f->elf, DWARF_C_READ, nullptr);
  if (f->elf && !f->dwarf) open_separate_debug(*f, path);
  return files_.emplace(path, std::move(f)).first->second.get();
}

void InlineFrames::open_separate_debug(File& f, const std::string& path) {
  // addr2line on a file without DWARF reads its separate debug file, as binutils 2.40's
  // _bfd_dwarf2_slurp_debug_info() finds it: by build-id under DEBUGDIR/.build-id (the file's
  // own build-id checked), else by .gnu_debuglink beside the file, in its .debug/ and under
  // DEBUGDIR (opncls.c find_separate_debug_file()). perf 6.1 runs addr2line on the path it
  // has, so a Debian -dbg package's lines come with it, whatever --symfs says.
  std::vector<std::string> candidates;
  const void* id = nullptr;
  ssize_t id_len = dwelf_elf_gnu_build_id(f.elf, &id);
  std::string hex;
  if (id_len > 1) {
    const auto* b = static_cast<const unsigned char*>(id);
    for (ssize_t i = 0; i < id_len; ++i) hex += fmt::format("{:02x}", b[i]);
    candidates.push_back(debug_dir_ + "/.build-id/" + hex.substr(0, 2) + "/" + hex.substr(2) +
                         ".debug");
  }
  GElf_Word crc = 0;
  if (const char* link = dwelf_elf_gnu_debuglink(f.elf, &crc); link && *link) {
    size_t slash = path.rfind('/');
    std::string dir = slash == std::string::npos ? "." : path.substr(0, slash);
    candidates.push_back(dir + "/.debug/" + link);
    candidates.push_back(dir + "/" + link);
    candidates.push_back(debug_dir_ + dir + "/" + link);
  }
  for (const std::string& c : candidates) {
    if (c == path) continue;
    int fd = open_symbol_file(c);
    if (fd < 0) continue;
    Elf* elf = open_for_lines(fd);
    Dwarf* dwarf = elf ? dwarf_begin_elf(elf, DWARF_C_READ, nullptr) : nullptr;
    // A build-id file must be the same build (check_build_id_file()).
    bool same = true;
    if (dwarf && !hex.empty() && c.find("/.build-id/") != std::string::npos) {
      const void* other = nullptr;
      ssize_t other_len = dwelf_elf_gnu_build_id(elf, &other);
      same = other_len == id_len && std::memcmp(other, id, static_cast<size_t>(id_len)) == 0;
    }
    if (dwarf && same) {
      f.debug_fd = fd;
      f.debug_elf = elf;
      f.dwarf = dwarf;
      return;
    }
    if (dwarf) dwarf_end(dwarf);
    if (elf) elf_end(elf);
    close(fd);
  }
}

bool InlineFrames::symbol_source_file(const std::string& path, uint64_t vaddr, std::string* file,
                                      std::string* function) {
  File* f = this->file(path);
  if (!f->elf) return false;
  if (!f->symtab_files) f->symtab_files = std::make_unique<SymtabSourceFiles>(f->elf);
  auto [it, inserted] = f->symtab_answers.try_emplace(vaddr);
  if (inserted) {
    File::SymtabAnswer answer;
    if (f->symtab_files->find(vaddr, &answer.file, &answer.function)) it->second = answer;
  }
  if (!it->second) return false;
  *file = it->second->file;
  if (function) *function = it->second->function;
  return true;
}

namespace {

// binutils dwarf2.c takes DW_AT_linkage_name over DW_AT_name (both through the abstract
// origin and specification), which is what `addr2line -f` prints. `is_linkage` tells whether
// the name is one a symbol table would hold: a linkage name, or DW_AT_name in a language
// whose names are not mangled (dwarf2.c non_mangled()).
std::string function_name(Dwarf_Die* die, bool unmangled_language, bool* is_linkage) {
  Dwarf_Attribute attr;
  const char* name = nullptr;
  if (dwarf_attr_integrate(die, DW_AT_linkage_name, &attr)) name = dwarf_formstring(&attr);
  if (!name && dwarf_attr_integrate(die, DW_AT_MIPS_linkage_name, &attr)) {
    name = dwarf_formstring(&attr);
  }
  *is_linkage = name != nullptr;
  if (!name && dwarf_attr_integrate(die, DW_AT_name, &attr)) {
    name = dwarf_formstring(&attr);
    *is_linkage = name && unmangled_language;
  }
  return name ? name : "";
}

bool unmangled_language(Dwarf_Die* cu) {
  switch (dwarf_srclang(cu)) {
    case DW_LANG_C89:
    case DW_LANG_C:
    case DW_LANG_Ada83:
    case DW_LANG_Cobol74:
    case DW_LANG_Cobol85:
    case DW_LANG_Fortran77:
    case DW_LANG_Pascal83:
    case DW_LANG_C99:
    case DW_LANG_Ada95:
    case DW_LANG_PLI:
    case DW_LANG_UPC:
    case DW_LANG_C11:
    case DW_LANG_Mips_Assembler:
      return true;
    default:
      return false;
  }
}

// binutils' arange.low of a function: the start of its first non-empty range.
std::optional<uint64_t> first_range_start(Dwarf_Die* die) {
  std::optional<uint64_t> start;
  for_each_range(die, [&](uint64_t lo, uint64_t) {
    start = lo;
    return false;
  });
  return start;
}

// The length of the range of `die` holding `pc`, 0 when none does.
uint64_t range_len_at(Dwarf_Die* die, Dwarf_Addr pc) {
  uint64_t len = 0;
  for_each_range(die, [&](uint64_t lo, uint64_t hi) {
    if (pc < lo || pc >= hi) return true;
    len = hi - lo;
    return false;
  });
  return len;
}

// The functions whose code holds `pc` below `parent`, outermost first: subprograms and the
// inlined subroutines nested in them (through lexical blocks), as binutils' dwarf2.c nests
// them by caller_func. dwarf_getscopes() is no help: past an inlined instance it follows the
// abstract origin's scopes, not the function it was inlined into.
void functions_at(Dwarf_Die* parent, Dwarf_Addr pc, int depth, std::vector<Dwarf_Die>& out) {
  if (depth > 64) return;  // hostile nesting
  Dwarf_Die child;
  if (dwarf_child(parent, &child) != 0) return;
  // binutils lookup_address_in_function_table(): the function of the smallest range holding
  // the address, the last one read among equals (gas describes an assembler entry point once
  // per alias, and addr2line names the last).
  Dwarf_Die best;
  uint64_t best_len = 0;
  bool best_is_block = false;
  do {
    switch (dwarf_tag(&child)) {
      case DW_TAG_subprogram:
      case DW_TAG_inlined_subroutine:
      case DW_TAG_entry_point:
      case DW_TAG_lexical_block: {
        uint64_t len = range_len_at(&child, pc);
        if (len != 0 && (best_len == 0 || len <= best_len)) {
          best = child;
          best_len = len;
          best_is_block = dwarf_tag(&child) == DW_TAG_lexical_block;
        }
        break;
      }
      case DW_TAG_namespace:
      case DW_TAG_class_type:
      case DW_TAG_structure_type:
      case DW_TAG_union_type:
      case DW_TAG_module:
        if (best_len == 0) {
          size_t before = out.size();
          functions_at(&child, pc, depth + 1, out);
          if (out.size() != before) return;
        }
        break;
      default:
        break;
    }
  } while (dwarf_siblingof(&child, &child) == 0);
  if (best_len == 0) return;
  if (!best_is_block) out.push_back(best);
  functions_at(&best, pc, depth + 1, out);
}

// binutils 2.40 (addr2line) names a DWARF 5 line-table row that comes before any
// DW_LNS_set_file of its sequence by file entry 0, the compilation unit's primary file, where
// the file register's initial value 1 (what libdw and readelf show) may be an included file:
// `s_sin-fma.c:201` rather than `s_sin.c:201` for code of s_sin.c included into s_sin-fma.c.
// Null when that does not apply. gcc never sets the file to 1 at a sequence's start, so rows
// before the first row of another file are taken as the default's.
const char* default_file_name(Dwarf_Die* cu, Dwarf_Line* line, UnitFunctions& unit) {
  Dwarf_Half version = 0;
  Dwarf_Die unused;
  if (!dwarf_cu_die(cu->cu, &unused, &version, nullptr, nullptr, nullptr, nullptr, nullptr) ||
      version < 5) {
    return nullptr;
  }
  Dwarf_Files* files = nullptr;
  size_t idx = 0;
  if (dwarf_line_file(line, &files, &idx) != 0 || idx != 1) return nullptr;
  Dwarf_Lines* lines = nullptr;
  size_t n = 0;
  if (dwarf_getsrclines(cu, &lines, &n) != 0) return nullptr;
  if (!unit.line_index_built) {
    unit.line_index_built = true;
    unit.line_index.reserve(n);
    for (size_t i = 0; i < n; ++i) unit.line_index.emplace(dwarf_onesrcline(lines, i), i);
  }
  auto found = unit.line_index.find(line);
  if (found == unit.line_index.end()) return nullptr;
  size_t at = found->second;
  for (size_t i = at; i-- > 0;) {
    Dwarf_Line* prev = dwarf_onesrcline(lines, i);
    bool end = false;
    if (!prev || dwarf_lineendsequence(prev, &end) != 0 || end) break;
    size_t pidx = 0;
    Dwarf_Files* pf = nullptr;
    if (dwarf_line_file(prev, &pf, &pidx) != 0 || pidx != 1) return nullptr;
  }
  return dwarf_filesrc(files, 0, nullptr, nullptr);
}

// The unit whose ranges hold `pc`, for units .debug_aranges leaves out (crtstuff.c in glibc's
// libraries): binutils' addr2line reads the units' own ranges.
bool scan_units(Dwarf* dwarf, Dwarf_Addr pc, Dwarf_Die* out) {
  Dwarf_CU* cu = nullptr;
  Dwarf_Die die;
  for (int guard = 0;
       guard < 1'000'000 && dwarf_get_units(dwarf, cu, &cu, nullptr, nullptr, &die, nullptr) == 0;
       ++guard) {
    if (dwarf_haspc(&die, pc) == 1) {
      *out = die;
      return true;
    }
  }
  return false;
}

}  // namespace

const std::vector<InlineRecord>& InlineFrames::lookup(const std::string& path, uint64_t vaddr,
                                                      const EnclosingSymbol* symbol) {
  File* f = file(path);
  auto [it, inserted] = f->memo.try_emplace(vaddr);
  std::vector<InlineRecord>& out = it->second;
  if (!inserted || !f->dwarf) return out;

  Dwarf_Die cu;
  if (!dwarf_addrdie(f->dwarf, vaddr, &cu) && !scan_units(f->dwarf, vaddr, &cu)) return out;
  std::unique_ptr<UnitFunctions>& indexed = f->units[dwarf_dieoffset(&cu)];
  if (!indexed) indexed = index_unit(&cu);
  UnitFunctions& unit = *indexed;
  // The first record: the innermost function and the line table's line. srcline.c
  // filename_split() takes "??:0" as no answer.
  Dwarf_Line* line = dwarf_getsrc_die(&cu, vaddr);
  int lineno = 0;
  const char* src = line ? dwarf_linesrc(line, nullptr, nullptr) : nullptr;
  if (!line || dwarf_lineno(line, &lineno) != 0 || !src) {
    // A unit holds the address but no row of its line table does: addr2line prints the
    // function and ":?" (an empty file name, line 0).
    lineno = 0;
    src = "";
  } else if (const char* primary = default_file_name(&cu, line, unit)) {
    src = primary;
  }

  // The functions around the address, innermost first, up to the out-of-line one
  // (binutils' lookup_address_in_function_table() and its caller_func chain).
  std::vector<Dwarf_Die> nest;
  if (const UnitFunctions::Function* outer = outer_function_at(unit, vaddr)) {
    Dwarf_Die best = outer->die;
    if (!outer->is_block) nest.push_back(best);
    functions_at(&best, vaddr, unit.scopes[outer->scope].depth + 1, nest);
  }
  std::vector<Dwarf_Die*> funcs;  // innermost first
  for (auto i = nest.rbegin(); i != nest.rend(); ++i) funcs.push_back(&*i);
  // Without a DWARF function addr2line names the symbol table's: left empty for the caller.
  // binutils 2.40 _bfd_dwarf2_find_nearest_line_with_alt(): the innermost function's name,
  // unless it is not a linkage name; then, the first time only, the symbol table's function
  // holding the address, which also renames the function for good when it starts where the
  // function does. addr2line runs for the whole report (one process per file), so a later
  // answer, and the inliner names of every answer, depend on what was asked before: the
  // lookups come here in perf's order and are kept, as perf keeps its answers.
  std::string innermost;
  const bool unmangled = unmangled_language(&cu);
  auto naming = [&](Dwarf_Die* die) -> Naming& {
    auto [it, inserted] = f->naming.try_emplace(dwarf_dieoffset(die));
    if (inserted) it->second.name = function_name(die, unmangled, &it->second.is_linkage);
    return it->second;
  };
  if (!funcs.empty()) {
    Naming& n = naming(funcs[0]);
    innermost = n.name;
    if (!n.is_linkage) {
      if (symbol) {
        innermost = std::string(symbol->name);
        if (first_range_start(funcs[0]) == symbol->start) n.name = innermost;
      }
      n.is_linkage = true;
    }
  }
  out.push_back({innermost, src, static_cast<uint32_t>(lineno)});
  // Each inliner, at the call site of the function inlined into it.
  Dwarf_Files* files = nullptr;
  size_t nfiles = 0;
  if (dwarf_getsrcfiles(&cu, &files, &nfiles) != 0) files = nullptr;
  for (size_t i = 0; i + 1 < funcs.size() && i < 1024; ++i) {
    Dwarf_Attribute attr;
    Dwarf_Word call_line = 0, call_file = 0;
    if (dwarf_attr(funcs[i], DW_AT_call_line, &attr)) dwarf_formudata(&attr, &call_line);
    if (dwarf_attr(funcs[i], DW_AT_call_file, &attr)) dwarf_formudata(&attr, &call_file);
    const char* cf =
        files && call_file < nfiles ? dwarf_filesrc(files, call_file, nullptr, nullptr) : nullptr;
    out.push_back({naming(funcs[i + 1]).name, cf ? cf : "??", static_cast<uint32_t>(call_line)});
  }
  // binutils' concat_filename(): a relative file name (libdw joined it with its line-table
  // directory) is under the unit's DW_AT_comp_dir, itself relative in glibc's units
  // ("./elf/../sysdeps/x86/cpu-features.c").
  Dwarf_Attribute comp_attr;
  const char* comp_dir = dwarf_formstring(dwarf_attr(&cu, DW_AT_comp_dir, &comp_attr));
  for (InlineRecord& r : out) {
    if (comp_dir && *comp_dir && !r.file.empty() && r.file[0] != '/' && r.file != "??") {
      r.file = std::string(comp_dir) + "/" + r.file;
    }
    r.srcline = srcline_from_fileline(r.file, r.line, full_source_path_);
  }
  return out;
}

std::string srcline_from_fileline(std::string_view file, uint32_t line, bool full_path) {
  if (!full_path) {
    size_t slash = file.rfind('/');
    if (slash != std::string_view::npos && slash + 1 < file.size()) file.remove_prefix(slash + 1);
  }
  return std::string(file) + ":" + std::to_string(line);
}

}  // namespace readperf
