// perf 6.1's `perf data convert --to-json` (util/data-convert-json.c), from the resolved sample
// stream: the layout (tabs, the comma before a new sample's newline), perf's string escaping
// and its callchain walk are reproduced exactly.
#include "readperf/output/perf_json_converter.h"

#include <fmt/format.h>

#include <ctime>

#include "header_print.h"
#include "readperf/analysis/resolver.h"
#include "readperf/analysis/sample_pipeline.h"
#include "readperf/format/perf_abi.h"

namespace readperf {

namespace {

// data-convert-json.c output_json_string(): RFC 8259's escapes, and "\u%04x" for every byte
// `*s <= 0x1f` is true of. `char` is signed on x86, so that includes the bytes >= 0x80, whose
// negative value prints as eight hex digits ("\uffffffc3"): perf's output, kept.
void perf_json_string(OutBuffer& out, std::string_view s) {
  out.put('"');
  for (char c : s) {
    switch (c) {
      case '"':
        out.write("\\\"");
        break;
      case '\\':
        out.write("\\\\");
        break;
      case '\b':
        out.write("\\b");
        break;
      case '\f':
        out.write("\\f");
        break;
      case '\n':
        out.write("\\n");
        break;
      case '\r':
        out.write("\\r");
        break;
      case '\t':
        out.write("\\t");
        break;
      default:
        if (static_cast<signed char>(c) <= 0x1f) {
          out.write("\\u");
          out.hex(static_cast<uint32_t>(static_cast<int32_t>(static_cast<signed char>(c))), 4);
        } else {
          out.put(c);
        }
    }
  }
  out.put('"');
}

// output_json_delimiters(): an optional comma, a newline and `depth` tabs.
void delimit(OutBuffer& out, bool comma, int depth) {
  if (comma) out.put(',');
  out.put('\n');
  for (int i = 0; i < depth; ++i) out.put('\t');
}

// output_json_key_format()'s start: the delimiters, the key and ": ".
void key(OutBuffer& out, bool comma, int depth, std::string_view name) {
  delimit(out, comma, depth);
  perf_json_string(out, name);
  out.write(": ");
}

void key_string(OutBuffer& out, bool comma, int depth, std::string_view name,
                std::string_view value) {
  key(out, comma, depth, name);
  perf_json_string(out, value);
}

template <class T>
void key_number(OutBuffer& out, bool comma, int depth, std::string_view name, T value) {
  key(out, comma, depth, name);
  out.dec(value);
}

// perf dereferences a missing env string (and crashes: pipe-mode input, where the features
// arrive after it printed the headers); perf 7.x prints "" there, and so does readperf.
std::string_view env_string(const std::optional<std::string>& s) {
  return s ? std::string_view(*s) : std::string_view();
}

class PerfJsonSink : public SamplePipeline {
 public:
  PerfJsonSink(PerfData& pd, const PerfJsonConfig& cfg, OutBuffer& out, PerfJsonStats& stats)
      : SamplePipeline(pd, {.symbols = cfg.symbols,
                            .max_stack = kMaxStack,
                            .resolution = StreamResolution::kSample,
                            .selection = cfg.selection}),
        out_(out),
        stats_(stats) {
    // bt_convert__perf2json(): the opening brace, the version, then the headers.
    out_.put('{');
    delimit(out_, false, 1);
    out_.write("\"linux-perf-json-version\": 1");
  }

  void on_kernel_record(const RecordView& r, const Sample& s, const Evsel* evsel) override {
    // A pipe's features come as records before the data: the headers wait for them.
    write_headers();
    SamplePipeline::on_kernel_record(r, s, evsel);
  }

  void finish() {
    write_headers();
    delimit(out_, false, 1);
    out_.put(']');
    delimit(out_, false, 0);
    out_.write("}\n");
  }

 protected:
  void on_sample(const Sample& s, const Evsel& /*evsel*/, uint64_t /*period*/,
                 const ResolvedSample& rs, std::span<const Frame> /*frames*/) override {
    ++stats_.samples;
    if (!first_sample_) out_.put(',');
    first_sample_ = false;
    delimit(out_, false, 2);
    out_.put('{');
    key_number(out_, false, 3, "timestamp", static_cast<int64_t>(s.time));
    key_number(out_, true, 3, "pid", rs.thread ? rs.thread->pid : s.pid);
    key_number(out_, true, 3, "tid", rs.thread ? rs.thread->tid : s.tid);
    // __evlist__combined_sample_type(): the cpu when any event samples it (-1 for a sample
    // of one that does not). thread->cpu, perf's fallback, is set by AUX decoders only.
    if (pd_.events().combined_sample_type() & kSampleCpu) {
      key_number(out_, true, 3, "cpu", static_cast<int32_t>(s.cpu));
    }
    key_string(out_, true, 3, "comm", rs.comm);
    key(out_, true, 3, "callchain");
    out_.put('[');
    if (s.has_callchain && rs.thread) {
      write_callchain(s, *rs.thread);
    } else {
      write_entry(s.ip, &rs.self);
    }
    delimit(out_, false, 3);
    out_.put(']');
    delimit(out_, false, 2);
    out_.put('}');
    out_.maybe_flush();
  }

