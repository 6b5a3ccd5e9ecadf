// Byte-swapping perf.data records, attrs and feature sections: the bytes a reader of the other
// byte order needs to get back the values this side holds. The rules are the inverse of what
// perf 6.1 does when it reads a file of the other order (util/session.c perf_event__*_swap,
// evsel.c evsel__parse_sample, header.c process_*), so perf prints for the swapped file what
// it prints for the original, including where perf leaves fields unswapped (KSYMBOL and
// BPF_EVENT bodies, attr.clockid and sample_regs_intr, the BUILD_ID pid, HEADER_FEATURE's id).
// Every conversion is its own inverse: from the swapped side it gives native bytes back.
//
//   std::vector<std::byte> out;
//   swap_record(record.bytes, data.order(), &evsel->attr, events.sample_id_all(), out);
//
// The reader's dump uses it too: perf's report -D prints a record of the other byte order as
// perf swapped it in place. Feature sections: readperf/reader/feature_swap.h.
#pragma once

#include <cstdint>
#include <vector>

#include "readperf/format/byte_cursor.h"
#include "readperf/format/event_attr.h"

namespace readperf {

// Appends `record` (header included, in `from` order) to `out` in the other order. `attr` is
// the record's event (null when its id names none: the sample_id trailer is then swapped as
// u64 words); `sample_id_all` is the first event's (evlist__sample_id_all), which decides
// whether perf swaps the trailers at all.
enum class SwapMode {
  // The bytes perf's reader turns back into the values (what the writer writes).
  kForReader,
  // A record of the other order as perf holds it after swapping it in place, which its
  // report -D prints: u32 pairs (pid/tid, cpu) stay swapped as u64 words, KSYMBOL and
  // BPF_EVENT trailers as they are.
  kPerfInPlace,
};
void swap_record(Bytes record, ByteOrder from, const EventAttr* attr, bool sample_id_all,
                 std::vector<std::byte>& out, SwapMode mode = SwapMode::kForReader);

// Appends an attr as `bytes` bytes (64..144) in `order` (perf's perf_event_attr layout;
// fields past `bytes` dropped, past the EventAttr zero).
void write_attr(const EventAttr& attr, uint32_t bytes, ByteOrder order,
                std::vector<std::byte>& out);

class Transcoder;
// perf_event__attr_swap() over the next `bytes` bytes of `t`.
void swap_attr_fields(Transcoder& t, size_t bytes);

// A branch entry's flags word as perf's reader of the other order needs it stored (after its
// u64 swap): the inverse of evsel.c evsel__bitfield_swap_branch_flags().
uint64_t unswap_branch_flags(uint64_t le_flags);

}  // namespace readperf
