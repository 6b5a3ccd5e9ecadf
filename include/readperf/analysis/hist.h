// One event's histogram as perf report builds it (util/hist.c): samples grouped into entries
// by the sort keys, each with its own period (Self/Overhead), the period of the samples whose
// call chains pass through it (Children, in cumulative mode), and its call-chain tree.
//
//   Hists hists(config);                     // one per event
//   for (each resolved sample) hists.add(hs);
//   hists.finish();                          // perf's collapse and output resort
//   for (uint32_t id : hists.order()) print(hists.entry(id));
//
// Entries live in a vector and are found by a flat hash table of their key words, so a sample
// costs a hash probe per entry it touches and allocates nothing once its entries exist.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "readperf/analysis/call_tree.h"
#include "readperf/analysis/sample_selection.h"
#include "readperf/analysis/sort_keys.h"
#include "readperf/reader/sample.h"

namespace readperf {

class BranchCycles;
class RbOrder;
class CgroupTable;

struct Thread;

// kHistFilterDso, kHistFilterThread, kHistFilterSymbol: sample_selection.h.
// HIST_FILTER__SOCKET.
inline constexpr uint8_t kHistFilterSocket = 1 << 6;
// HIST_FILTER__PARENT (-x/--exclude-other: samples without a parent symbol).
inline constexpr uint8_t kHistFilterParent = 1 << 7;

// sort.c __sort__hde_cmp()'s bytes of a dynamic key's field in a sample's raw data.
std::string_view dynamic_field_bytes(const TracepointField& f, std::string_view raw);

struct HistConfig {
  SortSpec sort;
  // The event this histogram is of (its index): the dynamic keys of other events are
  // skipped here (sort.c perf_hpp__defined_dynamic_entry()).
  uint32_t event = ~0u;
  bool children = false;       // symbol_conf.cumulate_callchain
  bool use_callchain = false;  // symbol_conf.use_callchain: entries keep call-chain trees
  bool caller_order = false;   // callchain_param.order == ORDER_CALLER
  bool verbose = false;        // DSOs by long name (sort.c under verbose)
  // Under verbose, the letter of where a DSO's symbols came from, which the symbol columns
  // show before the level (sort.c _hist_entry__sym_snprintf()).
  std::function<char(const Dso*)> symtab_origin;
  // ... and the address printed there: map__unmap_ip() of it for a kernel DSO whose symbols
  // were adjusted (a vmlinux's maps), the address itself otherwise (unset: always).
  std::function<uint64_t(const Dso*, uint64_t)> verbose_rip;
  bool show_nr_samples = false;
  // symbol_conf.group_sort_idx (--group-sort-idx N): a group's entries ordered by its Nth
  // event first (ui/hist.c __hpp__group_sort_idx()); 0: by the leader.
  int group_sort_idx = 0;
  bool filter_relative = false;  // symbol_conf.filter_relative: --percentage relative
  // hists->symbol_filter_str (--symbol-filter): entries whose symbol name does not contain
  // it are filtered when the histogram is collapsed, i.e. when "comm" is a sort key.
  std::string symbol_filter;
  // hists->socket_filter (--socket-filter): entries of other sockets are filtered at the same
  // point; -1: none.
  int32_t socket_filter = -1;
  uint64_t time_quantum = 100'000'000;  // symbol_conf.time_quantum (--time-quantum), ns
  bool nanosecs = false;                // --ns: "time" entries print nanoseconds
  // perf 7.x labels every entry that a call-chain frame with a map creates as user-level
  // ("[.]", even for [kernel.kallsyms]) where perf 6.1 says "[k]". Set for recordings made by
  // perf 7 or later, whose users compare with that perf's report.
  bool callchain_entries_user_level = false;
  // perf's branch mode (sort__mode == SORT_MODE__BRANCH): samples come with a branch each
  // (HistSample::branch), the branch keys group them.
  bool branch_mode = false;
  // `--mem-mode` (hist_iter_mem): each entry keeps its first sample's MemSample.
  bool mem_mode = false;
  // symbol_conf.report_hierarchy (--hierarchy): finish() also builds perf's tree of entries,
  // a level per sort key (hist.c hists__hierarchy_insert_entry()).
  bool hierarchy = false;
  // The HIST_FILTER bits of the lists given (--comms/--pid/--tid, --dsos, --symbols): the
  // hierarchy's filter marks follow them (hist.c hist_entry__check_and_remove_filter()).
  uint8_t filter_lists = 0;
  // hist.c evsel__output_resort_cb()'s use_callchain: the entries' call graphs are sorted,
  // and printed, only for an event that records call chains, unless --show-ref-call-graph.
  bool chains_sorted = true;
  // callchain_param.key (`-g address|srcline`) and the srcline texts ChainFrame::srcline
  // indexes (owned by the caller, alive as long as the histogram).
  ChainKey chain_key = ChainKey::kFunction;
  const std::vector<std::string_view>* chain_srclines = nullptr;
  // The session's cgroup paths (PERF_RECORD_CGROUP), read when the report prints `--sort
  // cgroup` (owned by the caller, alive as long as the histogram); null: none.
  const CgroupTable* cgroups = nullptr;
  // symbol_conf.show_branchflag_count (`--branch-history` on a recording with the
  // BRANCH_STACK feature): call-tree frames count the branches that made them
  // (HistFrame::branch), printed after each call-graph line.
  bool show_branchflag_count = false;
};

// One entry of perf's --hierarchy tree: the entries of its parent's with the same value of
// its level's sort key, merged.
class Hists;

struct HierarchyNode {
  static constexpr uint32_t kNoNode = ~0u;
  // Its values (the sums) and keys (the first entry's that made it: hist_entry__new(he)),
  // in Hists::entries() after the samples' entries.
  uint32_t entry = 0;
  uint32_t parent = kNoNode;
  uint32_t depth = 0;              // its level, 0 at the top
  bool leaf = false;               // the last level: its entry keeps the call chain
  std::vector<uint32_t> children;  // in output order (hists__hierarchy_output_resort())
  // A group member's node the leader lacks (add_dummy_hierarchy_entry()) keeps the member's
  // level keys (he->hpp_list = pair->hpp_list): the member's Hists; null for the node's own.
  const Hists* keys_of = nullptr;
};

// One end of a branch, resolved (perf's addr_map_symbol from sample__resolve_bstack()).
struct BranchAddr {
  uint64_t addr = 0;         // as recorded
  uint64_t al_addr = 0;      // map-relative (the address itself without a map)
  const Dso* dso = nullptr;  // the map's DSO; null without a map
  const Symbol* sym = nullptr;
  char level = 'H';          // the cpumode the address was found in ('H': none)
  std::string_view srcline;  // interned; only with srcline_from/srcline_to
};

// perf's branch_info: a branch stack entry with both ends resolved.
struct BranchInfo {
  BranchAddr from, to;
  uint64_t flags = 0;  // struct perf_branch_entry's flag bits, as BranchFlags reads them
  bool mispred() const { return BranchFlags(flags).mispred(); }
  bool predicted() const { return BranchFlags(flags).predicted(); }
  bool in_tx() const { return BranchFlags(flags).in_tx(); }
  bool abort() const { return BranchFlags(flags).abort(); }
  uint16_t cycles() const { return static_cast<uint16_t>(BranchFlags(flags).cycles()); }
};

// One resolved address as the histogram sees it (perf's addr_location after machine__resolve
// or fill_callchain_info).
struct HistFrame {
  ChainFrame chain;          // ip as recorded, dso, symbol
  uint64_t addr = 0;         // map-relative (al->addr): what an entry without symbol shows
  uint64_t sym_addr = 0;     // the address in the symbol's coordinates (Frame::sym_addr)
  char level = 0;            // 'k', '.', ...; 0 for a call-chain frame with neither map nor symbol
  uint64_t map_size = 0;     // map__size() of the frame's map, 0 without one (--sort dso_size)
  std::string_view srcfile;  // interned; only with --sort srcfile
  // The srcline, interned (equal strings, equal pointers); only with --sort srcline.
  std::string_view srcline;
  // The frame's map (Map::id), 0 without one: perf compares map pointers.
  uint32_t map_id = 0;
  // For an inline frame, the symbol table's function it was inlined into (the symbol
  // srcline.c new_inline_sym() gave its range); null otherwise.
  const Symbol* enclosing_sym = nullptr;
  // What `--sort addr` compares and prints (sort.c sort__addr_cmp(): map->unmap_ip(map,
  // he->ip)): the sample's own address unmapped from its map-relative form, i.e. the ip;
  // a call-chain frame's he->ip is already the ip, and perf unmaps it once more.
  uint64_t unmapped_ip = 0;
  // A call-chain frame a branch made, with show_branchflag_count.
  ChainBranch branch;
};

// What one sample brings (hist_entry_iter__add's inputs).
// One end of a memory access as machine.c ip__resolve_data() / ip__resolve_ams() resolve it.
struct MemAddr {
  uint64_t addr = 0;            // as recorded
  uint64_t al_addr = 0;         // map-relative (the address itself without a map)
  const Dso* dso = nullptr;     // the map's DSO; null without a map
  const Symbol* sym = nullptr;  // the symbol the address is in, a data object's too
  uint64_t sym_offset = 0;      // addr - map->unmap_ip(sym->start)
  uint32_t map_prot = 0;        // the map's PROT_* and MAP_* bits (MMAP2), 0 without one
  uint32_t map_flags = 0;
};

// util/cacheline.c cacheline_size(): the L1 data cache line size of the machine perf runs
// on (a recording does not say the recorder's), 0 when unknown.
uint64_t cacheline_size();
// cl_address(): the start of the cache line holding `addr`.
inline uint64_t cl_address(uint64_t addr) { return addr & ~(cacheline_size() - 1); }

// perf's mem_info (machine.c sample__resolve_mem()): what the `--mem-mode` keys read.
struct MemSample {
  MemAddr daddr;  // PERF_SAMPLE_ADDR, found in the thread's maps (thread__find_symbol)
  MemAddr iaddr;  // the sample's ip
  uint64_t phys_addr = 0;
  uint64_t data_page_size = 0;
  uint64_t data_src = 0;  // union perf_mem_data_src
};

// The sample's own values the sample-value keys group by (hist.c __hists__add_entry():
// he->weight, ins_lat, p_stage_cyc, code_page_size).
struct SampleValues {
  uint64_t weight = 0;
  uint64_t code_page_size = 0;
  uint16_t ins_lat = 0;
  uint16_t p_stage_cyc = 0;
};

struct HistSample {
  const Thread* thread = nullptr;
  std::string_view comm;  // thread__comm() when the sample is processed
  // The comm is the thread's default ":tid", which its first COMM will rename in place
  // (comm__override): perf's entries point at that comm and print its final name.
  bool placeholder_comm = false;
  HistFrame self;  // the sample's own address
  // The callchain cursor in perf's order for this report: leaf first (callee order) or
  // root first (caller order). Empty without a call chain.
  std::span<const HistFrame> chain;
  uint64_t period = 0;
  uint8_t filtered = 0;  // HIST_FILTER bits from --comms/--dsos/--symbols
  uint8_t cpumode = 0;   // PERF_RECORD_MISC_CPUMODE: which of period_sys/us it counts in
  // The `trace` key's text, interned (equal strings, equal pointers); null data for a sample
  // of an event that is not a tracepoint ("N/A").
  // The tracepoint sample's raw data, for the dynamic keys (he->raw_data).
  std::string_view raw;
  std::string_view trace;
  uint32_t cpu = 0;     // sample->cpu (--sort cpu)
  int32_t socket = -1;  // al->socket: the CPU's socket in the recording's topology (--sort socket)
  // The first call-chain symbol that matched the parent pattern (machine.c add_callchain_ip()
  // *parent), for the parent key; null: "[other]".
  const Symbol* parent = nullptr;
  uint64_t time = 0;  // hist_time(sample->time): cut to the time quantum (--sort time)
  // Branch mode: the branch this entry is for (iter_add_next_branch_entry); `self` is its
  // target.
  const BranchInfo* branch = nullptr;
  // `chain` is not the sample's: it has none, and perf's callchain cursor still holds the
  // last chain resolved (callchain.c sample__resolve_callchain() returns before resetting it),
  // which the Children walk then reads. The sample's own entry appends no chain.
  bool stale_chain = false;
  SampleValues values;             // the sample-value keys' values
  const MemSample* mem = nullptr;  // `--mem-mode`: the access
  uint64_t transaction = 0;        // PERF_SAMPLE_TRANSACTION (--sort transaction)
  uint64_t cgroup = 0;             // PERF_SAMPLE_CGROUP's id (--sort cgroup)
  // The thread's cgroup namespace at sample time (--sort cgroup_id: hist.c
  // __hists__add_entry() reads thread__namespaces()).
  uint64_t cgroup_ns_dev = 0;
  uint64_t cgroup_ns_ino = 0;
};

struct HistEntry {
  const Thread* thread = nullptr;  // the first sample's: "pid" prints it, widths use its comm
  uint32_t comm = 0;               // Hists::comm_name(comm)
  const Dso* dso = nullptr;
  const Symbol* sym = nullptr;
  uint64_t ip = 0;  // he->ip: al->addr of the frame that made the entry
  // map->unmap_ip(map, sym->start): the symbol's start as an address, what a data symbol's
  // offset is counted from (sort.c _hist_entry__sym_snprintf).
  uint64_t sym_base = 0;
  char level = '.';
  uint8_t cpumode = 0;       // he->cpumode: the sample's PERF_RECORD_MISC_CPUMODE
  std::string_view srcline;  // he->srcline
  std::string_view raw;      // he->raw_data, interned (with dynamic keys)
  std::string_view trace;    // he->trace_output (HistSample::trace)
  uint32_t cpu = 0;
  int32_t socket = -1;
  uint64_t map_size = 0;
  const Symbol* parent = nullptr;
  std::string_view srcfile;  // he->srcfile
  uint64_t time = 0;
  uint8_t filtered = 0;
  uint64_t period = 0;      // self
  uint64_t nr_events = 0;   // self samples
  uint64_t period_sys = 0;  // self period of kernel-mode samples (he_stat.period_sys)
  uint64_t period_us = 0;   // self period of user-mode samples
  uint64_t period_guest_sys = 0;  // of a guest's kernel-mode samples
  uint64_t period_guest_us = 0;   // of a guest's user-mode samples
  uint64_t acc_period = 0;
  uint64_t acc_events = 0;
  CallTree::NodeId chain_root = CallTree::kNone;
  uint32_t max_depth = 0;  // callchain_root.max_depth
  uint64_t stamp = 0;      // the last sample that touched it (cumulative de-duplication)
  uint32_t map_id = 0;     // he->ms.map: the map of the last frame that matched it
  SampleValues values;     // the first sample's (equal in all when a value key sorts)
  uint64_t transaction = 0;                       // he->transaction
  uint64_t cgroup = 0;                            // he->cgroup
  uint64_t cgroup_ns_dev = 0, cgroup_ns_ino = 0;  // he->cgroup_id
  uint64_t unmapped_ip = 0;                       // HistFrame::unmapped_ip (--sort addr)
};

class Hists {
 public:
  explicit Hists(const HistConfig& config);
  ~Hists();