 private:
  // perf walks the recorded entries itself (no max-stack, no unwinding, no inline frames):
  // the PERF_CONTEXT_* markers switch the cpumode (user until one says otherwise), each other
  // entry is looked up with thread__find_symbol() in the current cpumode.
  void write_callchain(const Sample& s, const Thread& thread) {
    uint8_t cpumode = kMiscUser;
    bool first = true;
    for (size_t i = 0; i < s.callchain.size(); ++i) {
      uint64_t ip = s.callchain[i];
      if (ip >= kContextMax) {
        if (ip == kContextHv) cpumode = kMiscHypervisor;
        if (ip == kContextKernel) cpumode = kMiscKernel;
        if (ip == kContextUser) cpumode = kMiscUser;
        continue;
      }
      if (!first) out_.put(',');
      first = false;
      Frame f = resolver().resolve_addr(thread, cpumode, ip);
      write_entry(ip, &f);
    }
  }

  // output_sample_callchain_entry(): the ip, and the symbol's name and its DSO's short name
  // when there is a named symbol.
  void write_entry(uint64_t ip, const Frame* f) {
    delimit(out_, false, 4);
    out_.put('{');
    key(out_, false, 5, "ip");
    out_.write("\"0x");
    out_.hex(ip);
    out_.put('"');
    if (f && f->sym && !f->sym->name.empty()) {
      out_.put(',');
      key_string(out_, false, 5, "symbol", f->sym->name);
      if (f->map && f->dso && !f->dso->short_name.empty()) {
        out_.put(',');
        key_string(out_, false, 5, "dso", f->dso->short_name);
      }
    }
    delimit(out_, false, 4);
    out_.put('}');
  }

  // output_headers(), then the start of the samples array.
  void write_headers() {
    if (headers_written_) return;
    headers_written_ = true;
    const Features& env = pd_.features();
    bool pipe = pd_.kind() == ContainerKind::kPipe;
    delimit(out_, true, 1);
    out_.write("\"headers\": {");
    key_number(out_, false, 2, "header-version", header_detail::recorded_header_version(pd_));
    // strftime("%FT%TZ", gmtime(st_mtime)) of the input perf fstat()s.
    if (std::optional<time_t> mtime = header_detail::recording_mtime(pd_)) {
      struct tm tm;
      char buf[64];
      if (gmtime_r(&*mtime, &tm) && strftime(buf, sizeof buf, "%FT%TZ", &tm)) {
        key_string(out_, true, 2, "captured-on", buf);
      }
    }
    FileSection data = pipe ? FileSection{} : header_detail::recorded_data_section(pd_);
    key_number(out_, true, 2, "data-offset", data.offset);
    key_number(out_, true, 2, "data-size", data.size);
    key_number(out_, true, 2, "feat-offset", data.offset + data.size);
    key_string(out_, true, 2, "hostname", env_string(env.hostname));
    key_string(out_, true, 2, "os-release", env_string(env.os_release));
    key_string(out_, true, 2, "arch", env_string(env.arch));
    key_string(out_, true, 2, "cpu-desc", env_string(env.cpudesc));
    key_string(out_, true, 2, "cpuid", env_string(env.cpuid));
    key_number(out_, true, 2, "nrcpus-online", env.nr_cpus_online);
    key_number(out_, true, 2, "nrcpus-avail", env.nr_cpus_avail);
    if (env.clock_data) {
      key_number(out_, true, 2, "clockid", env.clock_data->clockid);
      key_number(out_, true, 2, "clock-time", env.clock_data->clockid_ns);
      key_number(out_, true, 2, "real-time", env.clock_data->tod_ns);
    }
    key_string(out_, true, 2, "perf-version", env_string(env.version));
    key(out_, true, 2, "cmdline");
    out_.put('[');
    if (env.cmdline) {
      for (size_t i = 0; i < env.cmdline->size(); ++i) {
        delimit(out_, i != 0, 3);
        perf_json_string(out_, (*env.cmdline)[i]);
      }
    }
    delimit(out_, false, 2);
    out_.put(']');
    delimit(out_, false, 1);
    out_.put('}');
    delimit(out_, true, 1);
    out_.write("\"samples\": [");
  }

  static constexpr uint32_t kMaxStack = 127;

  OutBuffer& out_;
  PerfJsonStats& stats_;
  bool headers_written_ = false;
  bool first_sample_ = true;
};

}  // namespace

Status run_perf_json_export(PerfData& data, const PerfJsonConfig& config, OutBuffer& out,
                            PerfJsonStats& stats) {
  PerfJsonSink sink(data, config, out, stats);
  Status st = data.process(sink, stream_process_options(data));
  sink.finish();
  out.flush();
  return st;
}

}  // namespace readperf
