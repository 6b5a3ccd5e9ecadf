// Profiles as anyone may hand them to the pprof merge (readperf.merge_pprof(), the fleet
// merge): two of them, the first `n` bytes and the rest, `n` the input's first two bytes
// (little-endian); each decoded, turned back into frames and added to one builder.
#include <algorithm>

#include "fuzz_targets.h"
#include "fuzz_util.h"
#include "readperf/output/pprof_merge.h"

namespace readperf::fuzz {

int fuzz_pprof_merge(const uint8_t* data, size_t size) {
  if (size < 2) return 0;
  size_t n = std::min<size_t>(size - 2, data[0] | (size_t{data[1]} << 8));
  const char* p = reinterpret_cast<const char*>(data) + 2;
  std::string_view profiles[] = {{p, n}, {p + n, size - 2 - n}};
  PprofMergeConfig cfg;
  cfg.gzip = false;
  cfg.max_size = uint64_t{64} << 20;
  (void)merge_pprof(profiles, cfg, null_file());
  return 0;
}

}  // namespace readperf::fuzz
