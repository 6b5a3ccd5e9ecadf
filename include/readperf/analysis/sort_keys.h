// The keys `report --sort` groups samples by, as perf 6.1's util/sort.c defines them: which
// samples share a histogram entry (se_cmp), in which order equal-overhead entries are listed
// (se_sort), and the column each one prints.
//
//   Result<SortSpec> spec = parse_sort_keys("comm,dso,sym");   // perf's prefixes work
//   if (!spec) fmt::print(stderr, "{}\n", spec.error().message());
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "readperf/format/error.h"

namespace readperf {

enum class SortKey : uint8_t {
  kPid,     // "pid": the thread, printed "  tid:comm"
  kComm,    // "comm": the command name at sample time
  kDso,     // "dso": the shared object's short name (long name with -v)
  kSymbol,  // "symbol": the function, or the address when unresolved
  // "ipc_null": what builtin-report.c appends to a --sort naming "symbol" when there is no
  // branch data; groups as "symbol" does and prints "-      -".
  kIpcNull,
  // "srcline": sort.c sort_srcline, "file.c:123" from the DWARF line table (else "sym+off").
  kSrcline,
  // "trace": a tracepoint sample's formatted fields (sort.c sort_trace, "N/A" for other
  // events); the default of a recording of tracepoints only.
  kTrace,
};

struct SortSpec {
  std::vector<SortKey> keys;  // in the order given, duplicates dropped
  bool has(SortKey k) const;
  // perf's sort_order string as given (empty for the default): stdio's callchain printer
  // looks at it (a sort order starting with "sym" hides the first frame of single chains).
  std::string order;
};

// perf's default sort order for a non-tracepoint recording (sort.c default_sort_order).
inline constexpr std::string_view kDefaultSortOrder = "comm,dso,symbol";
// ... and for one whose events are all tracepoints (default_tracepoint_sort_order).
inline constexpr std::string_view kDefaultTracepointSortOrder = "trace";

// sort.c setup_sort_list(): keys separated by ',' or ' ', each matched case-insensitively as
// a prefix of a key name in perf's table order ("sym" is "symbol", "d" is "dso"). Keys perf
// knows but readperf does not group by yet are an error naming them.
Result<SortSpec> parse_sort_keys(std::string_view order);

// The column header (sort.c se_header): "Command", "Shared Object", "Symbol",
// "    Pid:Command".
std::string_view sort_key_header(SortKey k);

}  // namespace readperf