  // builtin-report.c process_sample_event() from hist_entry_iter__add() on: the normal or
  // the cumulative iterator. With `plan`, also what the sample touched, for replay().
  void add(const HistSample& s, std::vector<uint32_t>* plan = nullptr);
  // What add() did for an earlier sample, again for `count` samples of `period` in all:
  // valid while the entries the plan names are those the samples would reach (RepeatCache's
  // contract). Only sums change, so replays may come in any order and late.
  void replay(std::span<const uint32_t> plan, uint64_t period, uint64_t count = 1);
  // Whether lookups walk perf's own entries_in tree (start_entries_in()): every sample must
  // then be added, none replayed.
  bool walks_entries_in() const { return entries_in_ != nullptr; }
  // builtin-report.c report__collapse_hists() for an event group's leader (perf's group view,
  // symbol_conf.event_group): hists__match() pairs each entry with the members' entries of the
  // same keys, hists__link() adds a zero "dummy" entry for a member's entry the leader lacks.
  // `members` are the group's other events in order (null: never sampled), finished; they
  // must outlive this. Before this one's finish(), once: the output order then compares the
  // members' values too.
  void link_group(std::vector<const Hists*> members);
  // hists__collapse_resort() and hists__output_resort(): the entries in printing order,
  // trees finished.
  void finish();

