// The pprof symbolizer: profile.proto decoded (proto_reader.h), its mappings made into a
// Machine's maps again, each sample's addresses resolved by the same Resolver as the export's,
// and the profile built again by PprofBuilder (pprof_builder.h) with the input's header.
#include "readperf/output/pprof_symbolizer.h"

#include <fmt/format.h>
#include <zlib.h>

#include <cstring>
#include <deque>
#include <optional>
#include <string>
#include <vector>

#include "pprof_builder.h"
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

struct Profile {
  std::vector<std::string> strings;
  std::vector<std::pair<int64_t, int64_t>> sample_types;
  struct Label {
    int64_t key = 0, str = 0, num = 0;
  };
  struct Sample {
    std::vector<uint64_t> locations;
    std::vector<int64_t> values;
    std::vector<Label> labels;
  };
  std::vector<Sample> samples;
  struct Mapping {
    uint64_t id = 0, start = 0, limit = 0, offset = 0;
    int64_t filename = 0, build_id = 0;
  };
  std::vector<Mapping> mappings;
  struct Location {
    uint64_t id = 0, mapping_id = 0, address = 0;
    bool has_lines = false;
  };
  std::vector<Location> locations;
  size_t functions = 0;
  bool has_period_type = false;
  std::pair<int64_t, int64_t> period_type;
  int64_t period = 0, duration = 0, default_sample_type = 0;
  std::vector<int64_t> comments;

  const std::string& str(int64_t i) const { return strings[static_cast<size_t>(i)]; }
};

Result<std::pair<int64_t, int64_t>> value_type(const ProtoField& f) {
  std::pair<int64_t, int64_t> vt{0, 0};
  RETURN_IF_ERROR(for_each_field(f.bytes, [&](const ProtoField& g) -> Status {
    if (g.number == 1) vt.first = static_cast<int64_t>(g.value);
    if (g.number == 2) vt.second = static_cast<int64_t>(g.value);
    return {};
  }));
  return vt;
}

Result<Profile> decode(std::string_view bytes) {
  Profile p;
  Status st = for_each_field(bytes, [&](const ProtoField& f) -> Status {
    switch (f.number) {
      case 1: {  // sample_type
        ASSIGN_OR_RETURN(auto vt, value_type(f));
        p.sample_types.push_back(vt);
        return {};
      }
      case 2: {  // sample
        Profile::Sample s;
        RETURN_IF_ERROR(for_each_field(f.bytes, [&](const ProtoField& g) -> Status {
          if (g.number == 1)
            return for_each_varint(g, [&](uint64_t v) { s.locations.push_back(v); });
          if (g.number == 2) {
            return for_each_varint(
                g, [&](uint64_t v) { s.values.push_back(static_cast<int64_t>(v)); });
          }
          if (g.number == 3) {
            Profile::Label l;
            RETURN_IF_ERROR(for_each_field(g.bytes, [&](const ProtoField& h) -> Status {
              if (h.number == 1) l.key = static_cast<int64_t>(h.value);
              if (h.number == 2) l.str = static_cast<int64_t>(h.value);
              if (h.number == 3) l.num = static_cast<int64_t>(h.value);
              return {};
            }));
            s.labels.push_back(l);
          }
          return {};
        }));
        p.samples.push_back(std::move(s));
        return {};
      }
      case 3: {  // mapping
        Profile::Mapping m;
        RETURN_IF_ERROR(for_each_field(f.bytes, [&](const ProtoField& g) -> Status {
          switch (g.number) {
            case 1:
              m.id = g.value;
              break;
            case 2:
              m.start = g.value;
              break;
            case 3:
              m.limit = g.value;
              break;
            case 4:
              m.offset = g.value;
              break;
            case 5:
              m.filename = static_cast<int64_t>(g.value);
              break;
            case 6:
              m.build_id = static_cast<int64_t>(g.value);
              break;
          }
          return {};
        }));
        p.mappings.push_back(m);
        return {};
      }
      case 4: {  // location
        Profile::Location l;
        RETURN_IF_ERROR(for_each_field(f.bytes, [&](const ProtoField& g) -> Status {
          if (g.number == 1) l.id = g.value;
          if (g.number == 2) l.mapping_id = g.value;
          if (g.number == 3) l.address = g.value;
          if (g.number == 4) l.has_lines = true;
          return {};
        }));
        p.locations.push_back(l);
        return {};
      }
      case 5:
        ++p.functions;
        return {};
      case 6:
        if (f.wire != ProtoWireType::kLengthDelimited)
          return make_error("a string that is no string", f.offset);
        p.strings.emplace_back(f.bytes);
        return {};
      case 10:
        p.duration = static_cast<int64_t>(f.value);
        return {};
      case 11: {
        ASSIGN_OR_RETURN(p.period_type, value_type(f));
        p.has_period_type = true;
        return {};
      }
      case 12:
        p.period = static_cast<int64_t>(f.value);
        return {};
      case 13:
        return for_each_varint(f,
                               [&](uint64_t v) { p.comments.push_back(static_cast<int64_t>(v)); });
      case 14:
        p.default_sample_type = static_cast<int64_t>(f.value);
        return {};
      default:
        return {};  // drop_frames, keep_frames, time_nanos: readperf writes none
    }
  });
  RETURN_IF_ERROR(st);
  // Every string index must name a string.
  auto check = [&](int64_t i) { return i >= 0 && static_cast<uint64_t>(i) < p.strings.size(); };
  if (p.strings.empty() || !p.strings[0].empty())
    return make_error("a string table not starting with \"\"");
  bool ok =
      check(p.default_sample_type) && check(p.period_type.first) && check(p.period_type.second);
  for (auto [t, u] : p.sample_types) ok = ok && check(t) && check(u);
  for (int64_t c : p.comments) ok = ok && check(c);
  for (const Profile::Mapping& m : p.mappings) ok = ok && check(m.filename) && check(m.build_id);
  for (const Profile::Sample& s : p.samples) {
    for (const Profile::Label& l : s.labels) ok = ok && check(l.key) && check(l.str);
  }
  if (!ok) return make_error("a string index past the string table");
  return p;
}

