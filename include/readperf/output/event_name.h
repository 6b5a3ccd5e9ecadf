// The name perf prints for an event (util/evsel.c evsel__name): the recorded name when the
// file has one (EVENT_DESC, EVENT_UPDATE), else one derived from the attr the way perf does
// ("cycles", "cpu-clock", "sched:sched_switch", "raw 0x1234", with ":u"/":k"/":p" modifiers).
#pragma once

#include <string>

#include "readperf/reader/event_list.h"

namespace readperf {

std::string event_name(const Evsel& evsel);

}  // namespace readperf
