// The Gecko profile export: the resolved sample stream collected into gecko_profile.h's tables
// (each distinct frame described once: its name, line and category), written at the end.
#include "readperf/output/gecko_exporter.h"

#include <fmt/format.h>

#include <charconv>

#include "gecko_profile.h"
#include "json_util.h"
#include "readperf/analysis/sample_pipeline.h"
#include "readperf/format/perf_abi.h"
#include "script_trace.h"

namespace readperf {

namespace gecko {

uint32_t Thread::intern_frame(uint32_t location, int32_t line, Category category) {
  uint64_t key =
      (uint64_t{location} << 32) | (static_cast<uint64_t>(line & 0x3fffffff) << 2) | category;
  auto [it, added] = frame_ids.emplace(key, static_cast<uint32_t>(frames.size()));
  if (added) frames.push_back({location, line, category});
  return it->second;
}

uint32_t Thread::intern_stack(int64_t prefix, uint32_t frame) {
  uint64_t key = (static_cast<uint64_t>(prefix + 1) << 32) | frame;
  auto [it, added] = stack_ids.emplace(key, static_cast<uint32_t>(stacks.size()));
  if (added) stacks.emplace_back(prefix, frame);
  return it->second;
}

}  // namespace gecko

namespace {

using gecko::Category;

// The line number of a "FILE:LINE" srcline, 0 when it has none ("??:0", "FILE:?").
int32_t srcline_line(std::string_view srcline) {
  size_t colon = srcline.rfind(':');
  if (colon == std::string_view::npos) return 0;
  int32_t line = 0;
  std::string_view digits = srcline.substr(colon + 1);
  auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), line);
  return ec == std::errc() && end == digits.data() + digits.size() && line > 0 ? line : 0;
}

class GeckoSink : public SamplePipeline {
 public:
  GeckoSink(PerfData& pd, const GeckoConfig& cfg)
      : SamplePipeline(
            pd, {.symbols = cfg.symbols, .max_stack = cfg.max_stack, .selection = cfg.selection}),
        cfg_(cfg),
        trace_(pd) {}

  gecko::Profile& profile() { return profile_; }

 protected:
  void on_sample(const Sample& s, const Evsel& evsel, uint64_t period, const ResolvedSample& rs,
                 std::span<const Frame> frames) override {
    if (s.time == ~0ull) return;  // nothing to place on a timeline
    const std::string& name = event_name_of(evsel);
    if (evsel.attr.type == kTypeTracepoint) return tracepoint_marker(s, evsel, rs, name);
    if (profile_.event.empty()) choose_event(evsel, period, name);
    if (name != profile_.event) return;
    gecko::Thread& t = thread(s.pid, s.tid, rs.comm);
    note_time(s.time);
    bool chain = s.has_callchain && frames.size() > 1;
    int64_t stack = -1;
    for (size_t i = frames.size(); i-- > 0;) {
      const FrameInfo& info = describe(frames[i], chain, s.pid);
      uint32_t location = t.strings.intern(info.location);
      stack = t.intern_stack(stack, t.intern_frame(location, info.line, info.category));
    }
    t.sample_stack.push_back(static_cast<uint32_t>(stack));
    t.sample_time.push_back(s.time);
    t.sample_weight.push_back(period);
  }

  void on_other(const RecordView& r, const Sample& s, const Evsel* /*evsel*/) override {
    if (r.type != kRecordSwitch && r.type != kRecordSwitchCpuWide) return;
    if (s.time == ~0ull) return;
    bool out = r.misc & kMiscSwitchOut;
    gecko::Marker m;
    m.time = s.time;
    m.data = fmt::format(",\"cpu\":{}", static_cast<int32_t>(s.cpu));
    if (out)
      m.data += (r.misc & kMiscSwitchOutPreempt) ? ",\"preempt\":\"yes\"" : ",\"preempt\":\"no\"";
    Thread* th = machine().findnew_thread(s.pid, s.tid);
    gecko::Thread& t = thread(s.pid, s.tid, th ? std::string_view(th->comm_str()) : "");
    m.name = t.strings.intern(out ? "switch-out" : "switch-in");
    note_time(s.time);
    t.markers.push_back(std::move(m));
  }

 private:
  struct FrameInfo {
    std::string location;
    int32_t line = 0;
    Category category = gecko::kUser;
  };
  struct FrameKey {
    const Dso* dso;
    const Symbol* sym;
    uint64_t ip;
    const char* srcline;
    bool inlined;
    bool operator==(const FrameKey&) const = default;
  };
  struct FrameKeyHash {
    size_t operator()(const FrameKey& k) const {
      size_t h = std::hash<const void*>()(k.dso) ^ (std::hash<const void*>()(k.sym) * 31);
      return h ^ (std::hash<uint64_t>()(k.ip) * 131) ^ std::hash<const void*>()(k.srcline) ^
             k.inlined;
    }
  };

