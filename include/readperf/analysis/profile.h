// The profile model: a recording's samples resolved once, held as tables that every export and
// the Python binding read instead of walking the records again.
//
// - strings: every name (comm, dso, symbol, srcline, file, event) interned once; id 0 is "".
// - frames: one row per distinct resolved address (ip, map-relative address, mapping, dso,
//   symbol, offset, srcline, source file and line, inline flag, cpumode).
// - mappings: the maps frames fell in (start, limit, file offset, file name, build-id).
// - stacks: a parent-pointer table: stack id N (1-based) is node N-1, a frame and the stack of
//   its caller; stack 0 is the empty stack. Equal call chains share their nodes, so a sample
//   costs one stack id whatever its depth.
// - samples: columns (time, pid, tid, cpu, event, period, stack, comm), plus the optional ones
//   the recording's sample_type carries (addr, weight), empty when no event records them.
//
//   ProfileBuilder b(ProfileOptions{.lines = true});
//   // for each resolved sample (SamplePipeline::on_sample):
//   b.add(sample, evsel.index, period, rs, frames, &resolver);
//   Profile p = std::move(b).finish();
//   for (size_t i = 0; i < p.samples.size(); ++i)
//     for (uint32_t s = p.samples.stack[i]; s; s = p.stack_parent(s))
//       print(p.str(p.frames[p.stack_frame(s)].symbol));   // leaf first
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "readperf/analysis/resolver.h"
#include "readperf/reader/sample.h"

namespace readperf {

struct ProfileFrame {
  uint64_t ip = 0;             // as recorded
  uint64_t rel_addr = 0;       // map-relative (perf's al.addr)
  uint64_t symbol_offset = 0;  // the '+0x..' perf prints after the symbol
  uint32_t mapping = 0;        // 1-based index into Profile::mappings, 0: no map
  uint32_t dso = 0;            // string: perf's dso name ("[unknown]" without a map)
  uint32_t symbol = 0;         // string: perf's symbol name ("[unknown]" without one)
  uint32_t short_dso = 0;      // string: report's "Shared Object" (the dso's short name)
  uint32_t srcline = 0;        // string: sort.c's srcline (ProfileOptions::srclines), 0: none
  uint32_t file = 0;           // string: the source file (ProfileOptions::lines), 0: none
  uint32_t line = 0;           // its line, 0: none
  uint8_t cpumode = 0;         // PERF_RECORD_MISC_* the address was looked up in
  uint8_t flags = 0;           // kHasSymbol | kInlined | kUnwound | kUserDso

  static constexpr uint8_t kHasSymbol = 1;
  static constexpr uint8_t kInlined = 2;  // an inline frame: its caller is the next frame
  static constexpr uint8_t kUnwound = 4;  // unwound from a user stack copy (--call-graph dwarf)
  static constexpr uint8_t kUserDso = 8;  // in a user-space binary's map
  bool has_symbol() const { return flags & kHasSymbol; }
  bool inlined() const { return flags & kInlined; }
  bool unwound() const { return flags & kUnwound; }
  // The address perf prints in a call chain: map-relative in a user-space binary.
  uint64_t chain_ip() const { return (flags & kUserDso) ? rel_addr : ip; }
};

struct ProfileMapping {
  uint64_t start = 0, limit = 0, pgoff = 0;
  uint32_t filename = 0;  // string: the dso's long name (short name without one)
  uint32_t build_id = 0;  // string: hex, 0 when unknown
};

struct ProfileEvent {
  std::string name;  // perf's event name
  uint32_t type = 0;
  uint64_t config = 0;
  uint64_t sample_type = 0;
  uint64_t sample_period = 0;  // 0 with a frequency
  bool freq = false;
};

// The sample columns: row i of each is sample i, in perf's delivery order.
struct ProfileSamples {
  std::vector<uint64_t> time;  // ~0 when not recorded
  std::vector<int32_t> pid, tid;
  std::vector<uint32_t> cpu;    // ~0 when not recorded
  std::vector<uint16_t> event;  // index into Profile::events
  std::vector<uint64_t> period;
  std::vector<uint32_t> stack;  // stack id, 0: none
  std::vector<uint32_t> comm;   // string
  // Optional columns: empty unless some event records them.
  std::vector<uint64_t> addr;
  std::vector<uint64_t> weight;

