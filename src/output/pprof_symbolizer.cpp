// The pprof symbolizer: profile.proto decoded (proto_reader.h), its mappings made into a
// Machine's maps again, each sample's addresses resolved by the same Resolver as the export's,
// and the profile built again by PprofBuilder (pprof_builder.h) with the input's header.
#include "readperf/output/pprof_symbolizer.h"

#include <fmt/format.h>

#include <cstring>
#include <deque>
#include <optional>
#include <string>
#include <vector>

#include "pprof_builder.h"
#include "pprof_decoder.h"
#include "readperf/analysis/resolver.h"
#include "readperf/format/perf_abi.h"
#include "readperf/output/proto_reader.h"
#include "readperf/session/machine.h"
#include "readperf/symbols/dso_loader.h"
#include "readperf/symbols/symbol_cache.h"

namespace readperf {

namespace {

// Threads made up to hold one user mapping each (no real thread has these ids).
constexpr int32_t kFirstMappingPid = 0x40000000;

std::vector<uint8_t> build_id_bytes(std::string_view hex) {
  BuildId id = BuildId::from_hex(hex);
  return id.bytes();
}

// "readperf-unsymbolized kernel-ref=_text:0xffffffff81000000": the reference symbol's name
// and recorded address.
std::optional<std::pair<std::string, uint64_t>> kernel_ref_of(std::string_view mark) {
  size_t at = mark.find(" kernel-ref=");
  if (at == std::string_view::npos) return std::nullopt;
  std::string_view ref = mark.substr(at + 12);
  size_t colon = ref.rfind(":0x");
  if (colon == std::string_view::npos) return std::nullopt;
  uint64_t addr = 0;
  for (char c : ref.substr(colon + 3)) {
    int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
    if (d < 0) return std::nullopt;
    addr = addr << 4 | static_cast<uint64_t>(d);
  }
  return std::make_pair(std::string(ref.substr(0, colon)), addr);
}

// The mappings as a Machine's maps: the kernel's from synthesized kernel MMAP records (its
// relocation reference from the mark), modules and BPF programs likewise, and each user
// mapping in a thread of its own (mappings of different processes may overlap).
class MappedMachine {
 public:
  // `kernel`: by mapping index, whether its addresses are looked up in the kernel's maps.
  MappedMachine(const DecodedPprof& p, const std::vector<bool>& kernel,
                const std::optional<std::pair<std::string, uint64_t>>& ref)
      : p_(p), threads_(p.mappings.size(), nullptr) {
    // The build-id table first, as a recording's header states it before any record.
    for (size_t i = 0; i < p.mappings.size(); ++i) {
      const DecodedPprof::Mapping& m = p.mappings[i];
      std::vector<uint8_t> id = build_id_bytes(p.str(m.build_id));
      if (id.empty()) continue;
      BuildIdEvent e;
      e.misc = kernel[i] ? kMiscKernel : kMiscUser;
      e.pid = -1;
      e.build_id = Bytes(reinterpret_cast<const std::byte*>(id.data()), id.size());
      e.filename = p.str(m.filename);
      machine_.process_build_id(e);
    }
    // The kernel map before the maps that name it (PTI trampolines).
    for (int pass = 0; pass < 2; ++pass) {
      for (size_t i = 0; i < p.mappings.size(); ++i) {
        const DecodedPprof::Mapping& m = p.mappings[i];
        const std::string& name = p.str(m.filename);
        if (!kernel[i]) {
          if (pass == 1) add_user(i, m, name);
          continue;
        }
        bool vmlinux = name == "[kernel.kallsyms]" && m.offset == 0;
        if ((pass == 0) != vmlinux || m.limit <= m.start) continue;
        MmapEvent e;
        e.pid = -1;
        e.start = m.start;
        e.len = m.limit - m.start;
        if (vmlinux) {
          e.pgoff = ref ? ref->second : 0;
          kernel_name_ = "[kernel.kallsyms]" + (ref ? ref->first : std::string());
          e.filename = kernel_name_;
          machine_.process_mmap(e, kMiscKernel);
        } else if (name == "[kernel.kallsyms]") {
          e.pgoff = m.offset;
          e.filename = "__entry_SYSCALL_64_trampoline";
          machine_.process_mmap(e, kMiscKernel);
        } else if (!name.empty() && (name[0] == '[' || name[0] == '/')) {
          e.filename = name;
          machine_.process_mmap(e, kMiscKernel);
        } else {
          KsymbolEvent k;
          k.addr = m.start;
          k.len = static_cast<uint32_t>(m.limit - m.start);
          k.name = name;
          machine_.process_ksymbol(k);
        }
      }
    }
  }

  Machine& machine() { return machine_; }
  // The thread holding the user mapping of `mapping_id`, or the idle thread (no user maps).
  const Thread& thread_of(uint64_t mapping_id) {
    size_t i = index_of(mapping_id);
    if (i < threads_.size() && threads_[i]) return *threads_[i];
    return *machine_.idle_thread();
  }
  const DecodedPprof::Mapping* mapping(uint64_t mapping_id) const {
    size_t i = index_of(mapping_id);
    return i < p_.mappings.size() ? &p_.mappings[i] : nullptr;
  }

 private:
  size_t index_of(uint64_t mapping_id) const { return mapping_index(p_, mapping_id); }

