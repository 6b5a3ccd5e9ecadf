// The keys `report --sort` groups samples by, as perf 6.1's util/sort.c defines them: which
// samples share a histogram entry (se_cmp), in which order equal-overhead entries are listed
// (se_sort), and the column each one prints.
//
//   Result<SortSpec> spec = parse_sort_keys("comm,dso,sym");   // perf's prefixes work
//   if (!spec) fmt::print(stderr, "{}\n", spec.error().message());
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "readperf/format/error.h"
#include "readperf/reader/tracing_data.h"

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
  kCpu,          // "cpu": the sample's CPU, printed "%03d"
  kTime,         // "time": the sample's time cut to --time-quantum (100 ms), "sec.usec"
  kSymbolSize,   // "symbol_size": the symbol's size; entries of equal sizes merge, as in perf
  kSocket,       // "socket": the processor socket of the sample's CPU (CPU_TOPOLOGY), -1 none
  kDsoSize,      // "dso_size": the size of the entry's map
  kParent,       // "parent": the first call-chain symbol matching -p, "[other]" without one
  kSrcfile,      // "srcfile": the source file of the entry's address ("" when unknown)
  kTransaction,  // "transaction": PERF_SAMPLE_TRANSACTION's flags, decoded
  kCgroupId,     // "cgroup_id": the sample's namespace device and inode "dev/0xino"
  kCgroup,       // "cgroup": PERF_SAMPLE_CGROUP's path (PERF_RECORD_CGROUP)
  kAddr,         // "addr": PERF_SAMPLE_ADDR, symbolised in the sample's maps
  // The sample-value keys (sort.c sort_local_weight ... sort_code_page_size): entries are
  // the samples of equal values. The "local_" ones print the value, the others the value
  // times the entry's samples.
  kLocalWeight,     // "local_weight": PERF_SAMPLE_WEIGHT, or WEIGHT_STRUCT's first word
  kWeight,          // "weight"
  kLocalInsLat,     // "local_ins_lat": WEIGHT_STRUCT's instruction latency
  kInsLat,          // "ins_lat"
  kLocalPStageCyc,  // "local_p_stage_cyc": pipeline stage cycles, 0 on x86 (set on powerpc)
  kPStageCyc,       // "p_stage_cyc"
  kCodePageSize,    // "code_page_size": the sample's code page size, "4K" or "N/A"
  // The memory keys (sort.c memory_sort_dimensions), `--mem-mode` only: what the sample's
  // data address and data_src (PERF_SAMPLE_ADDR, DATA_SRC) say of the access.
  kSymbolDaddr,   // "symbol_daddr": the data address's symbol, or the address
  kSymbolIaddr,   // "symbol_iaddr": the instruction's symbol, by the sample's ip
  kDsoDaddr,      // "dso_daddr": the data address's shared object
  kLocked,        // "locked": data_src's mem_lock
  kTlb,           // "tlb": mem_dtlb
  kMem,           // "mem": mem_lvl (printed with lvl_num, remote and hops)
  kSnoop,         // "snoop": mem_snoop (printed with snoopx)
  kDcacheline,    // "dcacheline": not grouped by yet
  kPhysDaddr,     // "phys_daddr": PERF_SAMPLE_PHYS_ADDR
  kDataPageSize,  // "data_page_size": PERF_SAMPLE_DATA_PAGE_SIZE
  kBlocked,       // "blocked": mem_blk
  // The branch keys (sort.c bstack_sort_dimensions), perf's branch mode only: each histogram
  // entry is one branch of a sample's branch stack.
  kDsoFrom,      // "dso_from": the branch source's shared object
  kDsoTo,        // "dso_to"
  kSymFrom,      // "symbol_from": the source's function, or its address
  kSymTo,        // "symbol_to"
  kMispredict,   // "mispredict": "N" predicted, "Y" mispredicted
  kInTx,         // "in_tx": in a transaction
  kAbort,        // "abort": a transaction abort
  kCycles,       // "cycles": the basic block's cycles (LBR timed branches)
  kSrclineFrom,  // "srcline_from"
  kSrclineTo,    // "srcline_to"
  kIpcLbr,       // "ipc_lbr": what report appends to a --sort naming "symbol" in branch mode
  kAddrFrom,     // "addr_from": the source's address, "sym+off" with a symbol
  kAddrTo,       // "addr_to"
};