  size_t size() const { return time.size(); }
  // Bytes the columns hold per sample (capacity left out).
  size_t bytes_per_sample() const;
};

class Profile {
 public:
  std::vector<ProfileEvent> events;  // by evsel index
  std::vector<ProfileFrame> frames;
  std::vector<ProfileMapping> mappings;
  ProfileSamples samples;
  // machine.c ref_reloc_sym: the kernel's relocation reference, when the recording has one.
  std::optional<std::pair<std::string, uint64_t>> kernel_ref;

  std::string_view str(uint32_t id) const { return strings_[id]; }
  size_t string_count() const { return strings_.size(); }

  // The stack table: node of stack id `s` (1-based): its leaf frame and its caller's stack.
  size_t stack_count() const { return stack_nodes_.size(); }
  uint32_t stack_frame(uint32_t s) const { return stack_nodes_[s - 1].frame; }
  uint32_t stack_parent(uint32_t s) const { return stack_nodes_[s - 1].parent; }
  // The frames of stack `s`, leaf first, appended to `out` (cleared first).
  void stack_frames(uint32_t s, std::vector<uint32_t>& out) const;

 private:
  friend class ProfileBuilder;
  struct StackNode {
    uint32_t parent;
    uint32_t frame;
  };
  std::deque<std::string> strings_;  // a deque: the builder's index views them
  std::vector<StackNode> stack_nodes_;
};

struct ProfileOptions {
  // Source file and line of each frame with a symbol (Resolver::line_record(): DWARF lines).
  bool lines = false;
  // sort.c's srcline of each frame (addr2line's answer, perf's "file:line" or "sym+off").
  bool srclines = false;
};

class ProfileBuilder {
 public:
  explicit ProfileBuilder(ProfileOptions options = {});

  // Declares the event of evsel index `index` (before or after its samples).
  void set_event(size_t index, ProfileEvent event);

  // One resolved sample: `frames` leaf first (the call chain, or the sample's own frame), as
  // SamplePipeline hands them; `unwound_begin` where the frames unwound from the user stack
  // begin (frames.size(): none). `resolver` (may be null) looks up lines and srclines; the
  // frames' maps must be those of the machine as it is now.
  void add(const Sample& s, size_t event, uint64_t period, std::string_view comm,
           std::span<const Frame> frames, size_t unwound_begin, Resolver* resolver, bool chain);

  void set_kernel_ref(std::string name, uint64_t addr) {
    profile_.kernel_ref.emplace(std::move(name), addr);
  }

  Profile finish() &&;

 private:
  struct FrameKey {
    uint64_t ip, addr, sym_addr, map_start, map_end, map_pgoff;
    const void* dso;
    const void* sym;
    const void* record;
    uint8_t cpumode, flags;
    char level;
    bool chain;
    bool operator==(const FrameKey&) const = default;
  };
  struct FrameKeyHash {
    size_t operator()(const FrameKey& k) const;
  };
  struct PairHash {
    size_t operator()(uint64_t k) const;
  };
  struct MappingKey {
    const void* dso;
    uint64_t start, end, pgoff;
    bool operator==(const MappingKey&) const = default;
  };
  struct MappingKeyHash {
    size_t operator()(const MappingKey& k) const;
  };
  struct StringHash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>()(s); }
  };

  uint32_t intern(std::string_view s);
  uint32_t frame_id(const Frame& f, bool unwound, bool chain, Resolver* resolver);
  uint32_t mapping_id(const Frame& f);

  ProfileOptions options_;
  Profile profile_;
  std::unordered_map<std::string_view, uint32_t, StringHash, std::equal_to<>> string_ids_;
  std::unordered_map<FrameKey, uint32_t, FrameKeyHash> frame_ids_;
  std::unordered_map<MappingKey, uint32_t, MappingKeyHash> mapping_ids_;
  std::unordered_map<uint64_t, uint32_t, PairHash> stack_ids_;  // (parent << 32 | frame) -> id
};

}  // namespace readperf
