// An ELF file read for its symbols and build-id, as a hostile build-id cache or --symfs tree
// would hand it to readperf.
#include <unistd.h>

#include "fuzz_targets.h"
#include "fuzz_util.h"
#include "readperf/symbols/build_id.h"
#include "readperf/symbols/dso_loader.h"
#include "readperf/symbols/elf_symbols.h"

namespace readperf::fuzz {

int fuzz_elf_symbols(const uint8_t* data, size_t size) {
  int fd = memory_fd(data, size);
  if (fd < 0) return 0;
  std::string path = fd_path(fd);
  (void)read_elf_build_id(path);
  (void)read_notes_build_id(path);
  if (auto t = load_elf_symbols(path)) {
    // Look up every symbol's first and last address, as samples in it would.
    volatile uint64_t sink = 0;
    for (const Symbol& s : t->symbols()) {
      if (const Symbol* hit = t->find(s.start)) sink = sink + hit->name.size();
      if (const Symbol* hit = t->find(s.end - 1)) sink = sink + hit->name.size();
    }
  }
  // The DSO loader on the same file: build-id checks, and a .gnu_debugdata (MiniDebugInfo)
  // inflated and read when the file has no .symtab.
  SymbolConfig config;
  config.buildid_dir = "/nonexistent-readperf-fuzz-cache";
  DsoSymbols dso = load_dso_symbols({path, BuildId()}, config);
  (void)dso;
  ::close(fd);
  return 0;
}

}  // namespace readperf::fuzz
