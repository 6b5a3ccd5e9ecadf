// session.c evlist__deliver_sample(): a sample that reads its counters (PERF_SAMPLE_READ) is
// delivered once per counter that moved since the last sample, with that counter's event and
// growth as the period (deliver_sample_value()). One helper for every consumer of samples.
//
//   CounterDeltas deltas;
//   deltas.split(sample, evsel, data.events(), [&](const Evsel& ev, uint64_t id, uint64_t p) {
//     ...;
//   });
#pragma once

#include <cstdint>
#include <unordered_map>

#include "readperf/format/perf_abi.h"
#include "readperf/reader/event_list.h"
#include "readperf/reader/sample.h"

namespace readperf {

class CounterDeltas {
 public:
  // Calls deliver(event, id, period) for each counter of `s` (read with `evsel`'s
  // read_format) whose value grew; counters of unknown ids are skipped.
  template <typename Deliver>
  void split(const Sample& s, const Evsel& evsel, const EventList& events, Deliver&& deliver) {
    uint64_t rf = evsel.attr.read_format;
    auto one = [&](const ReadValue& v) {
      const Evsel* ev = events.find_id(v.id);
      if (!ev) return;
      uint64_t& last = last_[v.id];
      uint64_t period = v.value - last;
      last = v.value;
      if (period) deliver(*ev, v.id, period);
    };
    if (rf & kFormatGroup) {
      for (uint64_t i = 0; i < s.read.group_nr; ++i) one(s.read.group_value(i, rf));
    } else {
      one(s.read.one);
    }
  }

 private:
  std::unordered_map<uint64_t, uint64_t> last_;  // each counter's value at its last sample
};

}  // namespace readperf
