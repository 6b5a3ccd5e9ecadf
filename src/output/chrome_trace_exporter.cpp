// The Chrome trace exporter: the resolved sample stream turned into trace events as it comes.
// Timestamps are perf's sample times in microseconds (the format's unit), with nanosecond
// decimals; pids and tids are perf's.
#include "readperf/output/chrome_trace_exporter.h"

#include <fmt/format.h>

#include <algorithm>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "json_util.h"
#include "readperf/analysis/sample_pipeline.h"
#include "readperf/format/perf_abi.h"
#include "script_trace.h"
#include "string_interner.h"

namespace readperf {

namespace {

class ChromeSink : public SamplePipeline {
 public:
  ChromeSink(PerfData& pd, const ChromeTraceConfig& cfg, OutBuffer& out)
      : SamplePipeline(
            pd, {.symbols = cfg.symbols, .max_stack = cfg.max_stack, .selection = cfg.selection}),
        cfg_(cfg),
        out_(out),
        trace_(pd) {
    out_.write(
        "{\"displayTimeUnit\":\"ns\",\"otherData\":{\"exporter\":\"readperf\"},\n"
        "\"traceEvents\":[\n");
  }

  void finish() {
    for (auto& [tid, t] : threads_) close_to(t, 0, t.end_time);
    fmt::memory_buffer& b = out_.buffer();
    b.push_back('\n');
    out_.write("]}\n");
  }

 protected:
  void on_sample(const Sample& s, const Evsel& evsel, uint64_t period, const ResolvedSample& rs,
                 std::span<const Frame> frames) override {
    if (s.time == ~0ull) return;  // nothing to place on a timeline
    name_thread(s.pid, s.tid, rs.comm);
    const std::string& name = event_name_of(evsel);
    if (evsel.attr.type == kTypeTracepoint) {
      instant(name, s, [&](fmt::memory_buffer& b) {
        if (!rs.thread || !s.raw_size) return;
        // The scratch buffer is cleared after use, never flushed to its (absent) file.
        trace_.print(s, evsel, *rs.thread, trace_text_);
        fmt::memory_buffer& text = trace_text_.buffer();
        b.append(std::string_view(",\"trace\":"));
        json_string(b, std::string_view(text.data(), text.size()));
        text.clear();
      });
      return;
    }
    if (event_.empty()) event_ = cfg_.event.empty() ? name : cfg_.event;
    if (name != event_) return;
    Thread& t = threads_[key(s.pid, s.tid)];
    t.pid = s.pid;
    t.tid = s.tid;
    uint64_t gap = interval(evsel, period);
    // The previous sample ended on its own when this one comes after its interval.
    if (!t.open.empty() && s.time > t.end_time) close_to(t, 0, t.end_time);
    // The new stack, root first.
    stack_.clear();
    for (size_t i = frames.size(); i-- > 0;)
      stack_.push_back(names_.intern(frames[i].symbol_name()));
    size_t common = 0;
    while (common < t.open.size() && common < stack_.size() && t.open[common] == stack_[common]) {
      ++common;
    }
    close_to(t, common, s.time);
    for (size_t i = common; i < stack_.size(); ++i) {
      t.open.push_back(stack_[i]);
      begin_event();
      fmt::memory_buffer& b = out_.buffer();
      b.append(std::string_view("{\"ph\":\"B\",\"name\":"));
      json_string(b, names_[stack_[i]]);
      // The category is the event: trace viewers filter by it.
      b.append(std::string_view(",\"cat\":"));
      json_string(b, event_);
      fmt::format_to(fmt::appender(b), ",\"pid\":{},\"tid\":{},\"ts\":{}}}", s.pid, s.tid,
                     micros(s.time));
    }
    // The sample itself, a mark on its thread's track carrying its period.
    begin_event();
    fmt::memory_buffer& b = out_.buffer();
    b.append(std::string_view("{\"ph\":\"i\",\"s\":\"t\",\"name\":\"sample\",\"cat\":"));
    json_string(b, event_);
    fmt::format_to(fmt::appender(b),
                   ",\"pid\":{},\"tid\":{},\"ts\":{},\"args\":{{\"period\":{}}}}}", s.pid, s.tid,
                   micros(s.time), period);
    t.end_time = s.time + gap;
    out_.maybe_flush();
  }

