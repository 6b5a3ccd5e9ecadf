#include "readperf/session/dso.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>

namespace readperf {

std::string module_short_name(std::string_view path) {
  // dso.c __kmod_path__parse(): the name after the last '/', then the last '.' (before a
  // compression suffix perf reads: is_supported_compression(), gz and xz in Debian's perf 6.1,
  // the symbols layer's kmod_compression()) marks the ".ko". "ext4.ko.zst" is no module.
  size_t slash = path.rfind('/');
  std::string_view name = slash == std::string_view::npos ? path : path.substr(slash + 1);
  if (!name.empty() && name[0] == '[') return std::string(name);
  size_t dot = name.rfind('.');
  if (dot == std::string_view::npos) return std::string(name);
  std::string_view ext = name.substr(dot + 1);
  if ((ext == "gz" || ext == "xz") && dot >= 3) dot -= 3;
  std::string out;
  if (dot > 0 && name.substr(dot, 3) == ".ko") {
    out = "[" + std::string(name.substr(0, dot)) + "]";
  } else {
    out = std::string(name);
  }
  std::replace(out.begin(), out.end(), '-', '_');
  return out;
}

namespace {
std::string dso_basename(const std::string& long_name) {
  // dsos.c dso__set_basename(): a JIT's symbol map (map.c names anonymous executable memory
  // "/tmp/perf-PID.map") is "[JIT] tid PID", whatever follows the number (sscanf).
  int tid;
  if (std::sscanf(long_name.c_str(), "/tmp/perf-%d.map", &tid) == 1) {
    return fmt::format("[JIT] tid {}", tid);
  }
  size_t slash = long_name.rfind('/');
  return slash == std::string::npos ? long_name : long_name.substr(slash + 1);
}
}  // namespace

Dso* DsoTable::add(std::string_view long_name) {
  Dso& d = dsos_.emplace_back();
  d.long_name = std::string(long_name);
  d.short_name = dso_basename(d.long_name);
  by_long_.emplace(d.long_name, &d);
  return &d;
}

Dso* DsoTable::find(std::string_view long_name) const {
  auto it = by_long_.find(std::string(long_name));
  return it == by_long_.end() ? nullptr : it->second;
}

Dso* DsoTable::find_short(std::string_view short_name) const {
  // dsos.c __dsos__find(cmp_short=true) walks the list in creation order.
  for (const Dso& d : dsos_) {
    if (d.short_name == short_name) return const_cast<Dso*>(&d);
  }
  return nullptr;
}

Dso* DsoTable::findnew(std::string_view long_name) {
  if (Dso* d = find(long_name)) return d;
  return add(long_name);
}

Dso* DsoTable::findnew_module(std::string_view path) {
  std::string short_name = module_short_name(path);
  if (Dso* d = find_short(short_name)) return d;
  // __dsos__addnew() under the short name, then dso__set_long_name(path).
  Dso& d = dsos_.emplace_back();
  d.long_name = std::string(path);
  d.short_name = short_name;
  d.space = DsoSpace::kKernel;
  d.is_module = true;
  d.named_short = true;
  by_long_.emplace(d.long_name, &d);
  return &d;
}

}  // namespace readperf
