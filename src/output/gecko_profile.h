// The Gecko profile as gecko_exporter.cpp collects it and gecko_writer.cpp writes it: per
// process its libs and threads, per thread the tables of the format (strings, frames, stacks)
// interned as the samples come, and the samples and markers as columns.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "readperf/output/out_buffer.h"
#include "readperf/reader/features.h"
#include "string_interner.h"

namespace readperf::gecko {

// meta.categories: the index of each.
enum Category : uint8_t { kUser = 0, kKernel = 1, kOther = 2 };

struct Lib {
  uint64_t start = 0, end = 0, offset = 0;
  std::string name, path, build_id_hex;
};

struct Marker {
  uint32_t name = 0;  // into the thread's string table
  uint64_t time = 0;  // ns, perf's clock
  // The payload's fields after "type", as JSON text (`,"cpu":1,...`).
  std::string data;
  bool tracepoint = false;  // Tracepoint, else ContextSwitch
};

struct Thread {
  int32_t pid = 0, tid = 0;
  std::string name;
  StringInterner strings;
  struct Frame {
    uint32_t location;
    int32_t line;  // 0: none
    Category category;
  };
  std::vector<Frame> frames;
  std::unordered_map<uint64_t, uint32_t> frame_ids;  // (location, line, category) -> frame
  std::vector<std::pair<int64_t, uint32_t>> stacks;  // (prefix or -1, frame)
  std::unordered_map<uint64_t, uint32_t> stack_ids;  // (prefix + 1, frame) -> stack
  std::vector<uint32_t> sample_stack;
  std::vector<uint64_t> sample_time, sample_weight;
  std::vector<Marker> markers;

  uint32_t intern_frame(uint32_t location, int32_t line, Category category);
  uint32_t intern_stack(int64_t prefix, uint32_t frame);
};

struct Process {
  int32_t pid = 0;
  std::vector<uint32_t> threads;  // indexes into Profile::threads
  std::vector<Lib> libs;
  std::unordered_map<uint64_t, uint32_t> lib_at;  // map start -> lib
};

struct Profile {
  std::vector<Thread> threads;
  std::vector<Process> processes;
  std::string event;              // the sampled event
  bool cpu_time_weights = false;  // the weights are nanoseconds of CPU time
  double interval_ms = 1;
  std::optional<uint64_t> start_time;  // ns, the earliest sample or marker
};

// Writes the whole document.
void write_profile(const Profile& p, const Features& env, OutBuffer& out);

}  // namespace readperf::gecko
