#include "readperf/analysis/evswitch.h"

#include <fmt/format.h>

namespace readperf {

Status EvSwitch::init(const EventList& events, EventNames& names, const std::string& on,
                      const std::string& off, bool show_on_off_events) {
  auto find = [&](const std::string& name, const char* which, const Evsel*& out) -> Status {
    if (name.empty()) return {};
    // evlist__find_evsel_by_str(): the first event of that name.
    for (size_t i = 0; i < events.size(); ++i) {
      if (names.of(events[i]) == name) {
        out = &events[i];
        return {};
      }
    }
    return make_error(fmt::format("ERROR: switch-{} event not found ({})", which, name));
  };
  RETURN_IF_ERROR(find(on, "on", on_));
  RETURN_IF_ERROR(find(off, "off", off_));
  discarding_ = on_ != nullptr;
  show_on_off_events_ = show_on_off_events;
  return {};
}

bool EvSwitch::discard(const Evsel& evsel) {
  if (on_ && discarding_) {
    if (on_ != &evsel) return true;
    discarding_ = false;
    return !show_on_off_events_;
  }
  if (off_ && !discarding_) {
    if (off_ != &evsel) return false;
    discarding_ = true;
    return !show_on_off_events_;
  }
  return false;
}

}  // namespace readperf