  // The group view's columns (after link_group()): 1 + the members, the member `m` (0 for
  // the first after the leader; null when never sampled) and entry `id`'s pair there.
  static constexpr uint32_t kNoPair = ~0u;
  size_t group_size() const { return 1 + members_.size(); }
  const Hists* member(size_t m) const { return members_[m]; }
  uint32_t pair(uint32_t id, size_t m) const { return pairs_[m][id]; }
  // Branch mode: entry `id`'s branch (he->branch_info).
  const BranchInfo& branch(uint32_t id) const { return branches_[id]; }
  // `--mem-mode`: entry `id`'s access (he->mem_info).
  const MemSample& mem(uint32_t id) const { return mems_[id]; }

  const HistConfig& config() const { return config_; }
  // Branch mode's IPC column: the symbols' IPC (the report session's, set when it is done).
  void set_branch_cycles(const BranchCycles* cycles) { branch_cycles_ = cycles; }
  const BranchCycles* branch_cycles() const { return branch_cycles_; }
  const std::vector<HistEntry>& entries() const { return entries_; }
  const HistEntry& entry(uint32_t id) const { return entries_[id]; }
  // Entry ids in perf's output order (after finish()).
  const std::vector<uint32_t>& order() const { return order_; }
  // --hierarchy (after finish()): the tree's nodes, its top level in output order, and its
  // levels' keys (ui/hist.c add_hierarchy_fmt(): the keys of one --sort level that apply to
  // this event, compared in turn; a level with none is no level here).
  const std::vector<HierarchyNode>& hierarchy() const { return hierarchy_; }
  const std::vector<uint32_t>& hierarchy_roots() const { return hierarchy_roots_; }
  const std::vector<std::vector<SortKey>>& hierarchy_levels() const { return hierarchy_levels_; }
  // The levels' copies of a dynamic key: the largest __data_loc field size their collapse
  // comparisons met (hde->dynamic_len of the hierarchy's format copies).
  size_t hierarchy_dynamic_len(SortKey key) const {
    size_t i = dynamic_index(key);
    return i < hierarchy_dynamic_len_.size() ? hierarchy_dynamic_len_[i] : 0;
  }
  std::string_view comm_name(uint32_t id) const { return comms_[id]; }
  const CallTree& tree() const { return tree_; }

