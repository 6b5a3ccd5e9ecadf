#include "readperf/reader/event_list.h"

#include "readperf/format/perf_abi.h"

namespace readperf {

size_t EventList::add(const EventAttr& attr, std::vector<uint64_t> ids) {
  auto ev = std::make_unique<Evsel>();
  ev->index = evsels_.size();
  ev->attr = attr;
  ev->layout = SampleLayout::for_attr(attr);
  for (uint64_t id : ids) insert_id(id, ev->index);
  ev->ids = std::move(ids);
  evsels_.push_back(std::move(ev));
  return evsels_.size() - 1;
}

void EventList::add_id(size_t evsel, uint64_t id) {
  if (evsel >= evsels_.size()) return;
  if (insert_id(id, evsel)) evsels_[evsel]->ids.push_back(id);
}

size_t EventList::id_slot(uint64_t id) const {
  size_t mask = by_id_.size() - 1;
  // Fibonacci hashing: kernel ids are consecutive numbers, spread over the table.
  size_t i = ((id * 0x9e3779b97f4a7c15ull) >> 32) & mask;
  while (by_id_[i].evsel != kNoEvent && by_id_[i].id != id) i = (i + 1) & mask;
  return i;
}

bool EventList::insert_id(uint64_t id, size_t evsel) {
  size_t at = id_slot(id);
  if (by_id_[at].evsel != kNoEvent) return false;
  if ((nr_ids_ + 1) * 2 > by_id_.size()) {
    std::vector<IdSlot> old(by_id_.size() * 2);
    old.swap(by_id_);
    for (const IdSlot& e : old) {
      if (e.evsel != kNoEvent) by_id_[id_slot(e.id)] = e;
    }
    at = id_slot(id);
  }
  by_id_[at] = IdSlot{id, static_cast<uint32_t>(evsel)};
  ++nr_ids_;
  return true;
}

const Evsel* EventList::find_id(uint64_t id) const {
  const IdSlot& e = by_id_[id_slot(id)];
  return e.evsel == kNoEvent ? nullptr : evsels_[e.evsel].get();
}

const Evsel* EventList::evsel_for_record(const RecordView& r, ByteOrder order) const {
  if (evsels_.empty()) return nullptr;
  const Evsel& first = *evsels_.front();
  if (evsels_.size() == 1) return &first;
  if (!first.attr.sample_id_all() && r.type != kRecordSample) return &first;
  // evlist.c evlist__event2id(): the id's position comes from the first event's layout.
  int64_t n = static_cast<int64_t>((r.bytes.size() - kRecordHeaderSize) / 8);
  int64_t word;
  if (r.type == kRecordSample) {
    if (first.layout.id_pos() < 0) return &first;
    word = first.layout.id_pos();
    if (word >= n) return nullptr;
  } else {
    if (first.layout.is_pos() < 0) return &first;
    if (first.layout.is_pos() > n) return nullptr;
    word = n - first.layout.is_pos();
  }
  U64Array body(r.bytes.subspan(kRecordHeaderSize), order);
  uint64_t id = body[static_cast<size_t>(word)];
  if (id == 0) return &first;  // synthesized records carry id 0
  return find_id(id);
}

const Evsel* EventList::evsel_for_sample_id(uint64_t id) const {
  if (evsels_.empty()) return nullptr;
  if (evsels_.size() == 1 || id == 0) return evsels_.front().get();
  if (const Evsel* ev = find_id(id)) return ev;
  if (!sample_id_all()) return evsels_.front().get();
  return nullptr;
}

uint64_t EventList::combined_sample_type() const {
  uint64_t t = 0;
  for (const auto& ev : evsels_) t |= ev->attr.sample_type;
  return t;
}

bool EventList::has_comm_exec() const {
  for (size_t i = 0; i < size(); ++i) {
    if ((*this)[i].attr.comm_exec()) return true;
  }
  return false;
}

}  // namespace readperf
