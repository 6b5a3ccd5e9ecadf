// A resolved sample's pieces as histogram keys: its frames (HistFrame), branch and memory
// addresses (machine.c ip__resolve_ams(), sample__resolve_mem()), socket and filter bits,
// and the call chain's walk for the parent key and --ignore-callees (machine.c
// add_callchain_ip()).
#include "report_sink.h"

namespace readperf {

// The order perf's dso pointers compare in: creation order in the machine's table.
int32_t ReportSink::dso_order(const Dso* d) {
  if (!d) return -1;
  auto it = dso_order_.find(d);
  if (it != dso_order_.end()) return it->second;
  const auto& all = machine_.dsos().all();
  for (; indexed_ < all.size(); ++indexed_) {
    dso_order_.emplace(&all[indexed_], static_cast<int32_t>(indexed_));
  }
  it = dso_order_.find(d);
  if (it != dso_order_.end()) return it->second;
  int32_t id = static_cast<int32_t>(1'000'000 + dso_order_.size());
  dso_order_.emplace(d, id);
  return id;
}

HistFrame ReportSink::hist_frame(const Frame& f, bool chain) {
  HistFrame h;
  if (with_srcfile_) h.srcfile = resolver_.srcfile(f, chain);
  h.chain.ip = f.ip;
  h.chain.dso = f.dso;
  h.chain.sym = f.sym;
  h.chain.dso_order = dso_order(f.dso);
  h.addr = f.addr;
  h.sym_addr = f.sym_addr;
  h.level = f.level;
  h.map_size = f.map ? f.map->end - f.map->start : 0;
  h.map_id = f.map ? f.map->id : 0;
  h.enclosing_sym = f.enclosing_sym;
  // sort.c sort__addr_cmp(): he->ip unmapped by the entry's map. The sample's own he->ip is
  // al->addr (map-relative); a call-chain entry's is the ip itself (callchain.c
  // fill_callchain_info()), which perf unmaps all the same.
  uint64_t he_ip = chain ? f.ip : f.addr;
  h.unmapped_ip = f.map ? f.map->unmap_ip(he_ip) : he_ip;
  if (setup_.hist.show_branchflag_count) h.branch = f.branch;
  if (chain && setup_.hist.chain_key != ChainKey::kFunction) {
    std::string_view node_srcline =
        resolver_.callchain_srcline(f, setup_.hist.chain_key == ChainKey::kAddress);
    h.chain.srcline = chain_srcline_id(node_srcline);
    // hist.c iter_add_next_cumulative_entry(): fill_callchain_info() gives the entry the
    // cursor node's srcline (machine.c callchain_srcline(): show_sym off), which --sort
    // srcline then shows instead of computing its own (sort.c sort__srcline_cmp()).
    if (with_srcline_ && node_srcline.data()) h.srcline = node_srcline;
  }
  // hist.c: an entry per call-chain frame only for Children (iter_add_next_cumulative_entry()).
  if (with_srcline_ && !h.srcline.data()) {
    h.srcline = resolver_.srcline(f, chain, srcline_asked_ && (!chain || setup_.hist.children));
  }
  return h;
}

// ChainFrame::srcline: an index into SessionState::chain_srclines (0 for none), texts the
// resolver interned (equal texts, one pointer).
uint32_t ReportSink::chain_srcline_id(std::string_view s) {
  if (!s.data()) return 0;
  std::vector<std::string_view>& texts = state_->chain_srclines;
  auto [it, added] = chain_srcline_ids_.try_emplace(s.data(), static_cast<uint32_t>(texts.size()));
  if (added) texts.push_back(s);
  return it->second;
}

// machine.c ip__resolve_ams(): a branch address may be on either side of the kernel
// boundary, so perf tries each cpumode (the guest ones find nothing in a host report:
// level 'H'). With srcline_from/srcline_to, sort.c addr_map_symbol__srcline():
// map__srcline() at the map-relative address, "??:0" without a map.
// `f`: the address as Resolver::resolve_any_cpumode() found it.
BranchAddr ReportSink::branch_addr(const Frame& f, uint64_t ip) {
  BranchAddr a;
  a.addr = ip;
  a.al_addr = ip;
  if (f.map) {
    a.al_addr = f.addr;
    a.dso = f.dso;
    a.sym = f.sym;
    a.level = f.level;
  }
  if (with_branch_srclines_) a.srcline = resolver_.srcline(f.map ? f : Frame{}, false);
  return a;
}

MemAddr ReportSink::mem_addr(const Frame& f, uint64_t addr) {
  MemAddr a;
  a.addr = addr;
  a.al_addr = f.map ? f.addr : addr;
  if (!f.map) return a;
  a.dso = f.dso;
  a.sym = f.sym;
  if (f.sym) a.sym_offset = f.sym_addr - f.sym->start;
  a.map_prot = f.map->prot;
  a.map_flags = f.map->flags;
  return a;
}

// machine.c sample__resolve_mem(): the instruction by ip__resolve_ams() (any cpumode), the
// data address by ip__resolve_data() (thread__find_symbol() in the sample's cpumode).
MemSample ReportSink::resolve_mem(const Thread& t, const Sample& s) {
  MemSample m;
  m.iaddr = mem_addr(resolver_.resolve_any_cpumode(t, s.ip), s.ip);
  m.daddr = mem_addr(resolver_.resolve_addr(t, static_cast<uint8_t>(s.cpumode()), s.addr), s.addr);
  m.phys_addr = s.phys_addr;
  m.data_page_size = s.data_page_size;
  m.data_src = s.data_src;
  return m;
}

// hist.c __hists__add_entry(): the sample's transaction and cgroup, the thread's cgroup
// namespace as its latest NAMESPACES record left it.
void ReportSink::set_sample_keys(HistSample& hs, const Sample& s, const Thread& t) {
  hs.transaction = s.transaction;
  hs.cgroup = s.cgroup;
  hs.cgroup_ns_dev = t.cgroup_ns_dev;
  hs.cgroup_ns_ino = t.cgroup_ns_ino;
}

// event.c machine__resolve(): al->socket is env->cpu[cpu].socket_id, -1 for an unrecorded
// CPU or a recording without the topology's per-CPU ids.
int32_t ReportSink::socket_of(uint32_t cpu) const {
  const auto& topo = pd_.features().cpu_topology;
  if (static_cast<int32_t>(cpu) < 0 || !topo || !topo->cpus || cpu >= topo->cpus->size()) {
    return -1;
  }
  return (*topo->cpus)[cpu].socket_id;
}

uint8_t ReportSink::filter_bits(const Thread& t, const HistFrame& f, bool has_map,
                                uint8_t cpumode) const {
  // event.c machine__resolve() and thread.h thread__is_filtered().
  const SampleSelection& sel = setup_.selection;
  return sel.thread_bits(t) | sel.dso_bits(has_map, f.chain.dso) |
         sel.symbol_bits(has_map, f.chain.sym, f.chain.ip) | SampleSelection::guest_bits(cpumode);
}

// machine.c add_callchain_ip(): the first chain entry in walk order whose symbol matches
// the parent pattern (not an inline frame, nor one unwound from a user stack copy).
const Symbol* ReportSink::chain_parent(const ResolvedSample& rs) const {
  const size_t n = rs.callchain.size();
  for (size_t i = 0; i < n; ++i) {
    const size_t at = setup_.hist.caller_order ? n - 1 - i : i;
    const Frame& f = rs.callchain[at];
    if (f.inlined || !f.sym || at >= rs.unwound_begin) continue;
    if (parent_.matches(f.sym->name)) return f.sym;
  }
  return nullptr;
}

// machine.c add_callchain_ip(), for each chain entry with a symbol in walk order: the
// first that matches the parent pattern is the sample's parent; else one that matches
// --ignore-callees replaces the sample's location (root_al, a fresh addr_location: its
// filter bits are 0) and resets the cursor, so the chain restarts at it (the last match
// wins). Inline frames are no chain entries (they are appended after the check), nor are
// the frames unwound from a user stack copy (unwind_entry() appends them unchecked).
void ReportSink::scan_chain(const ResolvedSample& rs, HistSample& hs) {
  size_t n = frames_.size(), match = n;
  const Frame* root = nullptr;
  for (size_t i = 0; i < n; ++i) {
    const size_t at = setup_.hist.caller_order ? rs.callchain.size() - 1 - i : i;
    const Frame& f = rs.callchain[at];
    if (f.inlined || !f.sym || at >= rs.unwound_begin) continue;
    if (by_parent_ && !hs.parent && parent_.matches(f.sym->name)) {
      hs.parent = f.sym;
    } else if (ignore_callees_ && ignore_callees_.matches(f.sym->name)) {
      match = i;
      root = &f;
    }
  }
  if (!root) return;
  frames_.erase(frames_.begin(), frames_.begin() + static_cast<std::ptrdiff_t>(match));
  hs.self = hist_frame(*root, false);
  hs.filtered = 0;
  hs.cpumode = root->cpumode;
}

}  // namespace readperf
