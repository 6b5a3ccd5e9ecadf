// sort.c's se_snprintf functions: what each sort key's column of `report --stdio` shows.
#include <fmt/format.h>

#include <algorithm>
#include <string>

#include "readperf/output/mem_info.h"
#include "readperf/session/cgroups.h"
#include "readperf/session/dso.h"
#include "readperf/session/thread.h"
#include "readperf/symbols/symbol_table.h"
#include "report_columns.h"

namespace readperf {

void put_fixed(fmt::memory_buffer& b, std::string_view s, uint32_t width) {
  if (s.size() > width) s = s.substr(0, width);
  b.append(s);
  if (s.size() < width) b.append(std::string(width - s.size(), ' '));
}

void put_sym_column(fmt::memory_buffer& b, const Hists& hists, const Dso* dso, char level,
                    const Symbol* sym, uint64_t ip, uint64_t sym_base, uint32_t width) {
  size_t start = b.size();
  if (hists.config().verbose) {
    // "%-#*llx %c ", BITS_PER_LONG / 4 + 2 wide ('#' gives 0 no "0x"); a kernel map read
    // from a vmlinux unmapped (kallsyms' maps are identity).
    char origin = dso && hists.config().symtab_origin ? hists.config().symtab_origin(dso) : '!';
    uint64_t shown = dso && hists.config().verbose_rip ? hists.config().verbose_rip(dso, ip) : ip;
    std::string rip = shown ? fmt::format("{:#x}", shown) : "0";
    fmt::format_to(std::back_inserter(b), "{:<18} {} ", rip, origin);
  }
  fmt::format_to(std::back_inserter(b), "[{}] ", level);
  if (sym) {
    if (sym->type == kTypeObject) {
      fmt::format_to(std::back_inserter(b), "{}+0x{:x}", sym->name, ip - sym_base);
    } else {
      // "%.*s" with `width - ret` computed unsigned: narrower than "[x] " (-w), the
      // precision is negative and the name whole.
      size_t used = b.size() - start;
      std::string_view name = sym->name;
      if (width >= used && name.size() > width - used) name = name.substr(0, width - used);
      b.append(name);
      if (sym->inlined) b.append(std::string_view(" (inlined)"));
    }
  } else if (ip) {
    fmt::format_to(std::back_inserter(b), "0x{:016x}", ip);
  } else {
    b.append(std::string_view("0000000000000000"));
  }
}

// sort.c's se_snprintf functions: what sort key `key`'s column shows for entry `id`, padded
// or cut to `width` as perf does.
void put_key_column(fmt::memory_buffer& b, const Hists& hists, uint32_t id, SortKey key,
                    uint32_t width, std::string_view& mispredict) {
  const HistEntry& e = hists.entry(id);
  switch (key) {
    case SortKey::kPid: {
      // sort.c hist_entry__thread_snprintf(): "%7d:%-*.*s", the thread's latest comm, in
      // max(7, width) - 8 computed unsigned: -1 below 8 (-w), the comm whole, at least 1 wide.
      fmt::format_to(std::back_inserter(b), "{:7}:", e.thread ? e.thread->tid : -1);
      std::string_view comm = e.thread ? std::string_view(e.thread->comm_str()) : "";
      if (width >= 8) {
        put_fixed(b, comm, width - 8);
      } else {
        fmt::format_to(std::back_inserter(b), "{:<1}", comm);
      }
      break;
    }
    case SortKey::kComm:
      put_fixed(b, hists.comm_name(e.comm), width);
      break;
    case SortKey::kDso:
      put_fixed(b, e.dso ? hists.dso_name(e.dso) : "[unknown]", width);
      break;
    case SortKey::kSymbol:
      // "ip - map->unmap_ip(map, sym->start)": a call-chain entry's ip is an address,
      // a sample's own is map-relative.
      put_sym_column(b, hists, e.dso, e.level, e.sym, e.ip, e.sym_base, width);
      break;
    case SortKey::kIpcNull:
      put_fixed(b, "-      -", width);
      break;
    case SortKey::kSrcline:
      // sort.c hist_entry__srcline_snprintf(): "%-.*s", cut but not padded.
      b.append(e.srcline.substr(0, std::min<size_t>(e.srcline.size(), width)));
      break;
    case SortKey::kSrcfile: {
      // sort.c hist_entry__srcfile_snprintf(): "%-.*s" too; glibc's "(null)" for an entry
      // never compared (sort__srcfile_cmp() found none).
      std::string_view f = hists.entries_compared() ? e.srcfile : "(null)";
      b.append(f.substr(0, std::min<size_t>(f.size(), width)));
      break;
    }
    case SortKey::kTrace: {
      // sort.c hist_entry__trace_snprintf(): "%-.*s" of the text, "N/A" for an event
      // that is not a tracepoint.
      std::string_view text = e.trace.data() ? e.trace : "N/A";
      b.append(text.substr(0, std::min<size_t>(text.size(), width)));
      break;
    }
    case SortKey::kCpu: {
      // sort.c hist_entry__cpu_snprintf(): "%*.*d", whose precision counts digits only:
      // an unrecorded CPU (-1) is "-001", not fmt's "-01".
      int32_t cpu = static_cast<int32_t>(e.cpu);
      if (cpu < 0) b.push_back('-');
      int64_t magnitude = cpu < 0 ? -int64_t{cpu} : int64_t{cpu};
      fmt::format_to(std::back_inserter(b), "{:0{}}", magnitude, width);
    } break;
    case SortKey::kTime: {
      // sort.c hist_entry__time_snprintf(): timestamp__scnprintf_usec/_nsec, "%-.*s".
      std::string t =
          hists.config().nanosecs
              ? fmt::format("{}.{:09}", e.time / 1000000000, e.time % 1000000000)
              : fmt::format("{}.{:06}", e.time / 1000000000, e.time % 1000000000 / 1000);
      b.append(std::string_view(t).substr(0, width));
      break;
    }
    case SortKey::kSocket: {
      // sort.c hist_entry__socket_snprintf(): "%*.*d" with width - 3 digits at least (a
      // negative precision is none; 0 prints no digit for 0).
      int32_t socket = e.socket;
      int64_t magnitude = socket < 0 ? -int64_t{socket} : int64_t{socket};
      std::string digits = width == 3 && magnitude == 0
                               ? std::string()
                               : fmt::format("{:0{}}", magnitude, width > 3 ? width - 3 : 1);
      if (socket < 0) digits.insert(0, 1, '-');
      fmt::format_to(std::back_inserter(b), "{:>{}}", digits, width);
    } break;
    case SortKey::kParent: {
      // sort.c hist_entry__parent_snprintf(): "%-*.*s", "[other]" without a parent.
      std::string_view name = e.parent ? e.parent->name : "[other]";
      name = name.substr(0, std::min<size_t>(name.size(), width));
      fmt::format_to(std::back_inserter(b), "{:<{}}", name, width);
    } break;
    case SortKey::kDsoSize:
      // sort.c _hist_entry__dso_size_snprintf(): "%*d" of the map's size, else "unknown".
      if (e.dso && e.map_size) {
        fmt::format_to(std::back_inserter(b), "{:>{}}", static_cast<int32_t>(e.map_size), width);
      } else {
        fmt::format_to(std::back_inserter(b), "{:>{}}", "unknown", width);
      }
      break;
    case SortKey::kSymbolSize:
      // sort.c _hist_entry__sym_size_snprintf(): "%*d", else "unknown".
      if (e.sym) {
        fmt::format_to(std::back_inserter(b), "{:>{}}",
                       static_cast<int32_t>(e.sym->end - e.sym->start), width);
      } else {
        fmt::format_to(std::back_inserter(b), "{:>{}}", "unknown", width);
      }
      break;
    // sort.c's weight, ins_lat and p_stage_cyc snprintf functions: "%-*llu"/"%-*u" of the
    // value, the global ones times the entry's samples (he->stat.nr_events: of the entry
    // alone, whatever --children adds).
    case SortKey::kLocalWeight:
      fmt::format_to(std::back_inserter(b), "{:<{}}", e.values.weight, width);
      break;
    case SortKey::kWeight:
      fmt::format_to(std::back_inserter(b), "{:<{}}", e.values.weight * e.nr_events, width);
      break;
    case SortKey::kLocalInsLat:
      fmt::format_to(std::back_inserter(b), "{:<{}}", e.values.ins_lat, width);
      break;
    case SortKey::kInsLat:
      // "%-*u" of a u64 product: printed as its low 32 bits.
      fmt::format_to(std::back_inserter(b), "{:<{}}",
                     static_cast<uint32_t>(e.values.ins_lat * e.nr_events), width);
      break;
    case SortKey::kLocalPStageCyc:
      fmt::format_to(std::back_inserter(b), "{:<{}}", e.values.p_stage_cyc, width);
      break;
    case SortKey::kPStageCyc:
      fmt::format_to(std::back_inserter(b), "{:<{}}",
                     static_cast<uint32_t>(e.values.p_stage_cyc * e.nr_events), width);
      break;
    case SortKey::kCodePageSize:
      // sort.c hist_entry__code_page_size_snprintf(): "%-*s" of get_page_size_name().
      fmt::format_to(std::back_inserter(b), "{:<{}}", page_size_name(e.values.code_page_size),
                     width);
      break;
    case SortKey::kTransaction:
      // sort.c hist_entry__transaction_snprintf(): "%-*s" of the flags' text.
      fmt::format_to(std::back_inserter(b), "{:<{}}", transaction_text(e.transaction), width);
      break;
    case SortKey::kCgroupId:
      // sort.c hist_entry__cgroup_id_snprintf(): "%lu/0x%lx", not padded.
      fmt::format_to(std::back_inserter(b), "{}/0x{:x}", e.cgroup_ns_dev, e.cgroup_ns_ino);
      break;
    case SortKey::kCgroup:
      // sort.c hist_entry__cgroup_snprintf(): "%s", not padded.
      b.append(hists.cgroups().name(e.cgroup));
      break;
    case SortKey::kAddr:
      // sort.c hist_entry__addr_snprintf(): "%-#*llx" (printf's '#' writes 0 without "0x").
      if (e.unmapped_ip) {
        fmt::format_to(std::back_inserter(b), "{:<#{}x}", e.unmapped_ip, width);
      } else {
        fmt::format_to(std::back_inserter(b), "{:<{}}", 0, width);
      }
      break;
    default:
      if (is_dynamic_key(key)) {
        put_dynamic_column(b, hists, id, key, width);
      } else if (is_mem_key(key)) {
        put_mem_column(b, key, hists, id, width);
      } else {
        put_branch_column(b, key, hists, id, width, mispredict);
      }
      break;
  }
}

}  // namespace readperf