// A gzipped profile inflated (zlib's gzip and zlib headers both read), or the bytes as they are.
Result<std::string> inflate_profile(std::string_view in, uint64_t max_size) {
  if (in.size() < 2 || static_cast<uint8_t>(in[0]) != 0x1f || static_cast<uint8_t>(in[1]) != 0x8b) {
    return std::string(in);
  }
  z_stream z{};
  if (inflateInit2(&z, 15 + 32) != Z_OK) return make_error("zlib: cannot start");
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  z.avail_in = static_cast<uInt>(in.size());
  std::string out;
  char buf[1 << 16];
  int r;
  do {
    z.next_out = reinterpret_cast<Bytef*>(buf);
    z.avail_out = sizeof buf;
    r = inflate(&z, Z_NO_FLUSH);
    if (r != Z_OK && r != Z_STREAM_END) {
      inflateEnd(&z);
      return make_error(fmt::format("gzip: {}", z.msg ? z.msg : "damaged data"), z.total_in);
    }
    out.append(buf, sizeof buf - z.avail_out);
    if (out.size() > max_size) {
      inflateEnd(&z);
      return make_error(fmt::format("inflates to more than {} bytes", max_size));
    }
    if (r != Z_STREAM_END && z.avail_in == 0 && z.avail_out != 0) {
      inflateEnd(&z);
      return make_error("gzip: cut short", z.total_in);
    }
  } while (r != Z_STREAM_END);
  inflateEnd(&z);
  return out;
}

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

// The labels readperf's unsymbolized export gives a sample (pprof_builder.h).
struct SampleLabels {
  std::string_view comm;
  int64_t pid = 0;
  int64_t unwound_from = -1;
  std::string_view cpumodes;
  // The cpumode location `i` was looked up in; `where` its mapping's start, else its address.
  uint8_t cpumode(size_t i, uint64_t where) const {
    if (i < cpumodes.size() && cpumodes[i] >= '0' && cpumodes[i] <= '7') {
      return static_cast<uint8_t>(cpumodes[i] - '0');
    }
    return implied_cpumode(where);
  }
};

// The index of the mapping of `id` (readperf writes ids 1, 2, ... in order; others may not), or
// past the end.
size_t mapping_index(const Profile& p, uint64_t id) {
  if (id >= 1 && id <= p.mappings.size() && p.mappings[id - 1].id == id) return id - 1;
  for (size_t i = 0; i < p.mappings.size(); ++i) {
    if (id && p.mappings[i].id == id) return i;
  }
  return ~size_t{0};
}

