#include "readperf/symbols/inline_frames.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <fcntl.h>
#include <unistd.h>

namespace readperf {

struct InlineFrames::File {
  int fd = -1;
  Dwarf* dwarf = nullptr;
  std::unordered_map<uint64_t, std::vector<InlineRecord>> memo;
  ~File() {
    if (dwarf) dwarf_end(dwarf);
    if (fd >= 0) close(fd);
  }
};

InlineFrames::InlineFrames() = default;
InlineFrames::~InlineFrames() = default;

InlineFrames::File* InlineFrames::file(const std::string& path) {
  auto it = files_.find(path);
  if (it != files_.end()) return it->second.get();
  auto f = std::make_unique<File>();
  f->fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (f->fd >= 0) f->dwarf = dwarf_begin(f->fd, DWARF_C_READ);
  return files_.emplace(path, std::move(f)).first->second.get();
}

namespace {

bool is_function(Dwarf_Die* die) {
  int tag = dwarf_tag(die);
  return tag == DW_TAG_subprogram || tag == DW_TAG_inlined_subroutine ||
         tag == DW_TAG_entry_point;
}

// binutils dwarf2.c takes DW_AT_linkage_name over DW_AT_name (both through the abstract
// origin), which is what `addr2line -f` prints.
std::string function_name(Dwarf_Die* die) {
  Dwarf_Attribute attr;
  const char* name = nullptr;
  if (dwarf_attr_integrate(die, DW_AT_linkage_name, &attr)) name = dwarf_formstring(&attr);
  if (!name && dwarf_attr_integrate(die, DW_AT_MIPS_linkage_name, &attr)) {
    name = dwarf_formstring(&attr);
  }
  if (!name) name = dwarf_diename(die);
  return name ? name : "??";
}

}  // namespace

const std::vector<InlineRecord>& InlineFrames::lookup(const std::string& path, uint64_t vaddr) {
  File* f = file(path);
  auto [it, inserted] = f->memo.try_emplace(vaddr);
  std::vector<InlineRecord>& out = it->second;
  if (!inserted || !f->dwarf) return out;

  Dwarf_Die cu;
  if (!dwarf_addrdie(f->dwarf, vaddr, &cu)) return out;
  // The first record: the innermost function and the line table's line. srcline.c
  // read_addr2line_record() takes a record without a line number as the end of the answer.
  Dwarf_Line* line = dwarf_getsrc_die(&cu, vaddr);
  int lineno = 0;
  if (!line || dwarf_lineno(line, &lineno) != 0 || lineno == 0) return out;
  const char* src = dwarf_linesrc(line, nullptr, nullptr);

  Dwarf_Die* scopes = nullptr;
  int n = dwarf_getscopes(&cu, vaddr, &scopes);
  std::vector<Dwarf_Die*> funcs;
  for (int i = 0; i < n; ++i) {
    if (!is_function(&scopes[i])) continue;
    funcs.push_back(&scopes[i]);
    if (dwarf_tag(&scopes[i]) != DW_TAG_inlined_subroutine) break;
  }
  out.push_back({funcs.empty() ? "??" : function_name(funcs[0]), src ? src : "??",
                 static_cast<uint32_t>(lineno)});
  // Each inliner, at the call site of the function inlined into it.
  Dwarf_Files* files = nullptr;
  dwarf_getsrcfiles(&cu, &files, nullptr);
  for (size_t i = 0; i + 1 < funcs.size(); ++i) {
    Dwarf_Attribute attr;
    Dwarf_Word call_line = 0, call_file = 0;
    if (dwarf_attr(funcs[i], DW_AT_call_line, &attr)) dwarf_formudata(&attr, &call_line);
    if (dwarf_attr(funcs[i], DW_AT_call_file, &attr)) dwarf_formudata(&attr, &call_file);
    if (call_line == 0) break;
    const char* cf = files ? dwarf_filesrc(files, call_file, nullptr, nullptr) : nullptr;
    out.push_back({function_name(funcs[i + 1]), cf ? cf : "??", static_cast<uint32_t>(call_line)});
  }
  free(scopes);
  return out;
}

}  // namespace readperf
