// perf 6.1's dlfilter interface (util/dlfilter.c): the structures of
// include/perf/perf_dlfilter.h as the shared objects compiled against it lay them out, and
// the functions perf hands them, over readperf's resolver.
#include "readperf/output/script_dlfilter.h"

#include <dirent.h>
#include <dlfcn.h>
#include <fmt/format.h>
#include <unistd.h>

#include <cstring>
#include <optional>

#include "readperf/analysis/resolver.h"
#include "readperf/format/perf_abi.h"
#include "readperf/output/script_list.h"
#include "readperf/reader/event_list.h"
#include "readperf/reader/record_swap.h"
#include "readperf/reader/sample.h"
#include "readperf/session/map.h"
#include "readperf/session/thread.h"
#include "readperf/symbols/x86_insn.h"

namespace readperf {
namespace {

// perf_dlfilter.h (perf 6.1, PERF_DLFILTER_HAS_MACHINE_PID).
struct PerfDlfilterSample {
  uint32_t size;
  uint16_t ins_lat;
  uint16_t p_stage_cyc;
  uint64_t ip;
  int32_t pid;
  int32_t tid;
  uint64_t time, addr, id, stream_id, period, weight, transaction, insn_cnt, cyc_cnt;
  int32_t cpu;
  uint32_t flags;
  uint64_t data_src, phys_addr, data_page_size, code_page_size, cgroup;
  uint8_t cpumode;
  uint8_t addr_correlates_sym;
  uint16_t misc;
  uint32_t raw_size;
  const void* raw_data;
  uint64_t brstack_nr;
  const void* brstack;  // struct perf_branch_entry[brstack_nr]
  uint64_t raw_callchain_nr;
  const uint64_t* raw_callchain;
  const char* event;
  int32_t machine_pid;
  int32_t vcpu;
};
static_assert(sizeof(PerfDlfilterSample) == 208);

struct PerfDlfilterAl {
  uint32_t size;
  uint32_t symoff;
  const char* sym;
  uint64_t addr;
  uint64_t sym_start;
  uint64_t sym_end;
  const char* dso;
  uint8_t sym_binding;
  uint8_t is_64_bit;
  uint8_t is_kernel_ip;
  uint32_t buildid_size;
  uint8_t* buildid;
  uint8_t filtered;  // resolve_ip() only
  const char* comm;  // resolve_ip() only
};
static_assert(sizeof(PerfDlfilterAl) == 80);

struct PerfDlfilterFns {
  const PerfDlfilterAl* (*resolve_ip)(void* ctx);
  const PerfDlfilterAl* (*resolve_addr)(void* ctx);
  char** (*args)(void* ctx, int* dlargc);
  int32_t (*resolve_address)(void* ctx, uint64_t address, PerfDlfilterAl* al);
  const uint8_t* (*insn)(void* ctx, uint32_t* length);
  const char* (*srcline)(void* ctx, uint32_t* line_number);
  void* (*attr)(void* ctx);  // struct perf_event_attr *
  int32_t (*object_code)(void* ctx, uint64_t ip, void* buf, uint32_t len);
  void* (*reserved[120])(void*);
};

using StartFn = int (*)(void** data, void* ctx);
using StopFn = int (*)(void* data, void* ctx);
using FilterFn = int (*)(void* data, const PerfDlfilterSample* sample, void* ctx);
using DescriptionFn = const char* (*)(const char** long_description);

// The strings a PerfDlfilterAl points at, kept until the filter returns.
struct AlStrings {
  std::string sym, dso, comm;
};

}  // namespace

struct DlFilter::Impl {
  std::string file;
  std::vector<std::string> args;
  std::vector<char*> argv;
  void* handle = nullptr;
  StartFn start = nullptr;
  StopFn stop = nullptr;
  FilterFn filter_event = nullptr;
  FilterFn filter_event_early = nullptr;
  void* data = nullptr;  // what start() handed back
  bool started = false, stopped = false;
  bool in_start = false, in_stop = false;

  // The sample being filtered (ctx_valid while set).
  const DlFilterSample* cur = nullptr;
  PerfDlfilterSample d_sample{};
  PerfDlfilterAl ip_al{}, addr_al{};
  AlStrings ip_strings, addr_strings, address_strings;
  std::vector<uint64_t> callchain;
  std::vector<uint64_t> brstack;  // from, to, flags per entry
  std::vector<std::byte> attr;
  uint8_t insn[16] = {};
  std::string srcfile;

