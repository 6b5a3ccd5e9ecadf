// The dynamic sort keys (tracepoint fields, sort.c hde_*): a field's bytes in a sample's raw
// data, interned as an entry's key word, and __sort__hde_cmp().
#include <algorithm>
#include <cstring>

#include "readperf/analysis/hist.h"

namespace readperf {

std::string_view Hists::intern_raw(std::string_view raw) { return *raw_store_.emplace(raw).first; }

// sort.c __sort__hde_cmp()'s bytes: the field's, or a dynamic field's data (where its
// __data_loc word says, from `raw`'s own word).
std::string_view dynamic_field_bytes(const TracepointField& f, std::string_view raw) {
  uint64_t offset = f.offset;
  uint64_t size = f.size;
  if (f.is_dynamic) {
    uint32_t word = 0;
    if (f.offset + 4 <= raw.size()) std::memcpy(&word, raw.data() + f.offset, 4);
    offset = word & 0xffff;
    size = (word >> 16) & 0xffff;
    if (f.is_relative) offset += f.offset + f.size;
  }
  if (offset >= raw.size()) return {};
  return raw.substr(offset, std::min<uint64_t>(size, raw.size() - offset));
}

uint64_t Hists::dynamic_word(SortKey key, std::string_view raw) {
  const DynamicField& d = config_.sort.dynamic[dynamic_index(key)];
  // perf_hpp__defined_dynamic_entry(): another event's field is no key here.
  if (d.event != config_.event) return 0;
  return reinterpret_cast<uintptr_t>(
      field_store_.emplace(dynamic_field_bytes(d.field, raw)).first->data());
}

int Hists::dynamic_cmp(SortKey key, const HistEntry& a, const HistEntry& b, bool any_event) const {
  const DynamicField& d = config_.sort.dynamic[dynamic_index(key)];
  if (d.event != config_.event && !any_event) return 0;
  // __sort__hde_cmp(): memcmp(a's bytes, b's bytes at a's place and size); a dynamic field's
  // size widens its column (hde->dynamic_len) only where perf compares.
  std::string_view x = dynamic_field_bytes(d.field, a.raw);
  // Another event's field past the end of a's raw data: perf's memcmp reads beyond it
  // (whatever lies there); readperf counts that as a difference.
  if (d.event != config_.event && !d.field.is_dynamic && x.size() < d.field.size) return 1;
  if (d.field.is_dynamic) {
    if (dynamic_len_.size() <= dynamic_index(key)) dynamic_len_.resize(dynamic_index(key) + 1);
    size_t& len = dynamic_len_[dynamic_index(key)];
    len = std::max(len, x.size());
  }
  const char* base = a.raw.data();
  const size_t at = x.data() && base ? static_cast<size_t>(x.data() - base) : 0;
  std::string_view y = at < b.raw.size() ? b.raw.substr(at, x.size()) : std::string_view();
  const size_t n = std::min(x.size(), y.size());
  int c = n ? std::memcmp(x.data(), y.data(), n) : 0;
  if (!c && x.size() != y.size()) c = x.size() < y.size() ? -1 : 1;
  return c < 0 ? -1 : c > 0 ? 1 : 0;
}

}  // namespace readperf