  void choose_event(const Evsel& evsel, uint64_t period, const std::string& name) {
    profile_.event = cfg_.event.empty() ? name : cfg_.event;
    if (name != profile_.event) return;
    const EventAttr& a = evsel.attr;
    // cpu-clock and task-clock count nanoseconds of CPU time: their periods are that.
    profile_.cpu_time_weights = a.type == kTypeSoftware && (a.config == 0 || a.config == 1);
    if (a.freq() && a.sample_period) {
      profile_.interval_ms = 1000.0 / static_cast<double>(a.sample_period);
    } else if (profile_.cpu_time_weights && period) {
      profile_.interval_ms = static_cast<double>(period) / 1e6;
    }
  }

  void note_time(uint64_t time) {
    if (!profile_.start_time || time < *profile_.start_time) profile_.start_time = time;
  }

  gecko::Thread& thread(int32_t pid, int32_t tid, std::string_view comm) {
    uint64_t key = (uint64_t{static_cast<uint32_t>(pid)} << 32) | static_cast<uint32_t>(tid);
    auto [it, added] = thread_at_.emplace(key, static_cast<uint32_t>(profile_.threads.size()));
    if (added) {
      gecko::Thread& t = profile_.threads.emplace_back();
      t.pid = pid;
      t.tid = tid;
      process(pid).threads.push_back(it->second);
    }
    gecko::Thread& t = profile_.threads[it->second];
    // Threads often name themselves after they start: the latest name is the thread's.
    if (!comm.empty() && t.name != comm) t.name = comm;
    return t;
  }

  gecko::Process& process(int32_t pid) {
    auto [it, added] = process_at_.emplace(pid, static_cast<uint32_t>(profile_.processes.size()));
    if (added) profile_.processes.emplace_back().pid = pid;
    return profile_.processes[it->second];
  }

  // The frame's name, line and category, looked up once per distinct address; the library it
  // falls in is added to the process's libs.
  const FrameInfo& describe(const Frame& f, bool chain, int32_t pid) {
    if (f.map && f.dso && f.dso->space == DsoSpace::kUser) add_lib(pid, *f.map, *f.dso);
    FrameKey key{f.dso, f.sym, f.ip, f.srcline.data(), f.inlined};
    auto [it, added] = frames_.try_emplace(key);
    FrameInfo& info = it->second;
    if (!added) return info;
    bool kernel = f.level == 'k' || f.cpumode == kMiscKernel || f.cpumode == kMiscGuestKernel;
    info.category = kernel ? gecko::kKernel : gecko::kUser;
    if (f.sym) {
      std::string_view lib = f.dso ? std::string_view(f.dso->short_name) : f.dso_name();
      // An inline frame is named as perf script names it, "function (inlined)".
      info.location =
          fmt::format("{}{} (in {})", f.symbol_name(), f.inlined ? " (inlined)" : "", lib);
    } else {
      info.location = fmt::format("{:#x}", f.ip);
    }
    if (f.inlined) {
      info.line = srcline_line(f.srcline);
    } else if (cfg_.srclines && f.sym && f.map && f.dso && f.dso->space == DsoSpace::kUser) {
      info.line = srcline_line(resolver().srcline(f, chain));
    }
    return info;
  }

  void add_lib(int32_t pid, const Map& map, const Dso& dso) {
    gecko::Process& p = process(pid);
    auto [it, added] = p.lib_at.emplace(map.start, static_cast<uint32_t>(p.libs.size()));
    if (!added) return;
    gecko::Lib& lib = p.libs.emplace_back();
    lib.start = map.start;
    lib.end = map.end;
    lib.offset = map.pgoff;
    lib.name = dso.short_name;
    lib.path = dso.long_name;
    for (uint8_t b : dso.build_id)
      fmt::format_to(std::back_inserter(lib.build_id_hex), "{:02x}", b);
  }

  void tracepoint_marker(const Sample& s, const Evsel& evsel, const ResolvedSample& rs,
                         const std::string& name) {
    if (!rs.thread) return;
    gecko::Thread& t = thread(s.pid, s.tid, rs.comm);
    gecko::Marker m;
    m.time = s.time;
    m.tracepoint = true;
    m.name = t.strings.intern(name);
    fmt::memory_buffer b;
    fmt::format_to(fmt::appender(b), ",\"cpu\":{},\"fields\":", static_cast<int32_t>(s.cpu));
    // The scratch buffer is cleared after use, never flushed to its (absent) file.
    if (s.raw_size) trace_.print(s, evsel, *rs.thread, trace_text_);
    fmt::memory_buffer& text = trace_text_.buffer();
    json_string(b, std::string_view(text.data(), text.size()));
    text.clear();
    m.data.assign(b.data(), b.size());
    note_time(s.time);
    t.markers.push_back(std::move(m));
  }

  const GeckoConfig& cfg_;
  ScriptTrace trace_;
  OutBuffer trace_text_{stderr};
  gecko::Profile profile_;
  std::unordered_map<uint64_t, uint32_t> thread_at_;
  std::unordered_map<int32_t, uint32_t> process_at_;
  std::unordered_map<FrameKey, FrameInfo, FrameKeyHash> frames_;
};

}  // namespace

Status run_gecko_export(PerfData& data, const GeckoConfig& config, OutBuffer& out) {
  GeckoSink sink(data, config);
  Status st = data.process(sink, stream_process_options(data));
  gecko::write_profile(sink.profile(), data.features(), out);
  out.flush();
  return st;
}

}  // namespace readperf