// sort.c's dynamic entries (hpp_dynamic_entry): a tracepoint field as a key (`-s FIELD`,
// `-s EVENT.FIELD`, `trace_fields`), SortSpec::dynamic[k - kDynamicKeyFirst].
inline constexpr uint8_t kDynamicKeyFirst = 160;
inline constexpr size_t kMaxDynamicKeys = 64;
inline bool is_dynamic_key(SortKey k) { return static_cast<uint8_t>(k) >= kDynamicKeyFirst; }
inline size_t dynamic_index(SortKey k) { return static_cast<uint8_t>(k) - kDynamicKeyFirst; }
inline SortKey dynamic_key(size_t index) { return static_cast<SortKey>(kDynamicKeyFirst + index); }

// One tracepoint field of a dynamic key.
struct DynamicField {
  uint32_t event = 0;  // the event's index: the key exists in its histogram only
  TracepointField field;
  bool raw = false;  // --raw-trace or EVENT.FIELD/raw: the raw value, not the text
};

// Whether a key reads the entries' branch (only branch mode has one).
inline bool is_branch_key(SortKey k) { return k >= SortKey::kDsoFrom && !is_dynamic_key(k); }

// Whether a key is one of `--mem-mode`'s (reads the entry's MemSample).
inline bool is_mem_key(SortKey k) { return k >= SortKey::kSymbolDaddr && k <= SortKey::kBlocked; }

// Whether a key groups by a value of the sample itself (weight, latency, page size).
inline bool is_sample_value_key(SortKey k) {
  return k >= SortKey::kLocalWeight && k <= SortKey::kCodePageSize;
}

// ui/hist.c's hpp columns (PERF_HPP__*): values of an entry, not keys that group samples.
enum class HppField : uint8_t {
  kOverheadChildren,  // "overhead_children": Children, the cumulated period
  kOverhead,          // "overhead": Overhead (Self when cumulating)
  kOverheadSys,       // "overhead_sys": the kernel-mode share of the period
  kOverheadUs,        // "overhead_us": the user-mode share
  kOverheadGuestSys,  // "overhead_guest_sys": a guest kernel's share
  kOverheadGuestUs,   // "overhead_guest_us": a guest user space's share
  kSamples,           // "sample": the number of samples
  kPeriod,            // "period": the period
  kSortKey,           // not an hpp field: the sort key `key`
};

// One output column, or one entry of perf's sort list (hist_entry__sort's order).
struct HistField {
  HppField hpp = HppField::kSortKey;
  SortKey key = SortKey::kComm;  // when hpp is kSortKey
  // The --hierarchy level of a --sort key (sort.c setup_sort_list(): keys in braces share
  // one); not part of the field's identity.
  int16_t level = 0;
  bool operator==(const HistField& o) const {
    return hpp == o.hpp && (hpp != HppField::kSortKey || key == o.key);
  }
};

struct SortSpec {
  std::vector<SortKey> keys;  // in the order given, duplicates dropped
  std::vector<DynamicField> dynamic;  // the dynamic keys' fields
  bool has(SortKey k) const;
  // perf's sort_order string as given (empty for the default): stdio's callchain printer
  // looks at it (a sort order starting with "sym" hides the first frame of single chains).
  std::string order;
  // The output columns and the output sort list as sort.c setup_sorting() makes them from
  // --sort and --fields; empty: perf's default for `keys` (see setup_sorting()).
  std::vector<HistField> columns;
  std::vector<HistField> sort_list;
  // perf_hpp_list.dso: "dso" came from the sort order (not from --fields); without it, the
  // symbol key compares DSOs first (sort.c sort__sym_cmp).
  bool dso_sorted = false;
  // Sort-key columns hidden because a filter names a single value (sort.c
  // sort__setup_elide(): "# comm: X"); they are skipped when sorting the output too.
  std::vector<SortKey> elided;
  bool fields_given = false;      // field_order != NULL: -F/--fields was given
  bool overhead_is_self = false;  // perf_hpp__init() named Overhead "Self" (Children shown)
  bool is_elided(SortKey k) const;
};

