#include "readperf/symbols/perf_map.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>

#include "readperf/symbols/symbol_files.h"

namespace readperf {

namespace {

// symbol.c hex2u64(): strtoull base 16 (leading blanks and "0x" allowed); the number of
// characters it consumed.
size_t parse_hex(const char* p, uint64_t* value) {
  char* end;
  *value = std::strtoull(p, &end, 16);
  return static_cast<size_t>(end - p);
}

}  // namespace

SymbolTable parse_perf_map(std::string_view text) {
  SymbolTableBuilder b;
  std::string line;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t nl = text.find('\n', pos);
    size_t stop = nl == std::string_view::npos ? text.size() : nl + 1;
    line.assign(text.substr(pos, stop - pos));
    pos = stop;
    // perf drops the line's last character, taking it for the '\n' (so a last line without
    // one loses a character of its name).
    line.pop_back();
    size_t line_len = line.size();
    uint64_t start, size;
    size_t len = parse_hex(line.c_str(), &start) + 1;
    if (len + 2 >= line_len) continue;
    len += parse_hex(line.c_str() + len, &size) + 1;
    if (len + 2 >= line_len) continue;
    b.add(start, size, kBindGlobal, kTypeFunc, std::string_view(line).substr(len));
  }
  // Equal starts sit side by side in perf's rb-tree and a search meets the first inserted
  // first; keep that one.
  auto& p = b.pending();
  std::stable_sort(p.begin(), p.end(),
                   [](const auto& x, const auto& y) { return x.start < y.start; });
  p.erase(std::unique(p.begin(), p.end(),
                      [](const auto& x, const auto& y) { return x.start == y.start; }),
          p.end());
  return std::move(b).finish();
}

Result<SymbolTable> load_perf_map(const std::string& path) {
  ASSIGN_OR_RETURN(std::string text, read_symbol_file(path));
  return parse_perf_map(text);
}

}  // namespace readperf
