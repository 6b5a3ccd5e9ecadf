// `script -F +srccode`: the source line of each sample (builtin-script.c
// map__fprintf_srccode(), util/srccode.c find_sourceline()), read from the source file the
// DWARF line tables name, where it is on this machine.
#include <fmt/format.h>

#include <fstream>
#include <sstream>

#include "readperf/analysis/resolver.h"
#include "script_internal.h"

namespace readperf {

const ScriptSourceLines::File* ScriptSourceLines::file(const std::string& path) {
  auto [it, inserted] = files_.try_emplace(path);
  File& f = it->second;
  if (inserted) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
      f.missing = true;
    } else {
      std::ostringstream ss;
      ss << in.rdbuf();
      f.text = ss.str();
      // srccode.c fill_lines(): a line starts at the file's start and after each '\n'; text
      // after the last '\n' is a line too.
      size_t pos = 0;
      while (pos < f.text.size()) {
        f.starts.push_back(pos);
        size_t nl = f.text.find('\n', pos);
        if (nl == std::string::npos) break;
        pos = nl + 1;
      }
    }
  }
  return f.missing ? nullptr : &f;
}

bool ScriptSourceLines::print(OutBuffer& out, Resolver& resolver, const Frame& self,
                              const void* thread) {
  std::string src;
  uint32_t line = 0;
  if (!resolver.srcline_split(self, &src, &line)) return false;
  // Avoid redundant printing: the thread's last printed line is not printed again.
  Last& last = last_[thread];
  if (last.file == src && last.line == line) return false;
  const File* f = file(src);
  if (!f || line == 0 || line > f->starts.size()) return false;
  size_t begin = f->starts[line - 1];
  size_t end = f->text.find('\n', begin);
  if (end == std::string::npos) end = f->text.size();
  out.print("|{:<8} ", line);
  out.write(std::string_view(f->text).substr(begin, end - begin));
  last.file = std::move(src);
  last.line = line;
  return true;
}

}  // namespace readperf
