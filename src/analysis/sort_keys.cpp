#include "readperf/analysis/sort_keys.h"

#include <fmt/format.h>
#include <strings.h>

#include <algorithm>
#include <array>

#include "readperf/analysis/hist.h"

namespace readperf {

namespace {

struct Dimension {
  std::string_view name;
  bool supported;
  SortKey key;
};

// sort.c common_sort_dimensions[], in perf's order: a token matches the first name it is a
// prefix of, so "s" is "symbol" and "c" is "comm", as in perf.
constexpr std::array<Dimension, 26> kCommon = {{
    {"pid", true, SortKey::kPid},
    {"comm", true, SortKey::kComm},
    {"dso", true, SortKey::kDso},
    {"symbol", true, SortKey::kSymbol},
    {"parent", true, SortKey::kParent},
    {"cpu", true, SortKey::kCpu},
    {"socket", true, SortKey::kSocket},
    {"srcline", true, SortKey::kSrcline},
    {"srcfile", true, SortKey::kSrcfile},
    {"local_weight", true, SortKey::kLocalWeight},
    {"weight", true, SortKey::kWeight},
    {"transaction", true, SortKey::kTransaction},
    {"trace", true, SortKey::kTrace},
    {"symbol_size", true, SortKey::kSymbolSize},
    {"dso_size", true, SortKey::kDsoSize},
    {"cgroup", true, SortKey::kCgroup},
    {"cgroup_id", true, SortKey::kCgroupId},
    {"ipc_null", true, SortKey::kIpcNull},
    {"time", true, SortKey::kTime},
    {"code_page_size", true, SortKey::kCodePageSize},
    {"local_ins_lat", true, SortKey::kLocalInsLat},
    {"ins_lat", true, SortKey::kInsLat},
    {"local_p_stage_cyc", true, SortKey::kLocalPStageCyc},
    {"p_stage_cyc", true, SortKey::kPStageCyc},
    {"addr", true, SortKey::kAddr},
    {"", false, {}},
}};

struct HppDimension {
  std::string_view name;
  bool supported;
  HppField field;
};

// sort.c hpp_sort_dimensions[], in perf's order.
constexpr std::array<HppDimension, 8> kHpp = {{
    {"overhead", true, HppField::kOverhead},
    {"overhead_sys", true, HppField::kOverheadSys},
    {"overhead_us", true, HppField::kOverheadUs},
    {"overhead_guest_sys", true, HppField::kOverheadGuestSys},
    {"overhead_guest_us", true, HppField::kOverheadGuestUs},
    {"overhead_children", true, HppField::kOverheadChildren},
    {"sample", true, HppField::kSamples},
    {"period", true, HppField::kPeriod},
}};

bool is_prefix_nocase(std::string_view tok, std::string_view name) {
  return tok.size() <= name.size() && strncasecmp(tok.data(), name.data(), tok.size()) == 0;
}

// sort.c bstack_sort_dimensions[], looked at after the common and the hpp ones.
constexpr std::array<Dimension, 13> kBranch = {{
    {"dso_from", true, SortKey::kDsoFrom},
    {"dso_to", true, SortKey::kDsoTo},
    {"symbol_from", true, SortKey::kSymFrom},
    {"symbol_to", true, SortKey::kSymTo},
    {"mispredict", true, SortKey::kMispredict},
    {"in_tx", true, SortKey::kInTx},
    {"abort", true, SortKey::kAbort},
    {"cycles", true, SortKey::kCycles},
    {"srcline_from", true, SortKey::kSrclineFrom},
    {"srcline_to", true, SortKey::kSrclineTo},
    {"ipc_lbr", true, SortKey::kIpcLbr},
    {"addr_from", true, SortKey::kAddrFrom},
    {"addr_to", true, SortKey::kAddrTo},
}};

// sort.c memory_sort_dimensions[], looked at after the branch ones.
constexpr std::array<Dimension, 11> kMemory = {{
    {"symbol_daddr", true, SortKey::kSymbolDaddr},
    {"symbol_iaddr", true, SortKey::kSymbolIaddr},
    {"dso_daddr", true, SortKey::kDsoDaddr},
    {"locked", true, SortKey::kLocked},
    {"tlb", true, SortKey::kTlb},
    {"mem", true, SortKey::kMem},
    {"snoop", true, SortKey::kSnoop},
    {"dcacheline", true, SortKey::kDcacheline},
    {"phys_daddr", true, SortKey::kPhysDaddr},
    {"data_page_size", true, SortKey::kDataPageSize},
    {"blocked", true, SortKey::kBlocked},
}};

// sort_dimension__add() and output_field_add(): the first common dimension the token is a
// prefix of, else the first hpp dimension, else a branch key (-EINVAL outside branch mode),
// else a memory key (-EINVAL outside memory mode). `what` names the option in errors.
Result<HistField> find_field(std::string_view tok, std::string_view what, bool branch_mode,
                             bool mem_mode) {
  auto unsupported = [&] {
    return make_error(fmt::format("--{} key `{}' is not supported by readperf yet", what, tok));
  };
  for (const Dimension& d : kCommon) {
    if (d.name.empty() || !is_prefix_nocase(tok, d.name)) continue;
    if (!d.supported) return unsupported();
    return HistField{HppField::kSortKey, d.key};
  }
  for (const HppDimension& d : kHpp) {
    if (!is_prefix_nocase(tok, d.name)) continue;
    if (!d.supported) return unsupported();
    return HistField{d.field, {}};
  }
  for (const Dimension& d : kBranch) {
    if (!is_prefix_nocase(tok, d.name)) continue;
    if (!branch_mode) return make_error(fmt::format("Invalid --{} key: `{}'", what, tok));
    if (!d.supported) return unsupported();
    return HistField{HppField::kSortKey, d.key};
  }
  for (const Dimension& d : kMemory) {
    if (!is_prefix_nocase(tok, d.name)) continue;
    if (!mem_mode) return make_error(fmt::format("Invalid --{} key: `{}'", what, tok));
    if (!d.supported) return unsupported();
    if (d.key == SortKey::kDcacheline && cacheline_size() == 0) {
      return make_error(
          "The \"dcacheline\" --sort key needs to know the cacheline size and it couldn't be "
          "determined on this system");
    }
    return HistField{HppField::kSortKey, d.key};
  }
  return make_error(fmt::format("Unknown --{} key: `{}'", what, tok));
}

// strtok_r(str, ", "): the non-empty tokens.
std::vector<std::string_view> tokens(std::string_view s) {
  std::vector<std::string_view> out;
  size_t pos = 0;
  while (pos < s.size()) {
    size_t end = s.find_first_of(", ", pos);
    if (end == std::string_view::npos) end = s.size();
    if (end > pos) out.push_back(s.substr(pos, end - pos));
    pos = end + 1;
  }
  return out;
}

// sort.c setup_sort_list(): the sort order's keys, split at '{', '}', ',' and ' ', each with
// its --hierarchy level: keys between braces share one, every other separator starts the next
// (an empty token uses a level up too).
struct LeveledToken {
  std::string_view tok;
  int16_t level;
};
std::vector<LeveledToken> sort_tokens(std::string_view s) {
  std::vector<LeveledToken> out;
  int16_t level = 0;
  bool in_group = false;
  size_t pos = 0;
  while (true) {
    size_t end = s.find_first_of("{}, ", pos);
    int16_t next_level = level;
    if (end != std::string_view::npos) {
      next_level = in_group ? level : static_cast<int16_t>(level + 1);
      if (s[end] == '{') in_group = true;
      if (s[end] == '}') in_group = false;
    }
    std::string_view tok =
        s.substr(pos, end == std::string_view::npos ? s.size() - pos : end - pos);
    if (!tok.empty()) out.push_back({tok, level});
    level = next_level;
    if (end == std::string_view::npos) break;
    pos = end + 1;
  }
  return out;
}

// sort.c sort_dimension__add(): the keys arch_specific_sort_keys[] names, given whole, are
// dropped where arch_support_sort_key() says no (every arch but powerpc); a prefix of them
// still adds the key.
bool is_unsupported_arch_key(std::string_view tok) {
  return tok == "local_p_stage_cyc" || tok == "p_stage_cyc";
}

bool contains(const std::vector<HistField>& list, const HistField& f) {
  return std::find(list.begin(), list.end(), f) != list.end();
}

}  // namespace

Result<SortSpec> setup_sorting(const SortingOptions& o) {
  SortSpec spec;
  // is_strict_order(): given, and not a '+' to append to the default.
  bool strict_fields = !o.field_order.empty() && o.field_order[0] != '+';
  // __setup_sorting(): the sort order, or the default unless --fields stands alone; the
  // overhead fields prefixed unless already named (strstr, as prefix_if_not_in()).
  std::string keys;
  if (!o.sort_order.empty()) {
    keys = std::string(o.sort_order);
  } else if (!strict_fields) {
    keys = std::string(o.default_order);
  }
  if (!keys.empty() && !strict_fields) {
    if (keys.find("overhead") == std::string::npos) keys = "overhead," + keys;
    if (o.cumulate && keys.find("overhead_children") == std::string::npos) {
      keys = "overhead_children," + keys;
    }
  }
  for (auto [tok, level] : sort_tokens(keys)) {
    if (is_unsupported_arch_key(tok)) continue;
    Result<HistField> f = find_field(tok, "sort", o.branch_mode, o.mem_mode);
    if (f) f->level = level;
    if (!f && o.dynamic_fields) {
      std::optional<std::vector<DynamicField>> fields = o.dynamic_fields(tok);
      if (fields) {
        for (DynamicField& d : *fields) {
          if (spec.dynamic.size() >= kMaxDynamicKeys) {
            return make_error(fmt::format("too many tracepoint fields as sort keys (at most {})",
                                          kMaxDynamicKeys));
          }
          spec.sort_list.push_back({HppField::kSortKey, dynamic_key(spec.dynamic.size()), level});
          spec.dynamic.push_back(std::move(d));
        }
        continue;
      }
    }
    if (!f) return tl::unexpected(f.error());
    if (f->hpp == HppField::kSortKey && f->key == SortKey::kDso) spec.dso_sorted = true;
    // __sort_dimension__add(): a dimension already taken is ignored.
    if (!contains(spec.sort_list, *f)) spec.sort_list.push_back(*f);
  }
  if (o.parent_key) {
    // setup_sorting() adds it at level -1: a level of its own, after the others.
    HistField parent{HppField::kSortKey, SortKey::kParent, -1};
    if (!contains(spec.sort_list, parent)) spec.sort_list.push_back(parent);
  }
  // perf_hpp__init(): the default columns, unless --fields stands alone.
  spec.fields_given = !o.field_order.empty();
  if (!strict_fields) {
    spec.overhead_is_self = o.cumulate;
    if (o.cumulate) spec.columns.push_back({HppField::kOverheadChildren});
    spec.columns.push_back({HppField::kOverhead});
    if (o.show_cpu_utilization) {
      spec.columns.push_back({HppField::kOverheadSys});
      spec.columns.push_back({HppField::kOverheadUs});
    }
    if (o.show_nr_samples) spec.columns.push_back({HppField::kSamples});
    if (o.show_total_period) spec.columns.push_back({HppField::kPeriod});
  }
  // __setup_output_field().
  if (!o.field_order.empty()) {
    std::string_view fields = strict_fields ? o.field_order : o.field_order.substr(1);
    if (fields.empty()) return make_error("Invalid --fields key: `+'");
    for (std::string_view tok : tokens(fields)) {
      Result<HistField> f = find_field(tok, "fields", o.branch_mode, o.mem_mode);
      if (!f) return tl::unexpected(f.error());
      if (!contains(spec.columns, *f)) spec.columns.push_back(*f);
    }
  }
  // perf_hpp__setup_output_field() then perf_hpp__append_sort_keys().
  for (const HistField& f : spec.sort_list) {
    if (!contains(spec.columns, f)) spec.columns.push_back(f);
  }
  for (const HistField& f : spec.columns) {
    if (!contains(spec.sort_list, f)) spec.sort_list.push_back(f);
  }
  for (const HistField& f : spec.sort_list) {
    if (f.hpp == HppField::kSortKey && !spec.has(f.key)) spec.keys.push_back(f.key);
  }
  spec.order = std::string(o.sort_order);
  return spec;
}

bool SortSpec::has(SortKey k) const { return std::find(keys.begin(), keys.end(), k) != keys.end(); }

bool SortSpec::is_elided(SortKey k) const {
  return std::find(elided.begin(), elided.end(), k) != elided.end();
}

Result<SortSpec> parse_sort_keys(std::string_view order, bool branch_mode, bool mem_mode) {
  SortSpec spec;
  spec.order = std::string(order);
  for (auto [tok, level] : sort_tokens(order)) {
    if (is_unsupported_arch_key(tok)) continue;
    Result<HistField> f = find_field(tok, "sort", branch_mode, mem_mode);
    if (!f) return tl::unexpected(f.error());
    if (f->hpp != HppField::kSortKey)
      return make_error(fmt::format("Unknown --sort key: `{}'", tok));
    // sort.c __sort_dimension__add(): a dimension already taken is ignored.
    if (!spec.has(f->key)) spec.keys.push_back(f->key);
  }
  spec.dso_sorted = spec.has(SortKey::kDso);
  if (spec.keys.empty()) return make_error("no --sort key given");
  return spec;
}

std::string_view sort_key_name(SortKey k) {
  for (const Dimension& d : kCommon) {
    if (d.supported && d.key == k) return d.name;
  }
  for (const Dimension& d : kBranch) {
    if (d.supported && d.key == k) return d.name;
  }
  for (const Dimension& d : kMemory) {
    if (d.supported && d.key == k) return d.name;
  }
  return {};
}

namespace {

// sort.c txbits[]: the flag, its name, and whether hist_entry__transaction_len() leaves it
// out of the column width (include/uapi/linux/perf_event.h PERF_TXN_*).
struct TxBit {
  uint64_t flag;
  std::string_view name;
  bool skip_for_len;
};
constexpr std::array<TxBit, 8> kTxBits = {{
    {1 << 0, "EL ", false},        // PERF_TXN_ELISION
    {1 << 1, "TX ", true},         // PERF_TXN_TRANSACTION
    {1 << 2, "SYNC ", true},       // PERF_TXN_SYNC
    {1 << 3, "ASYNC ", false},     // PERF_TXN_ASYNC
    {1 << 4, "RETRY ", false},     // PERF_TXN_RETRY
    {1 << 5, "CON ", false},       // PERF_TXN_CONFLICT
    {1 << 6, "CAP-WRITE ", true},  // PERF_TXN_CAPACITY_WRITE
    {1 << 7, "CAP-READ ", false},  // PERF_TXN_CAPACITY_READ
}};
constexpr uint64_t kTxnSyncAsync = (1 << 2) | (1 << 3);
constexpr uint64_t kTxnAbortMask = 0xffffffffull << 32;  // PERF_TXN_ABORT_MASK
constexpr int kTxnAbortShift = 32;                       // PERF_TXN_ABORT_SHIFT

}  // namespace

std::string transaction_text(uint64_t t) {
  std::string out;
  for (const TxBit& b : kTxBits) {
    if (b.flag & t) out += b.name;
  }
  if (t && !(t & kTxnSyncAsync)) out += "NEITHER ";
  if (t & kTxnAbortMask) out += fmt::format(":{:x}", (t & kTxnAbortMask) >> kTxnAbortShift);
  return out;
}

uint32_t transaction_len() {
  size_t len = 0;
  for (const TxBit& b : kTxBits) {
    if (!b.skip_for_len) len += b.name.size();
  }
  return static_cast<uint32_t>(len + 4);  // ":XX<space>"
}

std::string_view sort_key_header(SortKey k) {
  switch (k) {
    case SortKey::kPid:
      return "    Pid:Command";
    case SortKey::kComm:
      return "Command";
    case SortKey::kDso:
      return "Shared Object";
    case SortKey::kSymbol:
      return "Symbol";
    case SortKey::kIpcNull:
      return "IPC   [IPC Coverage]";
    case SortKey::kSrcline:
      return "Source:Line";
    case SortKey::kTrace:
      return "Trace output";
    case SortKey::kCpu:
      return "CPU";
    case SortKey::kTime:
      return "Time";
    case SortKey::kSymbolSize:
      return "Symbol size";
    case SortKey::kSocket:
      return "Socket";
    case SortKey::kDsoSize:
      return "DSO size";
    case SortKey::kParent:
      return "Parent symbol";
    case SortKey::kSrcfile:
      return "Source File";
    case SortKey::kTransaction:
      return "Transaction                ";
    case SortKey::kCgroupId:
      return "cgroup id (dev/inode)";
    case SortKey::kCgroup:
      return "Cgroup";
    case SortKey::kAddr:
      return "Address";
    case SortKey::kLocalWeight:
      return "Local Weight";
    case SortKey::kWeight:
      return "Weight";
    case SortKey::kLocalInsLat:
      return "Local INSTR Latency";
    case SortKey::kInsLat:
      return "INSTR Latency";
    case SortKey::kLocalPStageCyc:
      return "Local Pipeline Stage Cycle";
    case SortKey::kPStageCyc:
      return "Pipeline Stage Cycle";
    case SortKey::kCodePageSize:
      return "Code Page Size";
    case SortKey::kSymbolDaddr:
      return "Data Symbol";
    case SortKey::kSymbolIaddr:
      return "Code Symbol";
    case SortKey::kDsoDaddr:
      return "Data Object";
    case SortKey::kLocked:
      return "Locked";
    case SortKey::kTlb:
      return "TLB access";
    case SortKey::kMem:
      return "Memory access";
    case SortKey::kSnoop:
      return "Snoop";
    case SortKey::kDcacheline:
      return "Data Cacheline";
    case SortKey::kPhysDaddr:
      return "Data Physical Address";
    case SortKey::kDataPageSize:
      return "Data Page Size";
    case SortKey::kBlocked:
      return "Blocked";
    case SortKey::kDsoFrom:
      return "Source Shared Object";
    case SortKey::kDsoTo:
      return "Target Shared Object";
    case SortKey::kSymFrom:
      return "Source Symbol";
    case SortKey::kSymTo:
      return "Target Symbol";
    case SortKey::kMispredict:
      return "Branch Mispredicted";
    case SortKey::kInTx:
      return "Branch in transaction";
    case SortKey::kAbort:
      return "Transaction abort";
    case SortKey::kCycles:
      return "Basic Block Cycles";
    case SortKey::kSrclineFrom:
      return "From Source:Line";
    case SortKey::kSrclineTo:
      return "To Source:Line";
    case SortKey::kIpcLbr:
      return "IPC   [IPC Coverage]";
    case SortKey::kAddrFrom:
      return "Source Address";
    case SortKey::kAddrTo:
      return "Target Address";
  }
  return "";
}

}  // namespace readperf
