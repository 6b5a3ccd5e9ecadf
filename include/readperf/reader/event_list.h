// The events of a recording (perf's evlist): each attr with its ids and name, the map from
// sample id to event, and perf's rules for finding which event a record belongs to
// (util/evlist.c evlist__event2evsel, evlist__id2evsel).
//
//   const Evsel* ev = events.evsel_for_record(record);
//   SampleLayout::decode(ev->layout, record, order, sample);
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "readperf/format/event_attr.h"
#include "readperf/reader/record.h"
#include "readperf/reader/sample_decoder.h"

namespace readperf {

struct Evsel {
  size_t index = 0;
  EventAttr attr;
  std::vector<uint64_t> ids;
  std::string name;  // from EVENT_DESC or EVENT_UPDATE; else derived (see event_name.h)
  SampleLayout layout;
};

class EventList {
 public:
  // Adds an event; returns its index. Ids may be added later (ID_INDEX, EVENT_DESC).
  size_t add(const EventAttr& attr, std::vector<uint64_t> ids);
  void add_id(size_t evsel, uint64_t id);

  size_t size() const { return evsels_.size(); }
  bool empty() const { return evsels_.empty(); }
  Evsel& operator[](size_t i) { return *evsels_[i]; }
  const Evsel& operator[](size_t i) const { return *evsels_[i]; }
  const Evsel& first() const { return *evsels_.front(); }

  // The event a sample id belongs to, or null (evlist__id2evsel).
  const Evsel* find_id(uint64_t id) const;
  // The event a record belongs to, or null when its id is unknown (evlist__event2evsel).
  const Evsel* evsel_for_record(const RecordView& r, ByteOrder order) const;
  // evlist__id2evsel: the event of a decoded sample's id, with perf's fallbacks.
  const Evsel* evsel_for_sample_id(uint64_t id) const;

  // OR of every event's sample_type (evlist__combined_sample_type) and whether the first
  // event has sample_id_all (evlist__sample_id_all).
  uint64_t combined_sample_type() const;
  bool sample_id_all() const { return !empty() && first().attr.sample_id_all(); }
  // session.c perf_session__has_comm_exec(): an event asks for exec-flagged COMMs.
  bool has_comm_exec() const;

 private:
  std::vector<std::unique_ptr<Evsel>> evsels_;
  // id -> event index, open addressing: looked up for every record of a multi-event
  // recording, where std::unordered_map's modulo and bucket chase cost 10% of `report
  // --stats`. Slots with kNoEvent are empty.
  static constexpr uint32_t kNoEvent = ~0u;
  struct IdSlot {
    uint64_t id = 0;
    uint32_t evsel = kNoEvent;
  };
  // Adds the id unless it is known (the first event named keeps it, as with emplace()).
  bool insert_id(uint64_t id, size_t evsel);
  size_t id_slot(uint64_t id) const;  // the id's slot, or the empty one it would take
  std::vector<IdSlot> by_id_ = std::vector<IdSlot>(16);
  size_t nr_ids_ = 0;
};

}  // namespace readperf