  uint64_t nr_samples() const { return nr_samples_; }
  // The session's cgroup paths (HistConfig::cgroups), empty without one.
  const CgroupTable& cgroups() const;
  // Whether perf compared two entries of this histogram: it formats the entries' trace text
  // (sort.c sort__trace_cmp) and finds their srcfile (sort__srcfile_cmp) lazily, on the first
  // comparison, which a histogram that was given a single sample never makes (those columns
  // keep their header's width, srcfile prints "(null)").
  bool entries_compared() const { return lookups_ > 1; }
  uint64_t total_period() const { return total_period_; }
  // hists->stats.nr_non_filtered_samples and total_non_filtered_period (after finish()):
  // the samples and period of the entries no filter hides.
  uint64_t nr_non_filtered_samples() const { return nr_non_filtered_samples_; }
  uint64_t total_non_filtered_period() const { return total_non_filtered_period_; }
  // hists__total_period(): the total percentages are of (--percentage relative: the
  // unfiltered entries').
  uint64_t percent_total() const {
    return config_.filter_relative ? total_non_filtered_period_ : total_period_;
  }
  // hists->callchain_period: the self periods of entries that keep call chains.
  uint64_t callchain_period() const { return callchain_period_; }
  // The call-graph threshold's base (output_resort()): callchain_period, or under
  // --percentage relative that of the unfiltered entries.
  uint64_t callchain_total() const {
    return config_.filter_relative ? callchain_non_filtered_period_ : callchain_period_;
  }
  // perf's name for a DSO in this report: short, or long under --verbose.
  std::string_view dso_name(const Dso* dso) const;

