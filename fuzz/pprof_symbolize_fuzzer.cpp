// An unsymbolized pprof profile (`readperf symbolize IN.pb.gz`) as anyone may hand it over:
// decoded, its mappings made into maps, every address resolved, the profile written again.
// Symbols are looked for nowhere (a symfs and a build-id cache that do not exist).
#include "fuzz_targets.h"
#include "fuzz_util.h"
#include "readperf/output/pprof_symbolizer.h"

namespace readperf::fuzz {

int fuzz_pprof_symbolize(const uint8_t* data, size_t size) {
  SymbolizeConfig cfg;
  cfg.symbols.buildid_dir = "/nonexistent-readperf-fuzz-cache";
  cfg.symbols.symfs = "/nonexistent-readperf-fuzz-symfs";
  cfg.gzip = false;
  cfg.max_size = uint64_t{64} << 20;
  (void)symbolize_pprof(std::string_view(reinterpret_cast<const char*>(data), size), cfg,
                        null_file());
  return 0;
}

}  // namespace readperf::fuzz
