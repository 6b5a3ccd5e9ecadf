// A recording read into the profile model (readperf/analysis/profile.h): every sample resolved
// once by the sample stream the exporters share (the session, the Resolver, read-format samples
// split per counter), its event names perf's.
//
//   ProfileReadConfig cfg;
//   cfg.symbols = SymbolConfig::from_environment();
//   ProfileRead r = read_profile(*data, cfg);
//   if (!r.status) warn(r.status.error().message());  // r.profile holds what came before
#pragma once

#include <cstdint>

#include "readperf/analysis/profile.h"
#include "readperf/analysis/sample_selection.h"
#include "readperf/format/error.h"
#include "readperf/reader/perf_data.h"
#include "readperf/symbols/symbol_config.h"

namespace readperf {

struct ProfileReadConfig {
  SymbolConfig symbols;
  uint32_t max_stack = 127;
  SampleSelection selection;  // the samples exported (default: all)
  ProfileOptions model;
};

struct ProfileRead {
  Profile profile;
  // The reading's outcome: on an error, `profile` holds the samples before the damage.
  Status status;
};

ProfileRead read_profile(PerfData& data, const ProfileReadConfig& config);

}  // namespace readperf
