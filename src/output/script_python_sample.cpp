#include "script_python_sample.h"

#include <fmt/format.h>

#include <bit>
#include <vector>

#include "dump_internal.h"
#include "readperf/analysis/resolver.h"
#include "readperf/format/perf_abi.h"
#include "readperf/output/mem_info.h"
#include "readperf/reader/event_list.h"
#include "readperf/reader/record_swap.h"
#include "readperf/session/map.h"
#include "readperf/session/thread.h"

namespace py = pybind11;

namespace readperf {

namespace {

py::bytes bytes_of(Bytes b) { return py::bytes(reinterpret_cast<const char*>(b.data()), b.size()); }

}  // namespace

// python_process_callchain(): the resolved chain, leaf first, each {ip, sym {start, end,
// binding, name}, sym_off, sym_srcline (inline frames), dso}.
py::list PythonSampleDict::callchain(const ResolvedSample& rs, bool has_chain) {
  py::list out;
  if (!has_chain) return out;
  for (const Frame& f : rs.callchain) {
    py::dict e;
    e["ip"] = py::int_(f.ip);
    if (f.sym) {
      py::dict sym;
      sym["start"] = py::int_(f.sym->start);
      sym["end"] = py::int_(f.sym->end);
      sym["binding"] = py::int_(f.sym->binding);
      sym["name"] = py::str(f.sym->name.data(), f.sym->name.size());
      e["sym"] = sym;
      if (f.map) e["sym_off"] = py::int_(f.symoff());
      if (!f.srcline.empty() && f.srcline != ":0") {
        e["sym_srcline"] = py::str(f.srcline.data(), f.srcline.size());
      }
    }
    if (f.map) {
      std::string_view d = f.dso_name(show_kernel_path_);
      e["dso"] = py::str(d.data(), d.size());
    }
    out.append(e);
  }
  return out;
}

// set_sym_in_dict(): a frame's DSO, its build-id and map, its symbol and offset, under the
// names perf gives them (the sample's own, or a page fault's addr's).
void PythonSampleDict::set_sym_in_dict(py::dict& d, const Frame& f, const SymKeys& keys) {
  if (f.map && f.dso) {
    d[keys.dso] = std::string(f.dso_name());
    std::string bid;
    for (uint8_t b : f.dso->build_id) fmt::format_to(std::back_inserter(bid), "{:02x}", b);
    d[keys.dso_bid] = bid;
    d[keys.dso_map_start] = py::int_(f.map->start);
    d[keys.dso_map_end] = py::int_(f.map->end);
  }
  if (f.sym) {
    d[keys.symbol] = py::str(f.sym->name.data(), f.sym->name.size());
    d[keys.symoff] = py::int_(f.symoff());
  }
}

// get_perf_sample_dict().
py::dict PythonSampleDict::build(const Sample& s, const Evsel& evsel, const std::string& ev_name,
                                 const ResolvedSample& rs, py::list chain, const Frame* addr) {
  py::dict dict;
  py::dict ds;
  dict["ev_name"] = ev_name;
  // The attr as this perf's struct perf_event_attr (PERF_ATTR_SIZE_VER7, 128 bytes).
  std::vector<std::byte> attr;
  write_attr(evsel.attr, 128, ByteOrder::kNative, attr);
  dict["attr"] = py::bytes(reinterpret_cast<const char*>(attr.data()), attr.size());
  ds["pid"] = py::int_(s.pid);
  ds["tid"] = py::int_(s.tid);
  ds["cpu"] = py::int_(s.cpu);  // u32: (u32)-1 without a CPU
  ds["ip"] = py::int_(s.ip);
  ds["time"] = py::int_(s.time);
  ds["period"] = py::int_(s.period);
  ds["phys_addr"] = py::int_(s.phys_addr);
  ds["addr"] = py::int_(s.addr);
  // set_sample_read_in_dict().
  uint64_t rf = evsel.attr.read_format;
  if (rf & kFormatTotalTimeEnabled) ds["time_enabled"] = py::int_(s.read.time_enabled);
  if (rf & kFormatTotalTimeRunning) ds["time_running"] = py::int_(s.read.time_running);
  // get_sample_value_as_tuple(): always three slots, the third (lost) left NULL without
  // PERF_FORMAT_LOST (Python prints it as <NULL>).
  auto value_tuple = [&](const ReadValue& v) {
    py::object t = py::reinterpret_steal<py::object>(PyTuple_New(3));
    PyTuple_SetItem(t.ptr(), 0, PyLong_FromUnsignedLongLong(v.id));
    PyTuple_SetItem(t.ptr(), 1, PyLong_FromUnsignedLongLong(v.value));
    if (rf & kFormatLost) PyTuple_SetItem(t.ptr(), 2, PyLong_FromUnsignedLongLong(v.lost));
    return t;
  };
  py::list values;
  if (rf & kFormatGroup) {
    for (uint64_t i = 0; i < s.read.group_nr; ++i) {
      values.append(value_tuple(s.read.group_value(i, rf)));
    }
  } else {
    values.append(value_tuple(s.read.one));
  }
  ds["values"] = values;
  ds["weight"] = py::int_(s.weight);
  ds["transaction"] = py::int_(s.transaction);
  uint64_t data_src = s.data_src_or_none();
  ds["datasrc"] = py::int_(data_src);
  ds["datasrc_decode"] = script_meminfo_text(data_src);
  dict["sample"] = ds;
  dict["raw_buf"] = bytes_of(s.raw);
  dict["comm"] = std::string(rs.comm);
  set_sym_in_dict(dict, rs.self,
                  {"dso", "dso_bid", "dso_map_start", "dso_map_end", "symbol", "symoff"});
  dict["callchain"] = chain;
  dict["brstack"] = brstack(s, rs);
  dict["brstacksym"] = brstacksym(s, rs);
  ds["cpumode"] = py::int_(s.cpumode());
  if (addr) {
    ds["addr_correlates_sym"] = py::bool_(true);
    set_sym_in_dict(ds, *addr,
                    {"addr_dso", "addr_dso_bid", "addr_dso_map_start", "addr_dso_map_end",
                     "addr_symbol", "addr_symoff"});
  }
  // set_regs_in_dict(): "%5s:0x%lx " per register, in a buffer sized for the interrupt
  // registers (28 bytes each), the user registers cut to it.
  size_t cap = static_cast<size_t>(std::popcount(evsel.attr.sample_regs_intr)) * 28;
  dict["iregs"] = regs_text(s.intr_regs.regs, evsel.attr.sample_regs_intr, cap);
  dict["uregs"] = regs_text(s.user_regs.regs, evsel.attr.sample_regs_user, cap);
  return dict;
}

// python_process_brstack(): each branch's ends, flags, cycles and DSOs
// (thread__find_map_fb(), "[unknown]" without a map).
py::list PythonSampleDict::brstack(const Sample& s, const ResolvedSample& rs) {
  py::list out;
  if (!s.has_branch_stack || !rs.thread || !resolver_) return out;
  auto dso = [&](uint64_t addr) -> std::string {
    const Map* map = resolver_->find_map_fb(*rs.thread, s.cpumode(), addr);
    if (!map || !map->dso) return "[unknown]";
    Frame f;
    f.map = map;
    f.dso = map->dso;
    return std::string(f.dso_name(show_kernel_path_));
  };
  for (size_t i = 0; i < s.branch_stack.nr; ++i) {
    BranchEntry e = s.branch_stack.entry(i);
    BranchFlags fl(e.flags);
    py::dict d;
    d["from"] = py::int_(e.from);
    d["to"] = py::int_(e.to);
    d["mispred"] = py::bool_(fl.mispred());
    d["predicted"] = py::bool_(fl.predicted());
    d["in_tx"] = py::bool_(fl.in_tx());
    d["abort"] = py::bool_(fl.abort());
    d["cycles"] = py::int_(fl.cycles());
    d["from_dsoname"] = dso(e.from);
    d["to_dsoname"] = dso(e.to);
    out.append(d);
  }
  return out;
}

// python_process_brstacksym(): each branch's ends as "symbol+0xoff" (get_symoff(): "%x"
// of the offset; "[unknown]" without a symbol), "M"/"P"/"-", "X"/"-", "A"/"-".
py::list PythonSampleDict::brstacksym(const Sample& s, const ResolvedSample& rs) {
  py::list out;
  if (!s.has_branch_stack || !rs.thread || !resolver_) return out;
  auto symoff = [&](uint64_t addr) -> std::string {
    Frame f = resolver_->resolve_addr_fb(*rs.thread, s.cpumode(), addr);
    if (!f.sym || f.sym->name.empty()) return "[unknown]";
    return fmt::format("{}+{:#x}", f.sym->name, static_cast<uint32_t>(f.symoff()));
  };
  for (size_t i = 0; i < s.branch_stack.nr; ++i) {
    BranchEntry e = s.branch_stack.entry(i);
    BranchFlags fl(e.flags);
    py::dict d;
    d["from"] = symoff(e.from);
    d["to"] = symoff(e.to);
    d["pred"] = fl.mispred() ? "M" : fl.predicted() ? "P" : "-";
    d["in_tx"] = fl.in_tx() ? "X" : "-";
    d["abort"] = fl.abort() ? "A" : "-";
    out.append(d);
  }
  return out;
}

std::string PythonSampleDict::regs_text(const U64Array& regs, uint64_t mask, size_t cap) const {
  std::string out;
  if (regs.empty() || !cap) return out;
  size_t i = 0;
  for (unsigned r = 0; r < 64; ++r) {
    if (!(mask & (1ull << r))) continue;
    uint64_t v = i < regs.size() ? regs[i] : 0;
    ++i;
    out += fmt::format("{:>5}:{:#x} ", perf_reg_name(r, arch_), v);
  }
  if (out.size() > cap - 1) out.resize(cap - 1);  // scnprintf() into bf[cap]
  return out;
}

}  // namespace readperf