  bool kernel_ip(uint64_t ip) const { return ip >= cur->resolver->options().kernel_start; }

  // al_to_d_al().
  void fill(const Frame& f, PerfDlfilterAl& al, AlStrings& strings) const {
    al = {};
    al.size = sizeof(al);
    if (f.map && f.dso) {
      strings.dso = f.dso_name(cur->show_kernel_path);
      al.dso = strings.dso.c_str();
      al.is_64_bit = 1;  // dso__new()'s default on a 64-bit perf
      al.buildid_size = static_cast<uint32_t>(f.dso->build_id.size());
      al.buildid = al.buildid_size ? const_cast<uint8_t*>(f.dso->build_id.data()) : nullptr;
    }
    if (f.sym) {
      strings.sym = f.sym->name;
      al.sym = strings.sym.c_str();
      al.sym_start = f.sym->start;
      al.sym_end = f.sym->end;
      al.symoff = static_cast<uint32_t>(f.symoff());
      al.sym_binding = f.sym->binding;
    }
    al.addr = f.addr;
  }

  static Impl& of(void* ctx) { return *static_cast<Impl*>(ctx); }

  static const PerfDlfilterAl* resolve_ip(void* ctx) {
    Impl& d = of(ctx);
    if (!d.cur) return nullptr;
    if (d.ip_al.size) return &d.ip_al;  // size: already filled
    const ResolvedSample& rs = d.cur->host->resolve();
    d.fill(rs.self, d.ip_al, d.ip_strings);
    d.ip_al.is_kernel_ip = d.kernel_ip(d.cur->sample->ip);
    d.ip_strings.comm = rs.thread ? std::string(rs.comm) : ":-1";
    d.ip_al.comm = d.ip_strings.comm.c_str();
    d.ip_al.filtered = d.cur->host->filtered(rs);
    return &d.ip_al;
  }

  static const PerfDlfilterAl* resolve_addr(void* ctx) {
    Impl& d = of(ctx);
    if (!d.cur || !d.d_sample.addr_correlates_sym) return nullptr;
    if (d.addr_al.size) return &d.addr_al;
    const ResolvedSample& rs = d.cur->host->resolve();
    if (!rs.thread) return nullptr;
    const Sample& s = *d.cur->sample;
    // thread__resolve().
    Frame f = d.cur->resolver->resolve_addr_fb(*rs.thread, s.cpumode(), s.addr);
    d.fill(f, d.addr_al, d.addr_strings);
    d.addr_al.is_kernel_ip = d.kernel_ip(s.addr);
    return &d.addr_al;
  }

  static char** args_of(void* ctx, int* dlargc) {
    Impl& d = of(ctx);
    if (!dlargc) return nullptr;
    *dlargc = 0;
    if (!d.cur && !d.in_start && !d.in_stop) return nullptr;
    *dlargc = static_cast<int>(d.args.size());
    return d.argv.data();
  }

  static int32_t resolve_address(void* ctx, uint64_t address, PerfDlfilterAl* out) {
    Impl& d = of(ctx);
    if (!d.cur || !out) return -1;
    const ResolvedSample& rs = d.cur->host->resolve();
    if (!rs.thread) return -1;
    // thread__find_symbol_fb().
    Frame f = d.cur->resolver->resolve_addr_fb(*rs.thread, d.cur->sample->cpumode(), address);
    PerfDlfilterAl al;
    d.fill(f, al, d.address_strings);
    al.is_kernel_ip = d.kernel_ip(address);
    uint32_t size = out->size;
    std::memcpy(out, &al, std::min<size_t>(size, sizeof(al)));
    out->size = size;
    return 0;
  }

  static const uint8_t* insn_of(void* ctx, uint32_t* len) {
    Impl& d = of(ctx);
    if (!len) return nullptr;
    *len = 0;
    if (!d.cur) return nullptr;
    // script_fetch_insn(): on the recording's own architecture (x86 only), the bytes at the
    // sample's ip with the length of the instruction they start.
    const Sample& s = *d.cur->sample;
    if (!d.cur->native_arch || !s.ip) return nullptr;
    const ResolvedSample& rs = d.cur->host->resolve();
    if (!rs.thread) return nullptr;
    bool is_64bit = false;
    size_t n = d.cur->resolver->read_code(*rs.thread, s.ip, d.insn, sizeof d.insn, &is_64bit);
    int ilen = n ? x86_insn_length(d.insn, n, is_64bit) : 0;
    if (ilen <= 0) return nullptr;
    *len = static_cast<uint32_t>(ilen);
    return d.insn;
  }

