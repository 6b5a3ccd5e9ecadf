// A symbol archive (`--symbols FILE.tar.zst`) as a hostile machine would hand it over: the
// member list read, every name resolved through the archive's links, every directory listed,
// every member read and opened, as the symbol lookup would.
#include <unistd.h>

#include <string>
#include <vector>

#include "fuzz_targets.h"
#include "readperf/symbols/symbol_archive.h"

namespace readperf::fuzz {

int fuzz_symbol_archive(const uint8_t* data, size_t size) {
  // Small bounds, so that a frame claiming or producing gigabytes stops early.
  ArchiveLimits limits;
  limits.max_frame = uint64_t{64} << 20;
  limits.max_members = 4096;
  auto archive =
      SymbolArchive::from_bytes("fuzz.tar.zst", std::vector<uint8_t>(data, data + size), limits);
  if (!archive) return 0;
  SymbolArchive& a = **archive;
  std::vector<std::string> pending{""};
  size_t visited = 0;
  while (!pending.empty() && visited < 4096) {
    std::string dir = std::move(pending.back());
    pending.pop_back();
    for (const std::string& name : a.list(dir)) {
      ++visited;
      std::string path = dir.empty() ? name : dir + "/" + name;
      if (std::optional<std::string> m = a.resolve(path)) {
        (void)a.read_member(*m, uint64_t{16} << 20);
        if (Result<int> fd = a.open_member(*m)) {
          char buf[64];
          (void)!::read(*fd, buf, sizeof buf);
          ::close(*fd);
        }
      } else if (dir.size() < 512) {
        pending.push_back(path);  // a directory, or a link to one
      }
    }
  }
  // The names the symbol lookup asks for.
  (void)a.resolve(".build-id/93/ac61ec5a8eb1396f9fbd350e3169a558528a40/elf");
  (void)a.list("[kernel.kallsyms]");
  return 0;
}

}  // namespace readperf::fuzz
