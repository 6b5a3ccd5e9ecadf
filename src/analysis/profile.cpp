#include "readperf/analysis/profile.h"

#include <fmt/format.h>

#include <iterator>

#include "readperf/format/hash_mix.h"
#include "readperf/format/perf_abi.h"

namespace readperf {

namespace {

uint64_t ptr(const void* p) { return reinterpret_cast<uintptr_t>(p); }

}  // namespace

size_t ProfileSamples::bytes_per_sample() const {
  size_t n = size();
  if (!n) return 0;
  size_t bytes =
      n * (sizeof(uint64_t) * 2 + sizeof(int32_t) * 2 + sizeof(uint32_t) * 3 + sizeof(uint16_t));
  bytes += (addr.size() + weight.size()) * sizeof(uint64_t);
  return bytes / n;
}

void Profile::stack_frames(uint32_t s, std::vector<uint32_t>& out) const {
  out.clear();
  for (; s; s = stack_parent(s)) out.push_back(stack_frame(s));
}

size_t ProfileBuilder::FrameKeyHash::operator()(const FrameKey& k) const {
  uint64_t h = hash_mix(k.ip, k.addr);
  h = hash_mix(h, k.sym_addr);
  h = hash_mix(h, k.map_start);
  h = hash_mix(h, k.map_end);
  h = hash_mix(h, k.map_pgoff);
  h = hash_mix(h, ptr(k.dso));
  h = hash_mix(h, ptr(k.sym));
  h = hash_mix(h, ptr(k.record));
  h = hash_mix(h, uint64_t{k.cpumode} | uint64_t{k.flags} << 8 |
                      uint64_t{static_cast<uint8_t>(k.level)} << 16 | uint64_t{k.chain} << 24);
  return static_cast<size_t>(hash_finish(h));
}

size_t ProfileBuilder::PairHash::operator()(uint64_t k) const {
  return static_cast<size_t>(hash_finish(k * 0x9e3779b97f4a7c15ull));
}

size_t ProfileBuilder::MappingKeyHash::operator()(const MappingKey& k) const {
  uint64_t h = hash_mix(ptr(k.dso), k.start);
  h = hash_mix(h, k.end);
  h = hash_mix(h, k.pgoff);
  return static_cast<size_t>(hash_finish(h));
}

ProfileBuilder::ProfileBuilder(ProfileOptions options) : options_(options) {
  intern("");  // id 0: no string
}

uint32_t ProfileBuilder::intern(std::string_view s) {
  auto it = string_ids_.find(s);
  if (it != string_ids_.end()) return it->second;
  auto id = static_cast<uint32_t>(profile_.strings_.size());
  profile_.strings_.emplace_back(s);
  string_ids_.emplace(profile_.strings_.back(), id);
  return id;
}

void ProfileBuilder::set_event(size_t index, ProfileEvent event) {
  if (profile_.events.size() <= index) profile_.events.resize(index + 1);
  profile_.events[index] = std::move(event);
}

uint32_t ProfileBuilder::mapping_id(const Frame& f) {
  if (!f.map || !f.dso) return 0;
  MappingKey key{f.dso, f.map->start, f.map->end, f.map->pgoff};
  auto [it, added] =
      mapping_ids_.try_emplace(key, static_cast<uint32_t>(profile_.mappings.size() + 1));
  if (added) {
    std::string build_id;
    for (uint8_t b : f.dso->build_id) fmt::format_to(std::back_inserter(build_id), "{:02x}", b);
    // BPF trampolines and dispatchers have no long name (map.c is_bpf_image()).
    const std::string& name = f.dso->long_name.empty() ? f.dso->short_name : f.dso->long_name;
    profile_.mappings.push_back(
        ProfileMapping{f.map->start, f.map->end, f.map->pgoff, intern(name), intern(build_id)});
  }
  return it->second;
}

uint32_t ProfileBuilder::frame_id(const Frame& f, bool unwound, bool chain, Resolver* resolver) {
  uint8_t flags =
      (f.sym ? ProfileFrame::kHasSymbol : 0) | (f.inlined ? ProfileFrame::kInlined : 0) |
      (unwound ? ProfileFrame::kUnwound : 0) | (f.user_dso() ? ProfileFrame::kUserDso : 0);
  FrameKey key{f.ip,
               f.addr,
               f.sym_addr,
               f.map ? f.map->start : 0,
               f.map ? f.map->end : 0,
               f.map ? f.map->pgoff : 0,
               f.dso,
               f.sym,
               f.record,
               f.cpumode,
               flags,
               f.level,
               options_.srclines && chain};
  auto it = frame_ids_.find(key);
  if (it != frame_ids_.end()) return it->second;
  ProfileFrame pf;
  pf.ip = f.ip;
  pf.rel_addr = f.addr;
  pf.symbol_offset = f.symoff();
  pf.mapping = mapping_id(f);
  pf.dso = intern(f.dso_name());
  pf.short_dso = f.map && f.dso ? intern(f.dso->short_name) : pf.dso;
  pf.symbol = intern(f.symbol_name());
  pf.cpumode = f.cpumode;
  pf.flags = flags;
  if (resolver && options_.lines && (f.sym || f.inlined)) {
    if (const InlineRecord* rec = resolver->line_record(f)) {
      if (rec->file != "??") pf.file = intern(rec->file);
      pf.line = rec->line;
    }
  }
  if (resolver && options_.srclines && f.map && f.dso) {
    pf.srcline = intern(resolver->srcline(f, chain));
  }
  auto id = static_cast<uint32_t>(profile_.frames.size());
  profile_.frames.push_back(pf);
  frame_ids_.emplace(key, id);
  return id;
}

void ProfileBuilder::add(const Sample& s, size_t event, uint64_t period, std::string_view comm,
                         std::span<const Frame> frames, size_t unwound_begin, Resolver* resolver,
                         bool chain) {
  // The stack from its root: each node is (caller's stack, frame).
  uint32_t stack = 0;
  for (size_t i = frames.size(); i-- > 0;) {
    uint32_t frame = frame_id(frames[i], i >= unwound_begin, chain, resolver);
    uint64_t key = uint64_t{stack} << 32 | frame;
    auto [it, added] =
        stack_ids_.try_emplace(key, static_cast<uint32_t>(profile_.stack_nodes_.size() + 1));
    if (added) profile_.stack_nodes_.push_back(Profile::StackNode{stack, frame});
    stack = it->second;
  }
  ProfileSamples& c = profile_.samples;
  size_t row = c.size();
  c.time.push_back(s.time);
  c.pid.push_back(s.pid);
  c.tid.push_back(s.tid);
  c.cpu.push_back(s.cpu);
  c.event.push_back(static_cast<uint16_t>(event));
  c.period.push_back(period);
  c.stack.push_back(stack);
  c.comm.push_back(intern(comm));
  // The optional columns start at the first sample that carries them, zeros before it.
  if ((s.sample_type & kSampleAddr) && c.addr.empty()) c.addr.resize(row);
  if (!c.addr.empty()) c.addr.push_back(s.addr);
  if ((s.sample_type & kSampleWeightType) && c.weight.empty()) c.weight.resize(row);
  if (!c.weight.empty()) c.weight.push_back(s.weight);
}

Profile ProfileBuilder::finish() && {
  // The index views the profile's strings, which move with it: it is dropped first.
  string_ids_.clear();
  frame_ids_.clear();
  mapping_ids_.clear();
  stack_ids_.clear();
  return std::move(profile_);
}

}  // namespace readperf
