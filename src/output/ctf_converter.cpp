// perf 6.1's `perf data convert --to-ctf` (util/data-convert-bt.c) over the sample stream: the
// same babeltrace writer calls in the same order, so that the trace reads back as perf's does.
#include "readperf/output/ctf_converter.h"

#include <event-parse.h>
#include <fmt/format.h>

#include <cstring>
#include <vector>

#include "ctf_writer.h"
#include "header_print.h"
#include "readperf/analysis/sample_pipeline.h"
#include "readperf/format/perf_abi.h"
#include "readperf/output/trace_format.h"
#include "readperf/reader/event_name.h"
#include "readperf/session/events.h"

namespace readperf {

namespace {

using namespace ctf;

// data-convert-bt.c MAX_CPUS and STREAM_FLUSH_COUNT.
constexpr int kMaxCpus = 4096;
constexpr uint32_t kStreamFlushCount = 100000;
// perf_event.h PERF_COUNT_SW_BPF_OUTPUT.
constexpr uint64_t kSwBpfOutput = 10;

struct CpuStream {
  StreamRef stream;
  uint32_t count = 0;
};

class CtfSink : public SamplePipeline {
 public:
  CtfSink(PerfData& pd, const CtfConfig& cfg, std::string dir, CtfStats& stats)
      : SamplePipeline(pd, {.symbols = {},
                            .max_stack = 0,
                            .resolution = StreamResolution::kThread,
                            .selection = {}}),
        cfg_(cfg),
        dir_(std::move(dir)),
        stats_(stats) {}

  void on_kernel_record(const RecordView& r, const Sample& s, const Evsel* evsel) override {
    // A pipe's events and features come as records before the data: the writer waits for them.
    if (!setup()) return;
    current_size_ = r.size;  // perf counts a sample's record once per delivery
    SamplePipeline::on_kernel_record(r, s, evsel);
  }

  // Sets the writer up (if no record did), flushes every stream and writes the metadata.
  Status finish() {
    if (setup()) {
      for (CpuStream& cs : streams_) {
        if (cs.stream && bt_ctf_stream_flush(cs.stream.get())) fail("CTF stream flush failed");
      }
    }
    streams_.clear();
    classes_.clear();
    non_sample_.clear();
    stream_class_.reset();
    clock_.reset();
    writer_.reset();  // writes the metadata file
    if (error_.empty()) return {};
    return make_error(error_);
  }

 protected:
  void on_sample(const Sample& s, const Evsel& evsel, uint64_t /*period*/,
                 const ResolvedSample& /*rs*/, std::span<const Frame> /*frames*/) override {
    if (!error_.empty() || evsel.index >= classes_.size() || !classes_[evsel.index]) return;
    bt_ctf_event_class* cls = classes_[evsel.index].get();
    ++stats_.samples;
    stats_.bytes += current_size_;
    EventRef event(bt_ctf_event_create(cls));
    if (!event) return fail("Failed to create an CTF event");
    bt_ctf_clock_set_time(clock_.get(), s.time);
    if (!add_generic_values(event.get(), evsel.attr.sample_type, s))
      return fail(fmt::format("failed to set the fields of a {} sample", event_name_of(evsel)));
    if (evsel.attr.type == kTypeTracepoint) {
      if (tep_event* format = tracepoint_format(evsel)) {
        if (!tracepoint_.add_values(types_, format, cls, event.get(), s.raw))
          return fail(fmt::format("failed to set the fields of a {} sample", event_name_of(evsel)));
      }
    }
    if ((evsel.attr.sample_type & kSampleCallchain) && !add_callchain(cls, event.get(), s))
      return fail("failed to set perf_callchain");
    if (is_bpf_output(evsel) && !add_bpf_output(cls, event.get(), s))
      return fail("failed to set raw_data");
    // get_sample_cpu(): the sample's cpu, 0 without one or past the recorded number of cpus.
    int cpu = 0;
    if (evsel.attr.sample_type & kSampleCpu) cpu = static_cast<int32_t>(s.cpu);
    if (cpu > static_cast<int>(streams_.size()) - 1 || cpu < 0) cpu = 0;
    append(cpu, event.get());
  }

