#include "running_vdso.h"

#include <fmt/format.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <mutex>

namespace readperf {

namespace {

// util/find-map.c find_map(): the [vdso] line of /proc/self/maps.
bool find_own_vdso(uintptr_t* start, uintptr_t* end) {
  std::ifstream maps("/proc/self/maps");
  std::string line;
  while (std::getline(maps, line)) {
    if (!line.ends_with("[vdso]")) continue;
    return std::sscanf(line.c_str(), "%" SCNxPTR "-%" SCNxPTR, start, end) == 2 && *end > *start;
  }
  return false;
}

// Writes the mapping's bytes to an anonymous file, as get_file() writes them to a temporary
// one; "" if any step fails (perf then has no vdso file either).
std::string copy_own_vdso() {
  uintptr_t start = 0, end = 0;
  if (!find_own_vdso(&start, &end)) return {};
  int fd = ::memfd_create("readperf-vdso", MFD_CLOEXEC);
  if (fd < 0) return {};
  const auto* bytes = reinterpret_cast<const char*>(start);
  size_t size = end - start, done = 0;
  while (done < size) {
    ssize_t n = ::write(fd, bytes + done, size - done);
    if (n <= 0) {
      ::close(fd);
      return {};
    }
    done += static_cast<size_t>(n);
  }
  // Kept open for the process's life: the path names the descriptor.
  return fmt::format("/proc/self/fd/{}", fd);
}

}  // namespace

const std::string& running_vdso_file(const SymbolConfig& cfg) {
  if (!cfg.running_vdso.empty()) return cfg.running_vdso;
  static std::once_flag once;
  static std::string path;
  std::call_once(once, [] { path = copy_own_vdso(); });
  return path;
}

}  // namespace readperf
