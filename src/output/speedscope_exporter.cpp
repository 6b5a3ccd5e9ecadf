// The speedscope writer: StackCounts from collapse_stacks() with the event as each stack's
// root, split back into one profile per event.
#include "readperf/output/speedscope_exporter.h"

#include <fmt/format.h>

#include <string>
#include <vector>

#include "json_util.h"

namespace readperf {

const char* speedscope_unit(std::string_view event, bool count_samples) {
  if (count_samples) return "none";
  // perf's names for PERF_COUNT_SW_CPU_CLOCK and TASK_CLOCK, with or without modifiers.
  std::string_view base = event.substr(0, event.find(':'));
  return base == "cpu-clock" || base == "task-clock" ? "nanoseconds" : "none";
}

Status run_speedscope_export(PerfData& data, CollapsedConfig config, OutBuffer& out, FILE* err) {
  config.collapse.event_root = true;
  StackCounts counts;
  Status st = collapse_stacks(data, config, counts, err);

  // Frame indices: the names of every stack below its event root, in first-use order.
  std::vector<int64_t> frame_of;  // StackCounts id -> frame index, -1 unused
  std::vector<uint32_t> frames;   // frame index -> StackCounts id
  struct Profile {
    uint32_t event;
    std::vector<std::pair<std::vector<uint32_t>, uint64_t>> stacks;
    uint64_t total = 0;
  };
  std::vector<Profile> profiles;
  counts.for_each_stack([&](std::span<const uint32_t> stack, uint64_t n) {
    if (stack.empty()) return;
    if (profiles.empty() || profiles.back().event != stack[0]) {
      profiles.push_back(Profile{stack[0], {}, 0});
    }
    std::vector<uint32_t> indices;
    for (uint32_t id : stack.subspan(1)) {
      if (frame_of.size() <= id) frame_of.resize(id + 1, -1);
      if (frame_of[id] < 0) {
        frame_of[id] = static_cast<int64_t>(frames.size());
        frames.push_back(id);
      }
      indices.push_back(static_cast<uint32_t>(frame_of[id]));
    }
    profiles.back().stacks.emplace_back(std::move(indices), n);
    profiles.back().total += n;
  });

  fmt::memory_buffer& b = out.buffer();
  out.write("{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\",\n");
  out.write("\"exporter\":\"readperf\",\"name\":");
  json_string(b, data.path() == "-" ? std::string_view("standard input") : data.path());
  out.write(",\"activeProfileIndex\":0,\n\"shared\":{\"frames\":[");
  for (size_t i = 0; i < frames.size(); ++i) {
    out.write(i ? ",\n{\"name\":" : "\n{\"name\":");
    json_string(b, counts.name(frames[i]));
    out.put('}');
    out.maybe_flush();
  }
  out.write("]},\n\"profiles\":[");
  for (size_t p = 0; p < profiles.size(); ++p) {
    const Profile& prof = profiles[p];
    std::string_view event = counts.name(prof.event);
    out.write(p ? ",\n{\"type\":\"sampled\",\"name\":" : "\n{\"type\":\"sampled\",\"name\":");
    json_string(b, event);
    out.print(",\"unit\":\"{}\",\"startValue\":0,\"endValue\":{},\n\"samples\":[",
              speedscope_unit(event, config.collapse.count_samples), prof.total);
    for (size_t i = 0; i < prof.stacks.size(); ++i) {
      out.write(i ? ",[" : "[");
      const std::vector<uint32_t>& s = prof.stacks[i].first;
      for (size_t k = 0; k < s.size(); ++k) {
        if (k) out.put(',');
        out.dec(s[k]);
      }
      out.put(']');
      out.maybe_flush();
    }
    out.write("],\n\"weights\":[");
    for (size_t i = 0; i < prof.stacks.size(); ++i) {
      if (i) out.put(',');
      out.dec(prof.stacks[i].second);
      out.maybe_flush();
    }
    out.write("]}");
  }
  out.write("]}\n");
  out.flush();
  return st;
}

}  // namespace readperf
