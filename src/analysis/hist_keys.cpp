// sort.c's comparisons of the keys that read an entry's own values (hist_keys.h).
#include "hist_keys.h"

#include <sys/mman.h>
#include <unistd.h>

#include "readperf/session/dso.h"
#include "readperf/session/thread.h"
#include "readperf/symbols/symbol_table.h"

namespace readperf {

uint64_t cacheline_size() {
  // util/cacheline.c: sysconf(_SC_LEVEL1_DCACHE_LINESIZE) of the machine perf runs on, once.
  static const uint64_t size = [] {
    long n = sysconf(_SC_LEVEL1_DCACHE_LINESIZE);
    return n > 0 ? static_cast<uint64_t>(n) : uint64_t{0};
  }();
  return size;
}

namespace {

// dsos.c dso_id__empty(): no device, inode or generation (anonymous memory, synthesized maps
// without MMAP2).
bool dso_id_empty(const Dso& d) { return !d.maj && !d.min && !d.ino && !d.ino_generation; }

// dsos.c dso__cmp_id() (__dso_id__cmp(), empty ids included): major, minor, inode, and the
// generations when both have one.
int dso_id_cmp(const Dso& a, const Dso& b) {
  if (int c = field_cmp(a.maj, b.maj)) return c;
  if (int c = field_cmp(a.min, b.min)) return c;
  if (int c = field_cmp(a.ino, b.ino)) return c;
  if (a.ino_generation && b.ino_generation) return field_cmp(a.ino_generation, b.ino_generation);
  return 0;
}

constexpr uint8_t kCpumodeKernel = 1;  // PERF_RECORD_MISC_KERNEL

// sort__dcacheline_cmp(): user-space anonymous memory (not the kernel's, not shared, in a
// map of no file) is told apart by process, as its addresses are the process's own.
bool anon_user(const MemAddr& a, uint8_t cpumode) {
  return cpumode != kCpumodeKernel && !(a.map_flags & MAP_SHARED) && dso_id_empty(*a.dso);
}

}  // namespace

// The word a memory key compares (sort.c's sort__*_cmp of memory_sort_dimensions): data_src's
// bit fields as union perf_mem_data_src lays them out (include/uapi/linux/perf_event.h).
uint64_t mem_key_value(SortKey key, const MemSample& m) {
  switch (key) {
    case SortKey::kSymbolDaddr:
      return m.daddr.addr;
    case SortKey::kSymbolIaddr:
      return m.iaddr.addr;
    case SortKey::kLocked:
      return m.data_src >> 24 & 0x3;  // mem_lock
    case SortKey::kTlb:
      return m.data_src >> 26 & 0x7f;  // mem_dtlb
    case SortKey::kMem:
      return m.data_src >> 5 & 0x3fff;  // mem_lvl (not lvl_num: sort__lvl_cmp)
    case SortKey::kSnoop:
      return m.data_src >> 19 & 0x1f;  // mem_snoop (not snoopx)
    case SortKey::kPhysDaddr:
      return m.phys_addr;
    case SortKey::kDataPageSize:
      return m.data_page_size;
    case SortKey::kBlocked:
      return m.data_src >> 40 & 0x7;  // mem_blk
    default:
      return 0;
  }
}

uint64_t sample_value(SortKey key, const SampleValues& v) {
  switch (key) {
    case SortKey::kLocalWeight:
    case SortKey::kWeight:
      return v.weight;
    case SortKey::kLocalInsLat:
    case SortKey::kInsLat:
      return v.ins_lat;
    case SortKey::kLocalPStageCyc:
    case SortKey::kPStageCyc:
      return v.p_stage_cyc;
    case SortKey::kCodePageSize:
      return v.code_page_size;
    default:
      return 0;
  }
}

void put_dcacheline_key(uint64_t* w, const MemSample& m, uint8_t cpumode, const Thread* thread) {
  const MemAddr& a = m.daddr;
  uint64_t first = cpumode;
  w[1] = w[2] = 0;
  if (a.dso) {
    first |= 1 << 8;
    // The generation is left out: a generation missing on one side keeps two ids equal
    // (__dso_id__cmp()).
    w[1] = uint64_t{a.dso->maj} << 32 | a.dso->min;
    w[2] = a.dso->ino;
    if (anon_user(a, cpumode) && thread) {
      first |= 1 << 9 | uint64_t{static_cast<uint32_t>(thread->pid)} << 32;
    }
  }
  w[0] = first;
  w[3] = cl_address(a.al_addr);
}

int dcacheline_cmp(const HistEntry& x, const MemSample& xm, const HistEntry& y,
                   const MemSample& ym) {
  // sort.c sort__dcacheline_cmp(left = x, right = y): event types (cpumodes) together, the
  // larger first; then the maps' files; anonymous user memory by process; then the cache
  // line of the map-relative address, the higher first.
  if (int c = field_cmp(x.cpumode, y.cpumode)) return -c;
  const MemAddr& l = xm.daddr;
  const MemAddr& r = ym.daddr;
  if (l.dso || r.dso) {
    if (!l.dso) return -1;
    if (!r.dso) return 1;
    if (int c = dso_id_cmp(*l.dso, *r.dso)) return -c;
    if (anon_user(l, x.cpumode)) {
      int32_t lp = x.thread ? x.thread->pid : -1;
      int32_t rp = y.thread ? y.thread->pid : -1;
      if (lp != rp) return lp > rp ? -1 : 1;
    }
  }
  return -field_cmp(cl_address(l.al_addr), cl_address(r.al_addr));
}

int value_key_cmp(SortKey key, const HistEntry& a, const HistEntry& b) {
  switch (key) {
    case SortKey::kCpu:
      // sort.c sort__cpu_cmp(): right->cpu - left->cpu, as an int.
      return sign64(static_cast<int64_t>(static_cast<int32_t>(b.cpu - a.cpu)));
    case SortKey::kTime:
      return sign64(static_cast<int64_t>(b.time - a.time));
    case SortKey::kSymbolSize: {
      // sort.c _sort__sym_size_cmp(right, left): sizes compared, no symbol is size 0.
      uint64_t sa = a.sym ? a.sym->end - a.sym->start : 0;
      uint64_t sb = b.sym ? b.sym->end - b.sym->start : 0;
      return sb < sa ? -1 : sb == sa ? 0 : 1;
    }
    case SortKey::kSocket:
      // sort.c sort__socket_cmp(): right->socket - left->socket.
      return sign64(int64_t{b.socket} - int64_t{a.socket});
    case SortKey::kDsoSize:
      // sort.c _sort__dso_size_cmp(right map, left map).
      return b.map_size < a.map_size ? -1 : b.map_size == a.map_size ? 0 : 1;
    case SortKey::kParent:
      // sort.c sort__parent_cmp(): null first, then strcmp(right, left).
      if (!a.parent || !b.parent) return cmp_null(a.parent, b.parent);
      return name_cmp(b.parent->name, a.parent->name);
    case SortKey::kSrcfile:
      // sort.c sort__srcfile_cmp(): strcmp(right, left).
      return name_cmp(b.srcfile, a.srcfile);
    // sort.c sort__weight_cmp(), sort__ins_lat_cmp(), sort__p_stage_cyc_cmp(): left's minus
    // right's (the larger value first), as an int64_t.
    case SortKey::kLocalWeight:
    case SortKey::kWeight:
    case SortKey::kLocalInsLat:
    case SortKey::kInsLat:
    case SortKey::kLocalPStageCyc:
    case SortKey::kPStageCyc:
      return sign64(
          static_cast<int64_t>(sample_value(key, a.values) - sample_value(key, b.values)));
    case SortKey::kCodePageSize:
      // sort.c sort__code_page_size_cmp(): right's minus left's.
      return sign64(
          static_cast<int64_t>(sample_value(key, b.values) - sample_value(key, a.values)));
    case SortKey::kTransaction:
      // sort.c sort__transaction_cmp(): left's minus right's, as an int64_t.
      return sign64(static_cast<int64_t>(a.transaction - b.transaction));
    case SortKey::kCgroup:
      // sort.c sort__cgroup_cmp(): right's id minus left's.
      return sign64(static_cast<int64_t>(b.cgroup - a.cgroup));
    case SortKey::kCgroupId:
      // sort.c sort__cgroup_id_cmp() passes right's before left's to _sort__cgroup_dev_cmp()
      // and _sort__cgroup_inode_cmp(), which subtract their first argument: left's minus
      // right's, the device, then the inode.
      if (int c = sign64(static_cast<int64_t>(a.cgroup_ns_dev - b.cgroup_ns_dev))) return c;
      return sign64(static_cast<int64_t>(a.cgroup_ns_ino - b.cgroup_ns_ino));
    case SortKey::kAddr:
      // sort.c sort__addr_cmp(): _sort__addr_cmp() of the unmapped ips, right's minus left's.
      return sign64(static_cast<int64_t>(b.unmapped_ip - a.unmapped_ip));
    default:
      return 0;
  }
}

int Hists::mem_cmp(SortKey key, const Hists& hx, uint32_t x_id, const Hists& hy, uint32_t y_id) {
  // sort.c's memory se_cmp(left = x, right = y).
  const MemSample& x = hx.mems_[x_id];
  const MemSample& y = hy.mems_[y_id];
  if (key == SortKey::kDsoDaddr) {
    // sort__dso_daddr_cmp() calls _sort__dso_cmp(left's map, right's): cmp_null(right,
    // left), then strcmp(left, right) (sort__dso_cmp() passes them the other way round).
    if (!x.daddr.dso || !y.daddr.dso) return cmp_null(y.daddr.dso, x.daddr.dso);
    return name_cmp(hx.dso_name(x.daddr.dso), hy.dso_name(y.daddr.dso));
  }
  if (key == SortKey::kDcacheline)
    return dcacheline_cmp(hx.entries_[x_id], x, hy.entries_[y_id], y);
  // Right's value minus left's, as an int64_t.
  return sign64(static_cast<int64_t>(mem_key_value(key, y) - mem_key_value(key, x)));
}

}  // namespace readperf