  void on_other(const RecordView& r, const Sample& s, const Evsel*) override {
    if (r.type != kRecordSwitch && r.type != kRecordSwitchCpuWide) return;
    if (s.time == ~0ull) return;
    bool out = r.misc & kMiscSwitchOut;
    instant(out ? "switch-out" : "switch-in", s, [&](fmt::memory_buffer& b) {
      if (out) {
        fmt::format_to(fmt::appender(b), ",\"preempt\":{}",
                       (r.misc & kMiscSwitchOutPreempt) ? "true" : "false");
      }
    });
  }

 private:
  struct Thread {
    int32_t pid = 0, tid = 0;
    std::vector<uint32_t> open;  // the open frames' names, root first
    uint64_t end_time = 0;
  };

  static uint64_t key(int32_t pid, int32_t tid) {
    return (uint64_t{static_cast<uint32_t>(pid)} << 32) | static_cast<uint32_t>(tid);
  }
  static std::string micros(uint64_t ns) { return fmt::format("{}.{:03}", ns / 1000, ns % 1000); }

  // How long one sample of `evsel` stands for.
  static uint64_t interval(const Evsel& evsel, uint64_t period) {
    const EventAttr& a = evsel.attr;
    bool clock = a.type == kTypeSoftware && (a.config == 0 || a.config == 1);
    if (clock && period) return period;
    if (a.freq() && a.sample_period) return 1000000000ull / a.sample_period;
    return 1000000;
  }

  void begin_event() {
    if (!first_) out_.put(',');
    out_.put('\n');
    first_ = false;
  }

  // Ends the open frames of `t` from depth `keep` on, innermost first, at `time`.
  void close_to(Thread& t, size_t keep, uint64_t time) {
    while (t.open.size() > keep) {
      // The E repeats its B's name and, like it, has no args: speedscope's importer pairs them
      // by name and args.
      begin_event();
      fmt::memory_buffer& b = out_.buffer();
      b.append(std::string_view("{\"ph\":\"E\",\"name\":"));
      json_string(b, names_[t.open.back()]);
      fmt::format_to(fmt::appender(b), ",\"pid\":{},\"tid\":{},\"ts\":{}}}", t.pid, t.tid,
                     micros(time));
      t.open.pop_back();
    }
  }

  template <class Args>
  void instant(std::string_view name, const Sample& s, Args&& args) {
    // Frames of the thread that ended before this event are closed first, to keep each
    // thread's events in time order in the file.
    auto it = threads_.find(key(s.pid, s.tid));
    if (it != threads_.end() && !it->second.open.empty() && s.time > it->second.end_time) {
      close_to(it->second, 0, it->second.end_time);
    }
    begin_event();
    fmt::memory_buffer& b = out_.buffer();
    b.append(std::string_view("{\"ph\":\"i\",\"s\":\"t\",\"name\":"));
    json_string(b, name);
    fmt::format_to(fmt::appender(b), ",\"pid\":{},\"tid\":{},\"ts\":{},\"args\":{{\"cpu\":{}",
                   s.pid, s.tid, micros(s.time), static_cast<int32_t>(s.cpu));
    args(b);
    b.append(std::string_view("}}"));
    out_.maybe_flush();
  }

  // Metadata events naming a process and thread the first time they are seen.
  void name_thread(int32_t pid, int32_t tid, std::string_view comm) {
    if (!named_.emplace(key(pid, tid)).second) return;
    for (const char* what : {"process_name", "thread_name"}) {
      if (what[0] == 'p' && !named_.emplace(key(pid, -2)).second) continue;
      begin_event();
      fmt::memory_buffer& b = out_.buffer();
      fmt::format_to(fmt::appender(b),
                     "{{\"ph\":\"M\",\"name\":\"{}\",\"pid\":{},\"tid\":{},"
                     "\"args\":{{\"name\":",
                     what, pid, tid);
      json_string(b, comm);
      b.append(std::string_view("}}"));
    }
  }

  const ChromeTraceConfig& cfg_;
  OutBuffer& out_;
  ScriptTrace trace_;
  OutBuffer trace_text_{stderr};
  std::string event_;
  bool first_ = true;
  std::unordered_map<uint64_t, Thread> threads_;
  std::unordered_set<uint64_t> named_;
  StringInterner names_;
  std::vector<uint32_t> stack_;
};

}  // namespace

Status run_chrome_trace_export(PerfData& data, const ChromeTraceConfig& config, OutBuffer& out) {
  ChromeSink sink(data, config, out);
  Status st = data.process(sink, stream_process_options(data));
  sink.finish();
  out.flush();
  return st;
}

}  // namespace readperf