  void on_other(const RecordView& r, const Sample& s, const Evsel* /*evsel*/) override {
    if (!cfg_.all || !error_.empty()) return;
    ByteOrder order = pd_.order();
    switch (r.type) {
      case kRecordComm: {
        CommEvent c;
        if (!parse_comm(r, order, c)) return;
        EventRef e = non_sample_event(kComm, r, s);
        if (!e) return;
        bool ok = set_integer(e.get(), types_.u32.get(), "pid", static_cast<uint32_t>(c.pid)) &&
                  set_integer(e.get(), types_.u32.get(), "tid", static_cast<uint32_t>(c.tid)) &&
                  set_string(e.get(), types_.string.get(), "comm", c.comm);
        return finish_non_sample(std::move(e), ok);
      }
      case kRecordFork:
      case kRecordExit: {
        TaskEvent t;
        if (!parse_task(r, order, t)) return;
        EventRef e = non_sample_event(r.type == kRecordFork ? kFork : kExit, r, s);
        if (!e) return;
        struct bt_ctf_field_type* u32 = types_.u32.get();
        bool ok = set_integer(e.get(), u32, "pid", static_cast<uint32_t>(t.pid)) &&
                  set_integer(e.get(), u32, "ppid", static_cast<uint32_t>(t.ppid)) &&
                  set_integer(e.get(), u32, "tid", static_cast<uint32_t>(t.tid)) &&
                  set_integer(e.get(), u32, "ptid", static_cast<uint32_t>(t.ptid)) &&
                  set_integer(e.get(), types_.u64.get(), "time", t.time);
        return finish_non_sample(std::move(e), ok);
      }
      case kRecordMmap:
      case kRecordMmap2: {
        MmapEvent m;
        if (!parse_mmap(r, order, m)) return;
        EventRef e = non_sample_event(r.type == kRecordMmap ? kMmap : kMmap2, r, s);
        if (!e) return;
        bool ok = set_integer(e.get(), types_.u32.get(), "pid", static_cast<uint32_t>(m.pid)) &&
                  set_integer(e.get(), types_.u32.get(), "tid", static_cast<uint32_t>(m.tid)) &&
                  set_integer(e.get(), types_.u64_hex.get(), "start", m.start) &&
                  set_string(e.get(), types_.string.get(), "filename", m.filename);
        return finish_non_sample(std::move(e), ok);
      }
      default:
        return;
    }
  }

 private:
  enum NonSample { kComm, kExit, kFork, kMmap, kMmap2, kNonSampleCount };

  void fail(std::string what) {
    if (error_.empty()) error_ = std::move(what);
  }