  static const char* srcline_of(void* ctx, uint32_t* line_no) {
    Impl& d = of(ctx);
    if (!d.cur || !line_no) return nullptr;
    const ResolvedSample& rs = d.cur->host->resolve();
    uint32_t line = 0;
    d.srcfile.clear();
    bool found =
        rs.self.map && rs.self.dso && d.cur->resolver->srcline_split(rs.self, &d.srcfile, &line);
    *line_no = line;
    return found ? d.srcfile.c_str() : nullptr;
  }

  static void* attr_of(void* ctx) {
    Impl& d = of(ctx);
    if (!d.cur) return nullptr;
    // evsel->core.attr: perf_event_attr as perf 6.1 holds it.
    d.attr.clear();
    write_attr(d.cur->evsel->attr, 128, ByteOrder::kNative, d.attr);
    return d.attr.data();
  }

  static int32_t object_code(void* ctx, uint64_t ip, void* buf, uint32_t len) {
    Impl& d = of(ctx);
    if (!d.cur) return -1;
    const ResolvedSample& rs = d.cur->host->resolve();
    if (!rs.thread) return -1;
    bool is_64bit = true;
    size_t n =
        d.cur->resolver->read_code(*rs.thread, ip, static_cast<uint8_t*>(buf), len, &is_64bit);
    return n ? static_cast<int32_t>(n) : -1;
  }
};

namespace {

std::string find_dlfilter(const std::string& file, const std::string& exec_path) {
  if (file.find('/') != std::string::npos) return file;
  // dlopen() looks in the library path for a bare name: "./" for the working directory's.
  if (access(file.c_str(), R_OK) == 0) return "./" + file;
  std::string path = exec_path + "/dlfilters/" + file;
  if (access(path.c_str(), R_OK) == 0) return path;
  return file;
}

}  // namespace

Result<std::unique_ptr<DlFilter>> DlFilter::open(const std::string& file,
                                                 std::vector<std::string> args) {
  std::unique_ptr<DlFilter> f(new DlFilter());
  f->impl_ = std::make_unique<Impl>();
  Impl& d = *f->impl_;
  d.file = find_dlfilter(file, perf_exec_path());
  d.args = std::move(args);
  for (std::string& a : d.args) d.argv.push_back(a.data());
  d.argv.push_back(nullptr);
  d.handle = dlopen(d.file.c_str(), RTLD_NOW);
  if (!d.handle) return make_error(fmt::format("dlopen failed for: '{}'", d.file));
  d.start = reinterpret_cast<StartFn>(dlsym(d.handle, "start"));
  d.filter_event = reinterpret_cast<FilterFn>(dlsym(d.handle, "filter_event"));
  d.filter_event_early = reinterpret_cast<FilterFn>(dlsym(d.handle, "filter_event_early"));
  d.stop = reinterpret_cast<StopFn>(dlsym(d.handle, "stop"));
  if (auto* fns = static_cast<PerfDlfilterFns*>(dlsym(d.handle, "perf_dlfilter_fns"))) {
    *fns = {};
    fns->resolve_ip = &Impl::resolve_ip;
    fns->resolve_addr = &Impl::resolve_addr;
    fns->args = &Impl::args_of;
    fns->resolve_address = &Impl::resolve_address;
    fns->insn = &Impl::insn_of;
    fns->srcline = &Impl::srcline_of;
    fns->attr = &Impl::attr_of;
    fns->object_code = &Impl::object_code;
  }
  return f;
}

DlFilter::~DlFilter() {
  if (!impl_) return;
  stop();  // dlfilter__cleanup()
  if (impl_->handle) dlclose(impl_->handle);
}

int DlFilter::start() {
  Impl& d = *impl_;
  d.started = true;
  if (!d.start) return 0;
  d.in_start = true;
  int ret = d.start(&d.data, &d);
  d.in_start = false;
  return ret;
}

void DlFilter::stop() {
  Impl& d = *impl_;
  if (!d.started || d.stopped) return;
  d.stopped = true;
  if (!d.stop) return;
  d.in_stop = true;
  d.stop(d.data, &d);
  d.in_stop = false;
}

int DlFilter::filter(const DlFilterSample& ds, bool early) {
  Impl& d = *impl_;
  FilterFn fn = early ? d.filter_event_early : d.filter_event;
  if (!fn) return 0;
  const Sample& s = *ds.sample;
  const EventAttr& attr = ds.evsel->attr;
  PerfDlfilterSample& x = d.d_sample;
  x = {};
  x.size = sizeof(x);
  x.ip = s.ip;
  x.pid = s.pid;
  x.tid = s.tid;
  x.time = s.time;
  x.addr = s.addr;
  x.id = s.id;
  x.stream_id = s.stream_id;
  x.period = s.period;
  x.weight = s.weight;
  x.ins_lat = s.ins_lat;
  x.p_stage_cyc = s.p_stage_cyc;
  x.transaction = s.transaction;
  x.cpu = static_cast<int32_t>(s.cpu);
  x.data_src = s.data_src_or_none();
  x.phys_addr = s.phys_addr;
  x.data_page_size = s.data_page_size;
  x.code_page_size = s.code_page_size;
  x.cgroup = s.cgroup;
  x.cpumode = s.cpumode();
  x.misc = s.misc;
  x.raw_size = s.raw_size;
  x.raw_data = s.raw.empty() ? nullptr : s.raw.data();
  x.vcpu = -1;
  d.brstack.clear();
  if (s.has_branch_stack) {
    for (size_t i = 0; i < s.branch_stack.nr; ++i) {
      BranchEntry e = s.branch_stack.entry(i);
      d.brstack.insert(d.brstack.end(), {e.from, e.to, e.flags});
    }
    x.brstack_nr = s.branch_stack.nr;
    x.brstack = d.brstack.data();
  }
  d.callchain.clear();
  if (s.has_callchain) {
    for (size_t i = 0; i < s.callchain.size(); ++i) d.callchain.push_back(s.callchain[i]);
    x.raw_callchain_nr = d.callchain.size();
    x.raw_callchain = d.callchain.data();
  }
  x.addr_correlates_sym = (attr.sample_type & kSampleAddr) && attr.addr_correlates_sym();
  x.event = ds.event_name;
  d.ip_al.size = 0;  // not filled yet
  d.addr_al.size = 0;
  d.cur = &ds;
  int ret = fn(d.data, &x, &d);
  d.cur = nullptr;
  return ret;
}

void list_dlfilters(const std::string& exec_path, bool verbose, OutBuffer& out) {
  out.write("List of available dlfilters:\n");
  // list_filters(): each .so with filter_event or filter_event_early, in directory order.
  auto list = [&](const std::string& dirname) {
    DIR* dir = opendir(dirname.c_str());
    if (!dir) return;
    while (dirent* entry = readdir(dir)) {
      std::string_view name = entry->d_name;
      if (entry->d_type == DT_DIR || name.size() < 4 || !name.ends_with(".so")) continue;
      std::string path = dirname + "/" + std::string(name);
      void* handle = dlopen(path.c_str(), RTLD_NOW);
      if (!handle) continue;
      if (!dlsym(handle, "filter_event") && !dlsym(handle, "filter_event_early")) {
        dlclose(handle);
        continue;
      }
      std::string desc;
      std::optional<std::string> long_desc;
      if (auto fn = reinterpret_cast<DescriptionFn>(dlsym(handle, "filter_description"))) {
        const char* long_dsc = nullptr;
        if (const char* dsc = fn(&long_dsc)) desc = dsc;
        if (long_dsc) long_desc = long_dsc;
      }
      dlclose(handle);
      out.print("  {:<36} {}\n", name, desc);
      if (verbose && long_desc) {
        size_t at = 0;
        while (true) {
          size_t nl = long_desc->find('\n', at);
          out.print("{:39}{}\n", "", long_desc->substr(at, nl - at));
          if (nl == std::string::npos) break;
          at = nl + 1;
        }
      }
    }
    closedir(dir);
  };
  list(".");
  list(exec_path + "/dlfilters");
}

}  // namespace readperf
