// `readperf symbolize IN.pb.gz -o OUT.pb.gz`: an unsymbolized pprof profile (`export --format
// pprof --no-symbolize`: addresses, and mappings with their file names and build-ids) given
// its functions, inline frames and source lines, from the symbol sources of `config` (the
// build-id cache, symbol archives, debuginfod, local files, kallsyms). The result is the same
// bytes as `export --format pprof` of the recording with the same sources: the mappings become
// the session's maps again and every address goes through the same Resolver.
//
//   SymbolizeConfig cfg;
//   cfg.symbols = SymbolConfig::from_environment();
//   Status st = symbolize_pprof(bytes, cfg, out_file);   // bytes: gzipped or bare profile.proto
//
// Profiles of other tools without functions are symbolized too, by their mappings (without
// inline frames: which addresses were unwound from a stack only readperf's say).
#pragma once

#include <cstdio>
#include <string_view>

#include "readperf/format/error.h"
#include "readperf/symbols/symbol_config.h"

namespace readperf {

struct SymbolizeConfig {
  SymbolConfig symbols;
  bool gzip = true;  // false: the bare protobuf bytes out
  // The most a gzipped profile may inflate to.
  uint64_t max_size = uint64_t{1} << 32;
};

// Refuses a profile that has functions already, or that cannot be decoded (naming the offset).
Status symbolize_pprof(std::string_view profile, const SymbolizeConfig& config, FILE* out);

}  // namespace readperf