// The mappings as a Machine's maps: the kernel's from synthesized kernel MMAP records (its
// relocation reference from the mark), modules and BPF programs likewise, and each user
// mapping in a thread of its own (mappings of different processes may overlap).
class MappedMachine {
 public:
  // `kernel`: by mapping index, whether its addresses are looked up in the kernel's maps.
  MappedMachine(const Profile& p, const std::vector<bool>& kernel,
                const std::optional<std::pair<std::string, uint64_t>>& ref)
      : p_(p), threads_(p.mappings.size(), nullptr) {
    // The build-id table first, as a recording's header states it before any record.
    for (size_t i = 0; i < p.mappings.size(); ++i) {
      const Profile::Mapping& m = p.mappings[i];
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
        const Profile::Mapping& m = p.mappings[i];
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
  const Profile::Mapping* mapping(uint64_t mapping_id) const {
    size_t i = index_of(mapping_id);
    return i < p_.mappings.size() ? &p_.mappings[i] : nullptr;
  }

 private:
  size_t index_of(uint64_t mapping_id) const { return mapping_index(p_, mapping_id); }

  void add_user(size_t i, const Profile::Mapping& m, const std::string& name) {
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

  const Profile& p_;
  Machine machine_;
  std::vector<const Thread*> threads_;  // by mapping index
  std::string kernel_name_;
};

}  // namespace

Status symbolize_pprof(std::string_view input, const SymbolizeConfig& config, FILE* out) {
  ASSIGN_OR_RETURN(std::string bytes, inflate_profile(input, config.max_size));
  ASSIGN_OR_RETURN(Profile p, decode(bytes));
  if (p.functions > 0) return make_error("the profile has functions already");
  std::optional<std::pair<std::string, uint64_t>> ref;
  PprofHeader h;
  for (auto [t, u] : p.sample_types) h.sample_types.emplace_back(p.str(t), p.str(u));
  h.has_period_type = p.has_period_type;
  h.period_type = {p.str(p.period_type.first), p.str(p.period_type.second)};
  h.default_sample_type = p.str(p.default_sample_type);
  h.period = p.period;
  h.duration_nanos = p.duration;
  for (int64_t c : p.comments) {
    if (p.str(c).starts_with(kUnsymbolizedMark)) {
      ref = kernel_ref_of(p.str(c));
      continue;
    }
    h.comments.push_back(p.str(c));
  }

  // The binaries no local file has, fetched in parallel (dso_loader.h).
  std::vector<DsoRef> refs;
  for (const Profile::Mapping& m : p.mappings) {
    if (m.start >= kPprofKernelStart || p.str(m.build_id).empty()) continue;
    const std::string& name = p.str(m.filename);
    refs.push_back({name, BuildId::from_hex(p.str(m.build_id)), dso_kind_for(name)});
  }
  prefetch_from_debuginfod(refs, config.symbols);

  // Each sample's labels, and the cpumode of each of its locations: its "cpumodes" digit, else
  // what the address implies. A mapping is the kernel's when looked up in kernel mode.
  std::vector<const Profile::Location*> by_id(p.locations.size() + 1, nullptr);
  for (const Profile::Location& l : p.locations) {
    if (l.id >= 1 && l.id <= p.locations.size()) by_id[l.id] = &l;
  }
  std::vector<SampleLabels> labels(p.samples.size());
  std::vector<int> kernel_use(p.mappings.size(), -1);  // -1 unused, 0 user, 1 kernel
  for (size_t k = 0; k < p.samples.size(); ++k) {
    const Profile::Sample& s = p.samples[k];
    SampleLabels& sl = labels[k];
    for (const Profile::Label& l : s.labels) {
      const std::string& key = p.str(l.key);
      if (key == "comm") sl.comm = p.str(l.str);
      if (key == "pid") sl.pid = l.num;
      if (key == kUnwoundFromLabel) sl.unwound_from = l.num;
      if (key == kCpumodesLabel) sl.cpumodes = p.str(l.str);
    }
    for (size_t i = 0; i < s.locations.size(); ++i) {
      uint64_t id = s.locations[i];
      const Profile::Location* loc = id < by_id.size() ? by_id[id] : nullptr;
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
    const Profile::Sample& s = p.samples[k];
    const SampleLabels& sl = labels[k];
    frames.clear();
    for (size_t i = 0; i < s.locations.size(); ++i) {
      const Profile::Location* loc = by_id[s.locations[i]];
      const Profile::Mapping* m = mm.mapping(loc->mapping_id);
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