// What sort.c setup_sorting() reads besides the two orders.
struct SortingOptions {
  std::string_view sort_order;   // --sort after builtin-report.c's rewriting; empty: none
  std::string_view field_order;  // -F/--fields; empty: none
  bool cumulate = false;         // symbol_conf.cumulate_callchain
  bool show_cpu_utilization = false;
  bool show_nr_samples = false;
  bool show_total_period = false;
  // get_default_sort_order(): kDefaultTracepointSortOrder for a recording of tracepoints only.
  std::string_view default_order = "comm,dso,symbol";
  // sort__mode == SORT_MODE__BRANCH: the branch keys are valid (elsewhere "Invalid --sort
  // key").
  bool branch_mode = false;
  // sort__mode == SORT_MODE__MEMORY (`--mem-mode`): the memory keys are valid.
  bool mem_mode = false;
  // sort.c setup_sorting(): -p REGEX appends the parent key to the sort list.
  bool parent_key = false;
  // sort.c add_dynamic_entry(): the tracepoint fields a key names that is no static one
  // (`trace_fields`, `EVENT.FIELD[/raw]`, `FIELD`); nullopt when it names none (an error),
  // an empty list for `trace_fields` without tracepoints.
  std::function<std::optional<std::vector<DynamicField>>(std::string_view)> dynamic_fields;
};

// perf's default sort order for a non-tracepoint recording (sort.c default_sort_order).
inline constexpr std::string_view kDefaultSortOrder = "comm,dso,symbol";
// ... and for one whose events are all tracepoints (default_tracepoint_sort_order).
inline constexpr std::string_view kDefaultTracepointSortOrder = "trace";
// ... and in branch mode (default_branch_sort_order).
inline constexpr std::string_view kDefaultBranchSortOrder =
    "comm,dso_from,symbol_from,symbol_to,cycles";
// ... and in memory mode (default_mem_sort_order).
inline constexpr std::string_view kDefaultMemSortOrder =
    "local_weight,mem,sym,dso,symbol_daddr,dso_daddr,snoop,tlb,locked,blocked,local_ins_lat,"
    "local_p_stage_cyc";

// sort.c setup_sort_list(): keys separated by ',', ' ', '{' or '}', each matched case-insensitively
// as a prefix of a key name in perf's table order ("sym" is "symbol", "d" is "dso"). Keys perf
// knows but readperf does not group by yet are an error naming them. The branch keys are
// valid in branch mode only.
Result<SortSpec> parse_sort_keys(std::string_view order, bool branch_mode = false,
                                 bool mem_mode = false);

// sort.c setup_sorting(): the sort keys (grouping), the sort list and the output columns.
// Without --sort, the default order; with --fields and no --sort, only the fields. The
// errors are perf's ("Unknown --sort key: `x'", "Unknown --fields key: `x'").
Result<SortSpec> setup_sorting(const SortingOptions& options);

// The key's name in perf's tables ("comm", "dso", "symbol", "symbol_from", ...).
std::string_view sort_key_name(SortKey k);

// sort.c hist_entry__transaction_snprintf()'s text of PERF_SAMPLE_TRANSACTION's flags, before
// the column's padding: txbits[]'s names of the bits set ("EL ", "TX ", "SYNC ", "ASYNC ",
// "RETRY ", "CON ", "CAP-WRITE ", "CAP-READ "), "NEITHER " when neither SYNC nor ASYNC is,
// then ":" and the abort code in hex when it is not 0 ("" for 0).
std::string transaction_text(uint64_t transaction);

// sort.c hist_entry__transaction_len(): the column width an entry with flags asks for (the
// names not marked skip_for_len, and 4 for ":XX "): 32.
uint32_t transaction_len();

// The column header (sort.c se_header): "Command", "Shared Object", "Symbol",
// "    Pid:Command".
std::string_view sort_key_header(SortKey k);

}  // namespace readperf
