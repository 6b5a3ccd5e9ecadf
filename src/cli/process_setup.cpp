#include "process_setup.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace readperf::cli {

namespace {

// Huge pages for malloc's memory; large blocks from the heap rather than their own mappings,
// and freed memory kept (mmap_threshold, trim_threshold), so that memory once faulted in is
// reused instead of unmapped and faulted in again; the heap grown 16 MiB at a time (top_pad).
// On ../shared/bench's 111 MB recording, `report` takes 0.23 s instead of 0.41 s and peaks at
// 63 MB instead of 46 MB (perf: 1.44 s, 154 MB); with a 64 MiB top_pad it peaked at 66 MB, and
// `report --children` at 88 MB instead of 87, for no time saved.
constexpr const char* kTunable =
    "glibc.malloc.hugetlb=1:glibc.malloc.mmap_threshold=268435456:"
    "glibc.malloc.trim_threshold=1073741824:glibc.malloc.top_pad=16777216";

// Below this size a recording is read in less time than a second start of the program saves,
// and huge pages only add to the peak (a 2 MiB page for a few KiB in use): a 1 MB recording's
// report peaked at 25 MB with them, 15 MB without (perf: 14 MB).
constexpr uint64_t kHugePagesFromBytes = uint64_t{32} << 20;

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

// The size of the recording the command reads (-i/--input, else ./perf.data; a directory's
// files summed), 0 for standard input or when it cannot be told.
uint64_t input_size(char** argv) {
  const char* input = "perf.data";
  for (char** a = argv + 1; *a; ++a) {
    if ((std::strcmp(*a, "-i") == 0 || std::strcmp(*a, "--input") == 0) && a[1]) {
      input = *++a;
    } else if (std::strncmp(*a, "--input=", 8) == 0) {
      input = *a + 8;
    } else if (std::strncmp(*a, "-i", 2) == 0 && (*a)[2] != '\0') {
      input = *a + 2;
    }
  }
  if (std::strcmp(input, "-") == 0) return 0;
  struct stat st;
  if (::stat(input, &st) != 0) return 0;
  if (!S_ISDIR(st.st_mode)) return static_cast<uint64_t>(st.st_size);
  // perf record --threads: perf.data/data and perf.data/data.N.
  uint64_t total = 0;
  if (DIR* d = ::opendir(input)) {
    while (dirent* e = ::readdir(d)) {
      std::string path = std::string(input) + "/" + e->d_name;
      if (::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode)) total += st.st_size;
    }
    ::closedir(d);
  }
  return total;
}

// `report --stats` counts records and keeps next to nothing, and a small recording needs little
// memory whatever the command: a second program start (5 ms, 10% of `--stats` on the bench
// recording) would cost more than huge pages save.
bool keeps_little_memory(char** argv) {
  for (char** a = argv + 1; *a; ++a) {
    if (std::strcmp(*a, "--stats") == 0) return true;
  }
  return input_size(argv) < kHugePagesFromBytes;
}

}  // namespace

void reexec_with_huge_page_malloc(char** argv) {
  // Set across the exec: once re-executed, never again, even where the loader drops
  // GLIBC_TUNABLES (a secure-execution program), which would otherwise loop.
  constexpr const char* kMarker = "READPERF_REEXECUTED";
  if (std::getenv(kMarker)) {
    ::unsetenv(kMarker);
    // Executed as /proc/self/exe, the process is named "exe": name it as it was started.
    const char* slash = std::strrchr(argv[0], '/');
    ::prctl(PR_SET_NAME, slash ? slash + 1 : argv[0]);
    return;
  }
  if (std::getenv("READPERF_NO_HUGE_PAGES") || keeps_little_memory(argv)) return;
  const char* current = std::getenv("GLIBC_TUNABLES");
  if (current && std::strstr(current, "glibc.malloc.hugetlb")) return;
  if (!huge_pages_enabled()) return;
  std::string saved = current ? current : "";
  std::string value = current && *current ? saved + ":" + kTunable : std::string(kTunable);
  if (::setenv("GLIBC_TUNABLES", value.c_str(), 1) != 0) return;
  ::setenv(kMarker, "1", 1);
  ::execv("/proc/self/exe", argv);
  // Still here: run as we are, with the environment as it was.
  ::unsetenv(kMarker);
  if (current) {
    ::setenv("GLIBC_TUNABLES", saved.c_str(), 1);
  } else {
    ::unsetenv("GLIBC_TUNABLES");
  }
}

void widen_output_pipe() {
  struct stat st;
  if (::fstat(STDOUT_FILENO, &st) != 0 || !S_ISFIFO(st.st_mode)) return;
  for (int size = 1 << 20; size > (1 << 16); size /= 2) {
    if (::fcntl(STDOUT_FILENO, F_SETPIPE_SZ, size) >= 0) return;
  }
}

}  // namespace readperf::cli
