// The pprof exporter: the profile model (profile_reader.h) folded into profile.proto messages by
// PprofBuilder (pprof_builder.h), gzipped (profile.proto: "On-disk, the serialized proto must
// be gzip-compressed").
#include "readperf/output/pprof_exporter.h"

#include <fmt/format.h>

#include <string>
#include <vector>

#include "pprof_builder.h"
#include "readperf/analysis/profile_reader.h"
#include "readperf/format/perf_abi.h"

namespace readperf {

namespace {

struct EventSlot {
  std::string name, unit;
  uint64_t fixed_period = 0;
};

// The model's frame as the builder takes it.
PprofFrame pprof_frame(const Profile& p, const ProfileFrame& f) {
  PprofFrame out;
  out.ip = f.ip;
  if (f.mapping) {
    const ProfileMapping& m = p.mappings[f.mapping - 1];
    out.mapping_key = f.mapping;
    out.map_start = m.start;
    out.map_limit = m.limit;
    out.map_pgoff = m.pgoff;
    out.map_file = p.str(m.filename);
    out.build_id = p.str(m.build_id);
  }
  out.function = p.str(f.symbol);
  out.file = p.str(f.file);
  out.line = f.line;
  out.cpumode = f.cpumode;
  out.has_symbol = f.has_symbol();
  out.inlined = f.inlined();
  return out;
}

// The mark of an unsymbolized profile, with what `readperf symbolize` needs to find the
// kernel's symbols: the recorded address of its relocation reference symbol.
std::string unsymbolized_mark(const Profile& p) {
  std::string mark(kUnsymbolizedMark);
  if (p.kernel_ref)
    mark += fmt::format(" kernel-ref={}:{:#x}", p.kernel_ref->first, p.kernel_ref->second);
  return mark;
}

// The profile's samples folded by PprofBuilder, in the order they came.
void write_pprof(const Profile& p, bool symbolized, GzipWriter& out) {
  PprofBuilder builder(symbolized);
  std::vector<size_t> slots(p.events.size(), ~size_t{0});
  std::vector<EventSlot> events;
  uint64_t first_time = ~0ull, last_time = 0;
  // Each profile frame converted once; a stack's frames gathered leaf first.
  std::vector<PprofFrame> frames;
  frames.reserve(p.frames.size());
  for (const ProfileFrame& f : p.frames) frames.push_back(pprof_frame(p, f));
  std::vector<uint32_t> ids;
  std::vector<PprofFrame> stack;
  const ProfileSamples& c = p.samples;
  for (size_t i = 0; i < c.size(); ++i) {
    size_t& slot = slots[c.event[i]];
    if (slot == ~size_t{0}) {
      slot = events.size();
      const ProfileEvent& e = p.events[c.event[i]];
      // The software clocks count nanoseconds (PERF_COUNT_SW_CPU_CLOCK 0, TASK_CLOCK 1).
      bool clock = e.type == kTypeSoftware && (e.config == 0 || e.config == 1);
      events.push_back(EventSlot{e.name, clock ? "nanoseconds" : "count", e.sample_period});
    }
    if (uint64_t t = c.time[i]; t != ~0ull) {
      if (first_time == ~0ull || t < first_time) first_time = t;
      if (t > last_time) last_time = t;
    }
    p.stack_frames(c.stack[i], ids);
    stack.clear();
    size_t unwound = ids.size();
    for (size_t k = 0; k < ids.size(); ++k) {
      if (unwound == ids.size() && p.frames[ids[k]].unwound()) unwound = k;
      stack.push_back(frames[ids[k]]);
    }
    std::vector<int64_t>& v = builder.sample(p.str(c.comm[i]), c.pid[i], stack, unwound);
    if (v.size() < slot + 2) v.resize(slot + 2);
    v[0] += 1;
    v[slot + 1] += static_cast<int64_t>(c.period[i]);
  }

  PprofHeader h;
  // sample_type: samples/count, then the events in first-sample order.
  h.sample_types.emplace_back("samples", "count");
  for (const EventSlot& e : events) h.sample_types.emplace_back(e.name, e.unit);
  if (!events.empty()) {
    h.has_period_type = true;
    h.period_type = {events[0].name, events[0].unit};
    h.default_sample_type = events[0].name;
    h.period = static_cast<int64_t>(events[0].fixed_period);
  }
  if (last_time > first_time && first_time != ~0ull) {
    h.duration_nanos = static_cast<int64_t>(last_time - first_time);
  }
  h.comments.emplace_back("readperf export --format pprof");
  if (!symbolized) h.comments.push_back(unsymbolized_mark(p));
  builder.write(h, out);
}

}  // namespace

Status run_pprof_export(PerfData& data, const PprofConfig& config, FILE* out) {
  bool symbolized = config.symbols.symbol_tables;
  ProfileReadConfig rc{.symbols = config.symbols,
                       .max_stack = config.max_stack,
                       .selection = config.selection,
                       .model = ProfileOptions{.lines = symbolized}};
  ProfileRead read = read_profile(data, rc);
  // What was read before a damaged record is written, as the other exporters do.
  GzipWriter gz(out, config.gzip);
  write_pprof(read.profile, symbolized, gz);
  RETURN_IF_ERROR(gz.finish());
  return read.status;
}

}  // namespace readperf