  // ctf_writer__init(), ctf_writer__setup_env(), setup_events(), setup_non_sample_events()
  // and setup_streams(), once.
  bool setup() {
    if (set_up_) return writer_ != nullptr;
    set_up_ = true;
    const Features& env = pd_.features();
    writer_.reset(bt_ctf_writer_create(dir_.c_str()));
    if (!writer_) return fail_setup("cannot create the CTF writer");
    clock_.reset(bt_ctf_clock_create("perf_clock"));
    if (!clock_) return fail_setup("Failed to create CTF clock.");
    // ctf_writer__setup_clock(): nanoseconds, relative; --tod shifts it to wall-clock time.
    std::string desc = "perf clock";
    int64_t offset = 0;
    if (cfg_.tod) {
      if (!env.clock_data) {
        return fail_setup(
            "Can't provide --tod time, missing clock data. Please record with -k/--clockid "
            "option.");
      }
      desc = header_detail::clockid_name(static_cast<int32_t>(env.clock_data->clockid));
      offset = static_cast<int64_t>(env.clock_data->tod_ns - env.clock_data->clockid_ns);
    }
    if (bt_ctf_clock_set_frequency(clock_.get(), 1000000000) ||
        bt_ctf_clock_set_offset(clock_.get(), offset) ||
        bt_ctf_clock_set_description(clock_.get(), desc.c_str()) ||
        bt_ctf_clock_set_precision(clock_.get(), 10) ||
        bt_ctf_clock_set_is_absolute(clock_.get(), 0))
      return fail_setup("Failed to setup CTF clock.");
    stream_class_.reset(bt_ctf_stream_class_create("perf_stream"));
    if (!stream_class_ || bt_ctf_stream_class_set_clock(stream_class_.get(), clock_.get()))
      return fail_setup("Failed to create CTF stream class.");
    if (!types_.create()) return fail_setup("Failed to create data types.");
    FieldTypeRef packet(bt_ctf_stream_class_get_packet_context_type(stream_class_.get()));
    if (!packet || bt_ctf_field_type_structure_add_field(packet.get(), types_.u32.get(), "cpu_id"))
      return fail_setup("Failed to setup CTF writer.");
    if (bt_ctf_writer_add_clock(writer_.get(), clock_.get()))
      return fail_setup("Failed to assign CTF clock to writer.");
    // perf passes the env strings as they are (and fails on a missing one: a pipe's, whose
    // features come later); readperf writes "" for those.
    auto str = [](const std::optional<std::string>& s) { return s ? s->c_str() : ""; };
    const std::pair<const char*, const char*> fields[] = {
        {"host", str(env.hostname)},   {"sysname", "Linux"},       {"release", str(env.os_release)},
        {"version", str(env.version)}, {"machine", str(env.arch)}, {"domain", "kernel"},
        {"tracer_name", "perf"}};
    for (const auto& [name, value] : fields) {
      if (bt_ctf_writer_add_environment_field(writer_.get(), name, value))
        return fail_setup("Error during conversion setup.");
    }
    for (size_t i = 0; i < pd_.events().size(); ++i) {
      if (!add_event(pd_.events()[i])) return fail_setup("Error during conversion setup.");
    }
    if (cfg_.all && !add_non_sample_classes()) return fail_setup("Error during conversion setup.");
    streams_.resize(env.nr_cpus_avail ? env.nr_cpus_avail : kMaxCpus);
    return true;
  }

  bool fail_setup(std::string what) {
    fail(std::move(what));
    writer_.reset();
    return false;
  }

  static bool is_bpf_output(const Evsel& evsel) {
    return evsel.attr.type == kTypeSoftware && evsel.attr.config == kSwBpfOutput;
  }

  tep_event* tracepoint_format(const Evsel& evsel) {
    if (!trace_tried_ && pd_.tracing_data()) {
      trace_tried_ = true;
      if (auto tf = TraceFormatter::create(*pd_.tracing_data())) trace_ = std::move(*tf);
    }
    return trace_ ? trace_->find_event(evsel.attr.config) : nullptr;
  }

  // add_event(): the class of one event, its fields as add_generic_types() lists them.
  bool add_event(const Evsel& evsel) {
    EventClassRef cls(bt_ctf_event_class_create(event_name_of(evsel).c_str()));
    if (!cls) return false;
    uint64_t type = evsel.attr.sample_type;
    auto add = [&](struct bt_ctf_field_type* t, const char* name) {
      return bt_ctf_event_class_add_field(cls.get(), t, name) == 0;
    };
    bool ok = true;
    if (type & kSampleIp) ok &= add(types_.u64_hex.get(), "perf_ip");
    if (type & kSampleTid)
      ok &= add(types_.s32.get(), "perf_tid") && add(types_.s32.get(), "perf_pid");
    if (type & (kSampleId | kSampleIdentifier)) ok &= add(types_.u64.get(), "perf_id");
    if (type & kSampleStreamId) ok &= add(types_.u64.get(), "perf_stream_id");
    if (type & kSamplePeriod) ok &= add(types_.u64.get(), "perf_period");
    if (type & kSampleWeight) ok &= add(types_.u64.get(), "perf_weight");
    if (type & kSampleDataSrc) ok &= add(types_.u64.get(), "perf_data_src");
    if (type & kSampleTransaction) ok &= add(types_.u64.get(), "perf_transaction");
    if (type & kSampleCallchain) {
      FieldTypeRef seq(
          bt_ctf_field_type_sequence_create(types_.u64_hex.get(), "perf_callchain_size"));
      ok &= add(types_.u32.get(), "perf_callchain_size") && seq && add(seq.get(), "perf_callchain");
    }
    if (!ok) return false;
    if (evsel.attr.type == kTypeTracepoint) {
      if (tep_event* format = tracepoint_format(evsel)) {
        if (!tracepoint_.add_types(types_, format, cls.get())) return false;
      }
    }
    if (is_bpf_output(evsel)) {
      FieldTypeRef seq(bt_ctf_field_type_sequence_create(types_.u32_hex.get(), "raw_len"));
      if (!add(types_.u32.get(), "raw_len") || !seq || !add(seq.get(), "raw_data")) return false;
    }
    if (bt_ctf_stream_class_add_event_class(stream_class_.get(), cls.get())) return false;
    if (classes_.size() <= evsel.index) classes_.resize(evsel.index + 1);
    classes_[evsel.index] = std::move(cls);
    return true;
  }

