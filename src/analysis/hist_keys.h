// The comparisons of sort.c's keys that read one entry's own values (sample values, memory
// accesses, cgroups, transactions, addresses), shared by the histogram's lookup
// (hist_insert.cpp make_key()) and its ordering (hist_entry__cmp(), hist_entry__sort()).
#pragma once

#include <cstdint>
#include <string_view>

#include "readperf/analysis/hist.h"

namespace readperf {

// strcmp()'s sign for two names.
inline int name_cmp(std::string_view a, std::string_view b) {
  int c = a.compare(b);
  return c < 0 ? -1 : c > 0 ? 1 : 0;
}

// sort.c cmp_null(): 0 when both are null, -1 when only `l` is.
inline int cmp_null(const void* l, const void* r) {
  if (!l && !r) return 0;
  return !l ? -1 : 1;
}

inline int sign64(int64_t v) { return v < 0 ? -1 : v > 0 ? 1 : 0; }

inline int field_cmp(uint64_t a, uint64_t b) { return a > b ? 1 : a < b ? -1 : 0; }

// The value a sample-value key (is_sample_value_key()) groups by.
uint64_t sample_value(SortKey key, const SampleValues& v);

// The word a memory key compares (all but dso_daddr and dcacheline).
uint64_t mem_key_value(SortKey key, const MemSample& m);

// The words the dcacheline key groups by (kDcachelineWords of them at `w`): entries whose
// words are equal are those sort__dcacheline_cmp() finds equal.
inline constexpr size_t kDcachelineWords = 4;
void put_dcacheline_key(uint64_t* w, const MemSample& m, uint8_t cpumode, const Thread* thread);

// sort.c sort__dcacheline_cmp(left = x, right = y) as a sign.
int dcacheline_cmp(const HistEntry& x, const MemSample& xm, const HistEntry& y,
                   const MemSample& ym);

// The keys compared by a field of the entry alone: cpu, time, symbol_size, socket, dso_size,
// parent, srcfile, the sample values, transaction, cgroup_id, cgroup, addr (se_cmp(left,
// right), positive when `a` sorts first).
int value_key_cmp(SortKey key, const HistEntry& a, const HistEntry& b);

// Whether value_key_cmp() compares the key.
bool is_entry_value_key(SortKey key);

}  // namespace readperf
