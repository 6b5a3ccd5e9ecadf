// The name perf prints for an event (util/evsel.c evsel__name): the recorded name when the
// file has one (EVENT_DESC, EVENT_UPDATE), else one derived from the attr the way perf does
// ("cycles", "cpu-clock", "sched:sched_switch", "raw 0x1234", with ":u"/":k"/":p" modifiers).
#pragma once

#include <string>
#include <vector>

#include "readperf/reader/event_list.h"

namespace readperf {

std::string event_name(const Evsel& evsel);

// The name perf derives from the attr alone, for an event it has no recorded name for. perf's
// `report --stats` has one in pipe mode, where it ignores EVENT_DESC and EVENT_UPDATE
// (builtin-report.c stats_setup() leaves their handlers as stubs).
std::string attr_event_name(const EventAttr& attr);

// event_name() of each event, worked out once (by Evsel::index) for the printers that name
// every sample's event.
class EventNames {
 public:
  const std::string& of(const Evsel& evsel) {
    if (names_.size() <= evsel.index) names_.resize(evsel.index + 1);
    std::string& n = names_[evsel.index];
    if (n.empty()) n = event_name(evsel);
    return n;
  }

 private:
  std::vector<std::string> names_;
};

}  // namespace readperf
