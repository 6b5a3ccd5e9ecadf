#include "symbol_source_args.h"

#include <cstdlib>

namespace readperf::cli {

bool names_symbol_archive(std::string_view value) {
  return value.ends_with(".tar.zst") || value.ends_with(".tzst") || value.ends_with(".tar");
}

std::vector<std::string> take_symbol_source_args(int argc, char** argv) {
  std::vector<std::string> rest;
  std::vector<std::string> archives;
  std::string urls;
  bool set_urls = false, no_debuginfod = false;
  for (int i = 0; i < argc; ++i) {
    std::string_view a = argv[i];
    if (i == 0 || a == "--") {
      // Everything after "--" is left as it is.
      if (a == "--") {
        for (; i < argc; ++i) rest.emplace_back(argv[i]);
        break;
      }
      rest.emplace_back(a);
      continue;
    }
    if (a == "--symbols" && i + 1 < argc && names_symbol_archive(argv[i + 1])) {
      archives.emplace_back(argv[++i]);
      continue;
    }
    if (a.starts_with("--symbols=") && names_symbol_archive(a.substr(10))) {
      archives.emplace_back(a.substr(10));
      continue;
    }
    if (a == "--debuginfod") {
      // A URL may follow; a command name or an option does not.
      if (i + 1 < argc && std::string_view(argv[i + 1]).find("://") != std::string_view::npos) {
        urls = argv[++i];
        set_urls = true;
      }
      continue;
    }
    if (a.starts_with("--debuginfod=")) {
      urls = a.substr(13);
      set_urls = !urls.empty();
      continue;
    }
    if (a == "--no-debuginfod") {
      no_debuginfod = true;
      continue;
    }
    rest.emplace_back(a);
  }
  if (!archives.empty()) {
    std::string list;
    if (const char* env = std::getenv("READPERF_SYMBOLS"); env && *env) list = env;
    for (const std::string& a : archives) list += (list.empty() ? "" : ":") + a;
    ::setenv("READPERF_SYMBOLS", list.c_str(), 1);
  }
  if (no_debuginfod) {
    ::unsetenv("DEBUGINFOD_URLS");
  } else if (set_urls) {
    ::setenv("DEBUGINFOD_URLS", urls.c_str(), 1);
  }
  return rest;
}

}  // namespace readperf::cli