  void add_user(size_t i, const DecodedPprof::Mapping& m, const std::string& name) {
    if (m.limit <= m.start) return;  // no address is in it
    int32_t pid = kFirstMappingPid + static_cast<int32_t>(i);
    Thread* t = machine_.findnew_thread(pid, pid);
    Map map;
    map.start = m.start;
    map.end = m.limit;
    map.pgoff = m.offset;
    map.dso = machine_.dsos().findnew(name);
    // A [vdso] of no build-id is named as the export named it, from the running vdso
    // (Machine::vdso_dso()); one with a build-id was named by the recording's build-id table.
    if (name == "[vdso]" && map.dso->build_id.empty()) map.dso->running_vdso_copy = true;
    // A JIT's /tmp/perf-PID.map names anonymous memory, which maps addresses as they are.
    map.identity = dso_kind_for(name) == DsoKind::kPerfMap;
    map.prot = kProtExec;
    t->maps->insert_fixup(map);
    threads_[i] = t;
  }

  const DecodedPprof& p_;
  Machine machine_;
  std::vector<const Thread*> threads_;  // by mapping index
  std::string kernel_name_;
};

}  // namespace

Status symbolize_pprof(std::string_view input, const SymbolizeConfig& config, FILE* out) {
  ASSIGN_OR_RETURN(std::string bytes, inflate_profile(input, config.max_size));
  ASSIGN_OR_RETURN(DecodedPprof p, decode_pprof(bytes));
  if (!p.functions.empty()) return make_error("the profile has functions already");
  std::optional<std::pair<std::string, uint64_t>> ref;
  PprofHeader h = header_of(p);
  std::erase_if(h.comments, [&](const std::string& c) {
    if (!c.starts_with(kUnsymbolizedMark)) return false;
    ref = kernel_ref_of(c);
    return true;
  });

  // The binaries no local file has, fetched in parallel (dso_loader.h).
  std::vector<DsoRef> refs;
  for (const DecodedPprof::Mapping& m : p.mappings) {
    if (m.start >= kPprofKernelStart || p.str(m.build_id).empty()) continue;
    const std::string& name = p.str(m.filename);
    refs.push_back({name, BuildId::from_hex(p.str(m.build_id)), dso_kind_for(name)});
  }
  prefetch_from_debuginfod(refs, config.symbols);

  // Each sample's labels, and the cpumode of each of its locations: its "cpumodes" digit, else
  // what the address implies. A mapping is the kernel's when looked up in kernel mode.
  std::vector<const DecodedPprof::Location*> by_id(p.locations.size() + 1, nullptr);
  for (const DecodedPprof::Location& l : p.locations) {
    if (l.id >= 1 && l.id <= p.locations.size()) by_id[l.id] = &l;
  }
  std::vector<SampleLabels> labels(p.samples.size());
  std::vector<int> kernel_use(p.mappings.size(), -1);  // -1 unused, 0 user, 1 kernel
  for (size_t k = 0; k < p.samples.size(); ++k) {
    const DecodedPprof::Sample& s = p.samples[k];
    SampleLabels& sl = labels[k];
    sl = labels_of(p, s);
    for (size_t i = 0; i < s.locations.size(); ++i) {
      uint64_t id = s.locations[i];
      const DecodedPprof::Location* loc = id < by_id.size() ? by_id[id] : nullptr;
      if (!loc)
        return make_error(fmt::format("a sample names location {}, which is not there", id));
      size_t mi = mapping_index(p, loc->mapping_id);
      if (mi >= p.mappings.size()) continue;
      bool unwound = sl.unwound_from >= 0 && i >= static_cast<uint64_t>(sl.unwound_from);
      uint8_t cpumode = unwound ? kMiscUser : sl.cpumode(i, p.mappings[mi].start);
      if (cpumode == kMiscKernel) kernel_use[mi] = 1;
      if (cpumode == kMiscUser && kernel_use[mi] < 0) kernel_use[mi] = 0;
    }
  }
  std::vector<bool> kernel(p.mappings.size());
  for (size_t i = 0; i < p.mappings.size(); ++i) {
    kernel[i] = kernel_use[i] < 0 ? implied_cpumode(p.mappings[i].start) == kMiscKernel
                                  : kernel_use[i] == 1;
  }
  MappedMachine mm(p, kernel, ref);
  SymbolCache symbols(config.symbols);
  Resolver resolver(mm.machine(), symbols, ResolverOptions{.dwarf_unwind = false});
  PprofBuilder builder(true);
  std::vector<Frame> frames;
  std::vector<PprofFrame> pframes;
  std::deque<std::string> build_ids;  // what pframes' build-ids view
  for (size_t k = 0; k < p.samples.size(); ++k) {
    const DecodedPprof::Sample& s = p.samples[k];
    const SampleLabels& sl = labels[k];
    frames.clear();
    for (size_t i = 0; i < s.locations.size(); ++i) {
      const DecodedPprof::Location* loc = by_id[s.locations[i]];
      const DecodedPprof::Mapping* m = mm.mapping(loc->mapping_id);
      const Thread& t = mm.thread_of(loc->mapping_id);
      if (sl.unwound_from >= 0 && i >= static_cast<uint64_t>(sl.unwound_from)) {
        // thread__resolve_callchain_unwind(): an unwound address, with its inline frames.
        resolver.expand_unwound(t, loc->address, frames);
        continue;
      }
      uint8_t cpumode = sl.cpumode(i, m ? m->start : loc->address);
      frames.push_back(resolver.resolve_addr(t, cpumode, loc->address));
    }
    pframes.clear();
    build_ids.resize(frames.size());
    for (size_t i = 0; i < frames.size(); ++i) {
      pframes.push_back(pprof_frame(frames[i], &resolver, build_ids[i]));
    }
    std::vector<int64_t>& v =
        builder.sample(sl.comm, static_cast<int32_t>(sl.pid), pframes, pframes.size());
    if (v.size() < s.values.size()) v.resize(s.values.size());
    for (size_t i = 0; i < s.values.size(); ++i) v[i] += s.values[i];
  }
  GzipWriter gz(out, config.gzip);
  builder.write(h, gz);
  return gz.finish();
}

}  // namespace readperf