 private:
  // The words hist_entry__cmp() compares; the sort keys use the first key_words_ (every key
  // once, the symbol's shared: room for every key perf knows given together).
  static constexpr size_t kMaxKeyWords = 80 + kMaxDynamicKeys;
  struct Key {
    uint64_t w[kMaxKeyWords];  // make_key() writes the first key_words_
  };
  bool same_key(const uint64_t* a, const uint64_t* b) const;
  uint64_t key_hash(const uint64_t* k) const;
  // Entry `id`'s key words, key_words_ of them.
  const uint64_t* stored_key(uint32_t id) const { return key_store_.data() + id * key_words_; }
  Key make_key(uint32_t comm, const Thread* t, const HistFrame& f, uint64_t ip, uint32_t dso_id,
               const HistSample& s);
  uint32_t intern_comm(std::string_view comm);
  // The dynamic keys: raw data interned per entry, a field's bytes interned as its key word.
  std::string_view intern_raw(std::string_view raw);
  uint64_t dynamic_word(SortKey key, std::string_view raw);
  // __sort__hde_cmp(); with `any_event`, even for another event's field (a hierarchy
  // level's format compares whatever entries it meets: an event group's members').
  int dynamic_cmp(SortKey key, const HistEntry& a, const HistEntry& b,
                  bool any_event = false) const;

