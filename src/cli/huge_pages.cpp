#include "huge_pages.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace readperf::cli {

namespace {

constexpr const char* kTunable = "glibc.malloc.hugetlb=1";

// /sys/kernel/mm/transparent_hugepage/enabled reads "always [madvise] never": the bracketed
// mode is the one in force. glibc's tunable madvises its memory, which "never" ignores.
bool huge_pages_enabled() {
  FILE* f = std::fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");
  if (!f) return false;
  char buf[128] = {};
  size_t n = std::fread(buf, 1, sizeof(buf) - 1, f);
  std::fclose(f);
  buf[n] = '\0';
  return std::strstr(buf, "[never]") == nullptr && std::strchr(buf, '[') != nullptr;
}

}  // namespace

void reexec_with_huge_page_malloc(char** argv) {
  if (std::getenv("READPERF_NO_HUGE_PAGES")) return;
  const char* current = std::getenv("GLIBC_TUNABLES");
  if (current && std::strstr(current, "glibc.malloc.hugetlb")) return;
  if (!huge_pages_enabled()) return;
  std::string saved = current ? current : "";
  std::string value = current && *current ? saved + ":" + kTunable : std::string(kTunable);
  if (::setenv("GLIBC_TUNABLES", value.c_str(), 1) != 0) return;
  ::execv("/proc/self/exe", argv);
  // Still here: run as we are, with the environment as it was.
  if (current) {
    ::setenv("GLIBC_TUNABLES", saved.c_str(), 1);
  } else {
    ::unsetenv("GLIBC_TUNABLES");
  }
}

}  // namespace readperf::cli
