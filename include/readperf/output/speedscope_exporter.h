// `export --format speedscope`: the folded stacks as a speedscope file
// (https://www.speedscope.app/file-format-schema.json, the schema the `speedscope` npm package
// ships as dist/release/file-format-schema.json). One "sampled" profile per event, named after
// it, whose samples are the distinct stacks (the process name as the root frame, as in the
// collapsed export) weighted by their periods (nanoseconds for the software clocks, unitless
// otherwise) or, with `count_samples`, by their number of samples. The frames are shared by the
// profiles. The stacks are folded by the collapsed export's rules, so the memory grows with
// the distinct stacks, not the samples.
#pragma once

#include <cstdio>

#include "readperf/output/collapsed_exporter.h"

namespace readperf {

// `config.collapse.event_root` is set by the exporter; the other collapse options apply.
Status run_speedscope_export(PerfData& data, CollapsedConfig config, OutBuffer& out, FILE* err);

// The speedscope unit of an event's periods: the software clocks count nanoseconds.
const char* speedscope_unit(std::string_view event, bool count_samples);

}  // namespace readperf