 public:
  // sort.c hde->dynamic_len as the comparisons left it: the largest dynamic field size
  // compared, for the column width.
  size_t dynamic_len(SortKey key) const {
    size_t i = dynamic_index(key);
    return i < dynamic_len_.size() ? dynamic_len_[i] : 0;
  }

 private:
  uint32_t placeholder_comm(const Thread* t, std::string_view comm);
  // The placeholder comms renamed as their threads' first COMMs renamed them, and the entries
  // that then share every key merged (hists__collapse_resort()).
  void rename_placeholder_comms();
  uint32_t dso_name_id(const Dso* dso);
  uint32_t parent_name_id(const Symbol* parent);
  uint32_t findnew(const Key& key, const HistSample& s, const HistFrame& f, uint64_t ip,
                   uint32_t comm, bool& created);
  void grow_table();
  // findnew()'s parts: a candidate entry appended for the frame; kept (its call tree root, key
  // and table slot); the lookup in perf's own tree (start_entries_in()), which keeps or drops
  // the candidate; whether it equals an entry this sample already added to (he_cache).
  uint32_t stage(const HistSample& s, const HistFrame& f, uint64_t ip, uint32_t comm);
  uint32_t commit(uint32_t id, const Key& key, const HistSample& s);
  uint32_t place(uint32_t cand, const Key& key, const HistSample& s, const HistFrame& f,
                 bool& created);
  bool cached_duplicate(uint32_t cand) const;
  // From the first inline symbol a Children entry is looked up for: hists->entries_in
  // replayed, and kept from then on (perf's lookups there are no longer exact).
  void start_entries_in();
  // hists__collapse_insert_entry(): `src`'s stats and call chains added to `dst`, `src` left
  // empty and marked merged.
  void merge_entry(uint32_t dst, uint32_t src);
  // hist_entry__cmp() (entries_in and collapse trees) and hist_entry__sort() (output): the
  // sign of perf's comparison, positive when the first goes first.
  // Across two histograms of one report (a group's leader and member: their comm and DSO
  // name tables differ).
  static int collapse_cmp(const Hists& hx, uint32_t x, const Hists& hy, uint32_t y);
  // One sort key's part of it (se_collapse, se_cmp where there is none).
  static int key_collapse_cmp(SortKey key, const Hists& hx, uint32_t x, const Hists& hy,
                              uint32_t y);
  // hierarchy_insert_entry(): a level's keys in turn, the first that tells x and y apart.
  static int level_collapse_cmp(const std::vector<SortKey>& keys, const Hists& hx, uint32_t x,
                                const Hists& hy, uint32_t y);
  // hist_entry.c's hierarchy: hists__hierarchy_insert_entry() for each entry of `entries_in`
  // (filter bits as the samples left them), then hists__hierarchy_output_resort()
  // (hist_hierarchy.cpp).
  void build_hierarchy(const std::vector<uint32_t>& entries_in,
                       const std::vector<uint8_t>& sample_filtered);
  // hist.c hists__match_hierarchy() and hists__link_hierarchy() for member `m`: its nodes
  // paired with the leader's of the same keys level by level, a dummy node for each of its
  // nodes the leader lacks, into the trees of children (hierarchy_in_).
  void link_hierarchy(size_t m);
  // The keys node `node` (at `depth`) compares and prints with: its level's, or for a group
  // member's dummy node, that member's.
  const std::vector<SortKey>& level_keys(uint32_t node, uint32_t depth) const;
  // hists__add_dummy_entry()'s copy of `other`'s entry `oid`: its keys, no period.
  HistEntry dummy_of(const Hists& other, uint32_t oid);
  // Appends `e`, made from entry `from_id` of `from` (this one or another), with that
  // entry's branch and memory sample, which the keys read by entry id; `e`'s id.
  uint32_t append_entry(const HistEntry& e, const Hists& from, uint32_t from_id);
  int collapse_cmp(uint32_t x, uint32_t y) const { return collapse_cmp(*this, x, *this, y); }
  int output_cmp(uint32_t a, uint32_t b) const;
  int sort_key_cmp(SortKey key, uint32_t a, uint32_t b) const;
  // The bstack se_cmp functions of sort.c for one branch key.
  static int branch_cmp(SortKey key, const Hists& hx, uint32_t x, const Hists& hy, uint32_t y);
  static int mem_cmp(SortKey key, const Hists& hx, uint32_t x, const Hists& hy, uint32_t y);
  // ui/hist.c __hpp__sort(): with a group, the members' values after the leader's.
  int group_cmp(uint32_t a, uint32_t b, uint64_t HistEntry::*field) const;

