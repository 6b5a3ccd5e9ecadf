// --switch-on EVENT / --switch-off EVENT / --show-on-off-events (util/evswitch.c), for report
// and script: samples are discarded before the --switch-on event's first sample and after
// each --switch-off event sample, until the next --switch-on one; those samples themselves
// count only with --show-on-off-events.
#pragma once

#include <string>

#include "readperf/format/error.h"
#include "readperf/reader/event_list.h"
#include "readperf/reader/event_name.h"

namespace readperf {

class EvSwitch {
 public:
  // evswitch__init(): the events by perf's names; perf's message when one is not there
  // ("ERROR: switch-on event not found (NAME)"; the caller adds perf's HINT line).
  Status init(const EventList& events, EventNames& names, const std::string& on,
              const std::string& off, bool show_on_off_events);
  // evswitch__discard(): whether a sample of `evsel` is dropped (its state moves on).
  bool discard(const Evsel& evsel);
  bool active() const { return on_ || off_; }

 private:
  const Evsel* on_ = nullptr;
  const Evsel* off_ = nullptr;
  bool discarding_ = false;
  bool show_on_off_events_ = false;
};

}  // namespace readperf
