// The profile.proto messages of a pprof export, built from resolved stacks and written
// gzipped: what `export --format pprof` and `readperf symbolize` share, so that a profile
// symbolized later is the same bytes as one symbolized when exported.
//
// Symbolized, a Location is one address with its functions: the inline frames innermost first,
// then the function they were inlined into, each Line with its source line, each Function a
// (name, file). Unsymbolized (`--no-symbolize`), a Location is an address and its mapping only,
// and each sample whose stack was unwound from a user stack copy (`--call-graph dwarf`) says
// where the unwound addresses begin (label `unwound_from`): those are the addresses that get
// inline frames once symbolized (perf adds them to unwound frames only).
//
//   PprofBuilder b(/*symbolized=*/true);
//   std::vector<PprofFrame> frames = ...;   // from the profile model, or pprof_frame()
//   std::vector<int64_t>& v = b.sample(comm, pid, frames, unwound_begin);
//   v.resize(n); v[0] += 1;
//   b.write(header, gzip);
//
// Ids and the string table are numbered in first-seen order: the same stacks added in the same
// order make the same bytes.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "gzip_writer.h"
#include "readperf/analysis/resolver.h"
#include "readperf/format/perf_abi.h"
#include "string_interner.h"

namespace readperf {

// What a Profile states besides its samples (profile.proto fields 1, 11-14, 10).
struct PprofHeader {
  std::vector<std::pair<std::string, std::string>> sample_types;  // (type, unit)
  bool has_period_type = false;
  std::pair<std::string, std::string> period_type;
  std::string default_sample_type;  // empty: none
  int64_t period = 0;
  int64_t duration_nanos = 0;
  std::vector<std::string> comments;
};

// The comment that marks an unsymbolized profile, and says where the kernel's symbols are
// anchored (machine.c ref_reloc_sym): "readperf-unsymbolized kernel-ref=_text:0xffff...".
inline constexpr std::string_view kUnsymbolizedMark = "readperf-unsymbolized";
// The label of the first unwound location's index.
inline constexpr std::string_view kUnwoundFromLabel = "unwound_from";
// The label of the cpumode each location was looked up in (one digit per location, perf's
// PERF_RECORD_MISC_* values), present when one differs from what its address implies:
// kernel maps from 1 << 63 up (machine__kernel_start() on x86_64), a process's below. A sample
// of user mode at a kernel address (a syscall's entry) has no map; in kernel mode it might.
inline constexpr std::string_view kCpumodesLabel = "cpumodes";
// Where kernel addresses begin (ResolverOptions::kernel_start's default).
inline constexpr uint64_t kPprofKernelStart = uint64_t{1} << 63;
// The cpumode an address is taken to be looked up in without a "cpumodes" label: `where` is
// its mapping's start, or the address itself without one.
inline uint8_t implied_cpumode(uint64_t where) {
  return where >= kPprofKernelStart ? kMiscKernel : kMiscUser;
}

// What the builder needs of one resolved frame.
struct PprofFrame {
  uint64_t ip = 0;
  // Tells mappings apart (0: no map); equal keys have equal start, limit, offset and names.
  uint64_t mapping_key = 0;
  uint64_t map_start = 0, map_limit = 0, map_pgoff = 0;
  std::string_view map_file, build_id;  // the build-id in hex
  std::string_view function;            // perf's symbol name ("[unknown]" without one)
  std::string_view file;                // the source file, empty without one
  int64_t line = 0;
  uint8_t cpumode = 0;
  bool has_symbol = false, inlined = false;
};

// A resolver's frame as the builder takes it: `lines` (may be null) finds its source line;
// `scratch` holds the build-id's text the result views.
PprofFrame pprof_frame(const Frame& f, Resolver* lines, std::string& scratch);

class PprofBuilder {
 public:
  explicit PprofBuilder(bool symbolized);

  // The values of the sample of (comm, pid, stack), made on first sight; `frames` leaf first,
  // inline frames before the frame they are in; from `unwound_begin` on unwound from a stack.
  std::vector<int64_t>& sample(std::string_view comm, int32_t pid,
                               std::span<const PprofFrame> frames, size_t unwound_begin);

  void write(const PprofHeader& header, GzipWriter& out);

 private:
  struct VecHash {
    size_t operator()(const std::vector<uint64_t>& v) const;
  };
  // Interns `std::vector<uint64_t>` keys to dense ids 1, 2, ... in first-seen order.
  class KeyTable {
   public:
    std::pair<uint64_t, bool> intern(const std::vector<uint64_t>& key) {
      auto [it, added] = ids_.try_emplace(key, ids_.size() + 1);
      return {it->second, added};
    }

   private:
    std::unordered_map<std::vector<uint64_t>, uint64_t, VecHash> ids_;
  };
  struct MappingInfo {
    uint64_t start, limit, offset;
    int64_t filename, build_id;
    bool has_functions = false, has_lines = false, has_inline = false;
  };
  struct LineInfo {
    uint64_t function;
    int64_t line;
  };
  struct LocationInfo {
    uint64_t mapping_id, address;
    std::vector<LineInfo> lines;  // innermost first
  };
  struct SampleInfo {
    std::vector<uint64_t> locations;  // leaf first
    std::vector<int64_t> values;
    int64_t comm;
    int32_t pid;
    int64_t unwound_from;  // -1: none
    int64_t cpumodes;      // a string id, 0: none
  };

  int64_t str(std::string_view s) { return strings_.intern(s); }
  uint64_t mapping_id(const PprofFrame& f);
  uint64_t function_id(std::string_view name, std::string_view file);
  // One location for `group`: inline frames first, then the frame they were inlined into.
  uint64_t location_id(std::span<const PprofFrame> group);
  void flush(class ProtoWriter& w, GzipWriter& out);

  bool symbolized_;
  StringInterner strings_;
  int64_t str_comm_ = 0, str_pid_ = 0, str_unwound_ = 0, str_cpumodes_ = 0;
  std::string cpumodes_;
  KeyTable sample_ids_, mapping_ids_, location_ids_, function_ids_;
  std::vector<SampleInfo> samples_;
  std::vector<MappingInfo> mappings_;
  std::vector<LocationInfo> locations_;
  std::vector<std::pair<int64_t, int64_t>> functions_;  // (name, file)
  std::vector<uint64_t> key_, key2_;
  std::vector<LineInfo> lines_of_;
};

}  // namespace readperf