  HistConfig config_;
  const BranchCycles* branch_cycles_ = nullptr;
  std::vector<HistEntry> entries_;
  std::vector<uint64_t> key_store_;  // the entries' keys, key_words_ words each
  size_t key_words_ = 0;
  std::vector<BranchInfo> branches_;  // by entry, in branch mode
  std::vector<MemSample> mems_;       // by entry, in memory mode
  std::vector<uint32_t> table_;       // entry ids, ~0u empty; open addressing
  std::vector<uint32_t> order_;
  CallTree tree_;
  std::vector<ChainFrame> scratch_;
  std::vector<ChainBranch> branch_scratch_;  // with show_branchflag_count
  std::vector<CallTree::NodeId> leaves_;

  std::vector<std::string> comms_;
  std::unordered_map<std::string, uint32_t> comm_ids_;
  std::unordered_map<const Thread*, uint32_t> placeholder_ids_;  // ids outside comm_ids_
  std::vector<bool> merged_;  // by entry id: merged into another by finish()
  int comm_word_ = -1;        // the Key word holding the comm id, -1 without a comm key
  std::vector<std::string_view> dso_names_;  // by name id; 0 is "no dso"
  std::unordered_map<std::string_view, uint32_t> dso_name_ids_;
  std::unordered_map<std::string_view, uint32_t> parent_name_ids_;  // 0: no parent
  std::unordered_map<const Dso*, uint32_t> dso_ids_;
  const Dso* last_dso_ = nullptr;
  uint32_t last_dso_id_ = 0;

  std::vector<HierarchyNode> hierarchy_;
  std::unordered_set<std::string> raw_store_;    // the entries' raw data (dynamic keys)
  std::unordered_set<std::string> field_store_;  // the dynamic keys' field bytes
  mutable std::vector<size_t> dynamic_len_;      // hde->dynamic_len, by dynamic key
  std::vector<RbOrder> hierarchy_in_;  // each node's children as inserted; [0] the top level
  std::vector<uint32_t> hierarchy_roots_;
  std::vector<std::vector<SortKey>> hierarchy_levels_;
  std::vector<size_t> hierarchy_dynamic_len_;

  std::vector<const Hists*> members_;
  std::vector<std::vector<uint32_t>> pairs_;  // [member][entry]: the member's entry id
  uint32_t linked_from_ = ~0u;                // the first of link_group()'s dummy entries

  uint64_t nr_samples_ = 0;
  uint64_t total_period_ = 0;
  uint64_t callchain_period_ = 0;
  uint64_t nr_non_filtered_samples_ = 0;
  uint64_t callchain_non_filtered_period_ = 0;
  uint64_t total_non_filtered_period_ = 0;
  uint64_t stamp_ = 0;
  uint64_t lookups_ = 0;  // hists__findnew_entry() calls (and replayed ones)
  bool has_dso_key_ = false;
  bool has_sym_key_ = false;  // hists__has(hists, sym)
  // perf's hists->entries_in, kept once inline symbols make lookups inexact; null before.
  std::unique_ptr<RbOrder> entries_in_;
  // hist.c iter_add_next_cumulative_entry() checks a frame against the entries the sample
  // already added with a he_tmp that has no .time and none of the sample's values (weight,
  // ins_lat, p_stage_cyc, code_page_size): when a sort key reads one that is not 0, the
  // check never matches, and a frame met twice (recursion, the sample's own ip) counts twice.
  bool he_tmp_differs(const HistSample& s) const;
  std::vector<uint32_t> he_cache_;  // the entries the current sample added to (tree mode)
  bool by_time_ = false;            // the time key is sorted on
};

}  // namespace readperf