  // setup_non_sample_events(): perf_comm, perf_exit, perf_fork, perf_mmap, perf_mmap2.
  bool add_non_sample_classes() {
    struct Field {
      struct bt_ctf_field_type* type;
      const char* name;
    };
    const Field task[] = {{types_.u32.get(), "pid"},
                          {types_.u32.get(), "ppid"},
                          {types_.u32.get(), "tid"},
                          {types_.u32.get(), "ptid"},
                          {types_.u64.get(), "time"}};
    const Field mmap[] = {{types_.u32.get(), "pid"},
                          {types_.u32.get(), "tid"},
                          {types_.u64_hex.get(), "start"},
                          {types_.string.get(), "filename"}};
    const Field comm[] = {
        {types_.u32.get(), "pid"}, {types_.u32.get(), "tid"}, {types_.string.get(), "comm"}};
    const std::pair<const char*, std::span<const Field>> classes[kNonSampleCount] = {
        {"perf_comm", comm},
        {"perf_exit", task},
        {"perf_fork", task},
        {"perf_mmap", mmap},
        {"perf_mmap2", mmap}};
    non_sample_.resize(kNonSampleCount);
    for (int i = 0; i < kNonSampleCount; ++i) {
      EventClassRef cls(bt_ctf_event_class_create(classes[i].first));
      if (!cls) return false;
      for (const Field& f : classes[i].second) {
        if (bt_ctf_event_class_add_field(cls.get(), f.type, f.name)) return false;
      }
      if (bt_ctf_stream_class_add_event_class(stream_class_.get(), cls.get())) return false;
      non_sample_[i] = std::move(cls);
    }
    return true;
  }

  // add_generic_values().
  bool add_generic_values(bt_ctf_event* e, uint64_t type, const Sample& s) {
    bool ok = true;
    if (type & kSampleIp) ok &= set_integer(e, types_.u64_hex.get(), "perf_ip", s.ip);
    if (type & kSampleTid) {
      ok &= set_integer(e, types_.s32.get(), "perf_tid", static_cast<uint64_t>(int64_t{s.tid})) &&
            set_integer(e, types_.s32.get(), "perf_pid", static_cast<uint64_t>(int64_t{s.pid}));
    }
    if (type & (kSampleId | kSampleIdentifier))
      ok &= set_integer(e, types_.u64.get(), "perf_id", s.id);
    if (type & kSampleStreamId)
      ok &= set_integer(e, types_.u64.get(), "perf_stream_id", s.stream_id);
    if (type & kSamplePeriod) ok &= set_integer(e, types_.u64.get(), "perf_period", s.period);
    if (type & kSampleWeight) ok &= set_integer(e, types_.u64.get(), "perf_weight", s.weight);
    if (type & kSampleDataSrc) ok &= set_integer(e, types_.u64.get(), "perf_data_src", s.data_src);
    if (type & kSampleTransaction)
      ok &= set_integer(e, types_.u64.get(), "perf_transaction", s.transaction);
    return ok;
  }

  // A sequence payload field `seq_name` of `n` elements, its length in `len_name`.
  template <class Element>
  static bool add_sequence(bt_ctf_event_class* cls, bt_ctf_event* e, const char* len_name,
                           const char* seq_name, uint64_t n, Element element) {
    FieldTypeRef len_type(bt_ctf_event_class_get_field_by_name(cls, len_name));
    FieldRef len(bt_ctf_field_create(len_type.get()));
    if (!len || bt_ctf_field_unsigned_integer_set_value(len.get(), n) ||
        bt_ctf_event_set_payload(e, len_name, len.get()))
      return false;
    FieldTypeRef seq_type(bt_ctf_event_class_get_field_by_name(cls, seq_name));
    FieldRef seq(bt_ctf_field_create(seq_type.get()));
    if (!seq || bt_ctf_field_sequence_set_length(seq.get(), len.get())) return false;
    for (uint64_t i = 0; i < n; ++i) {
      FieldRef item(bt_ctf_field_sequence_get_field(seq.get(), i));
      if (!item || bt_ctf_field_unsigned_integer_set_value(item.get(), element(i))) return false;
    }
    return bt_ctf_event_set_payload(e, seq_name, seq.get()) == 0;
  }

  // add_callchain_output_values(): the recorded entries, context markers included.
  static bool add_callchain(bt_ctf_event_class* cls, bt_ctf_event* e, const Sample& s) {
    return add_sequence(cls, e, "perf_callchain_size", "perf_callchain", s.callchain.size(),
                        [&](uint64_t i) { return s.callchain[i]; });
  }

  // add_bpf_output_values(): the raw data as u32 words (a partial last word left out).
  bool add_bpf_output(bt_ctf_event_class* cls, bt_ctf_event* e, const Sample& s) {
    uint64_t n = s.raw.size() / 4;
    return add_sequence(cls, e, "raw_len", "raw_data", n, [&](uint64_t i) {
      uint32_t w;
      std::memcpy(&w, s.raw.data() + i * 4, 4);
      return uint64_t{w};
    });
  }

  EventRef non_sample_event(NonSample which, const RecordView& r, const Sample& s) {
    ++stats_.non_samples;
    stats_.bytes += r.size;
    EventRef e(bt_ctf_event_create(non_sample_[which].get()));
    if (!e) {
      fail("Failed to create an CTF event");
      return e;
    }
    bt_ctf_clock_set_time(clock_.get(), s.time);
    return e;
  }

  void finish_non_sample(EventRef e, bool ok) {
    if (!ok) return fail("failed to set the fields of a non-sample event");
    append(0, e.get());
  }

  // ctf_stream(): the cpu's stream, created at its first event with the cpu in its packet
  // context; flushed into a packet every 100000 events.
  void append(int cpu, bt_ctf_event* e) {
    CpuStream& cs = streams_[cpu];
    if (!cs.stream) {
      cs.stream.reset(bt_ctf_writer_create_stream(writer_.get(), stream_class_.get()));
      if (!cs.stream) return fail("Failed to create CTF stream");
      FieldRef packet(bt_ctf_stream_get_packet_context(cs.stream.get()));
      FieldRef cpu_field(packet ? bt_ctf_field_structure_get_field(packet.get(), "cpu_id")
                                : nullptr);
      if (!cpu_field ||
          bt_ctf_field_unsigned_integer_set_value(cpu_field.get(), static_cast<uint32_t>(cpu)))
        return fail("Failed to update CPU number");
    }
    if (cs.count >= kStreamFlushCount) {
      if (bt_ctf_stream_flush(cs.stream.get())) return fail("CTF stream flush failed");
      cs.count = 0;
    }
    ++cs.count;
    if (bt_ctf_stream_append_event(cs.stream.get(), e)) fail("failed to append a CTF event");
  }

  const CtfConfig& cfg_;
  std::string dir_;
  CtfStats& stats_;
  std::string error_;
  bool set_up_ = false;
  bool trace_tried_ = false;
  uint64_t current_size_ = 0;
  std::unique_ptr<TraceFormatter> trace_;
  TracepointFields tracepoint_;
  Types types_;
  WriterRef writer_;
  ClockRef clock_;
  StreamClassRef stream_class_;
  std::vector<EventClassRef> classes_;  // by event index
  std::vector<EventClassRef> non_sample_;
  std::vector<CpuStream> streams_;
};

}  // namespace

Status run_ctf_export(PerfData& data, const CtfConfig& config, const std::string& dir,
                      CtfStats& stats) {
  CtfSink sink(data, config, dir, stats);
  Status st = data.process(sink, stream_process_options(data));
  Status written = sink.finish();
  if (!written) return written;
  stats.written = true;
  return st;
}

}  // namespace readperf
