#include "readperf/output/record_stream.h"

#include <algorithm>
#include <deque>
#include <string_view>
#include <unordered_map>

#include "readperf/analysis/sample_pipeline.h"
#include "readperf/format/perf_abi.h"
#include "resolved_row_cache.h"

namespace readperf {

namespace {

// Names interned once. Most lookups are of a name seen a moment ago at the same place (a
// symbol table's, a dso's, a thread's comm): a direct-mapped cache of places answers them
// without hashing the text; the others go by the text.
class StringIds {
 public:
  StringIds() { intern_text(""); }

  // A name that stays put and unchanged while the stream runs (a symbol's, owned by its
  // symbol table): found by its place and size alone.
  uint32_t intern_stable(std::string_view s) {
    Slot& slot = slot_of(s.data());
    if (slot.place == s.data() && slot.size == s.size()) return slot.id;
    return fill(slot, s);
  }

  // A name whose place may later hold another (a comm): checked against the copy.
  uint32_t intern(std::string_view s) {
    Slot& slot = slot_of(s.data());
    if (slot.place == s.data() && slot.size == s.size() && strings_[slot.id] == s) return slot.id;
    return fill(slot, s);
  }

  // Moves the strings interned since the last call into `batch`.
  void take_new(RecordBatch& batch) {
    batch.first_string = static_cast<uint32_t>(handed_);
    for (; handed_ < strings_.size(); ++handed_) batch.new_strings.push_back(strings_[handed_]);
  }

 private:
  struct Slot {
    const char* place = nullptr;
    size_t size = 0;
    uint32_t id = 0;
  };
  static constexpr int kSlotBits = 12;

  Slot& slot_of(const char* place) {
    uint64_t h = reinterpret_cast<uintptr_t>(place) * 0x9E3779B97F4A7C15ull;
    return slots_[h >> (64 - kSlotBits)];
  }

  uint32_t fill(Slot& slot, std::string_view s) {
    slot = Slot{s.data(), s.size(), intern_text(s)};
    return slot.id;
  }

  uint32_t intern_text(std::string_view s) {
    auto it = by_text_.find(s);
    if (it != by_text_.end()) return it->second;
    uint32_t id = static_cast<uint32_t>(strings_.size());
    strings_.emplace_back(s);
    by_text_.emplace(strings_.back(), id);  // a deque: the view stays valid
    return id;
  }

  std::deque<std::string> strings_;
  std::unordered_map<std::string_view, uint32_t> by_text_;
  std::vector<Slot> slots_ = std::vector<Slot>(size_t{1} << kSlotBits);
  size_t handed_ = 0;
};

StreamResolution resolution(const RecordStreamConfig& cfg) {
  if (!cfg.resolve_symbols) return StreamResolution::kThread;
  return cfg.callchains ? StreamResolution::kCallchain : StreamResolution::kSample;
}

class RecordStreamSink : public SamplePipeline {
 public:
  RecordStreamSink(PerfData& pd, const RecordStreamConfig& cfg,
                   const std::function<bool(RecordBatch&)>& emit)
      : SamplePipeline(pd, {.symbols = cfg.symbols,
                            .max_stack = cfg.max_stack,
                            .resolution = resolution(cfg),
                            .selection = cfg.selection,
                            .repeat_keys = true}),
        cfg_(cfg),
        emit_(emit) {
    batch_.rows.reserve(cfg.batch_rows);
  }

  void on_kernel_record(const RecordView& r, const Sample& s, const Evsel* evsel) override {
    if (stopped_) return;
    bool wanted = wanted_type(r.type);
    if (r.type == kRecordSample && (!wanted || (evsel && !wanted_event(evsel->index)))) return;
    // Records not handed out are still applied to the session: later samples need the maps
    // and comms.
    handing_out_ = wanted;
    file_offset_ = r.file_offset;
    SamplePipeline::on_kernel_record(r, s, evsel);
  }

  bool cancelled() const override { return stopped_; }

  // The rows not yet emitted.
  void finish() {
    if (!stopped_ && !batch_.rows.empty()) flush();
  }

 protected:
  bool on_repeat(const Sample& s, const Evsel& evsel, uint64_t period,
                 const RepeatCache::Hash& key) override {
    RecordRow& row = batch_.rows.emplace_back();
    if (!repeats_.replay(key, row, batch_.frames)) {
      batch_.rows.pop_back();
      return false;
    }
    add_sample_fields(row, s, evsel, period);
    return true;
  }

  void on_sample(const Sample& s, const Evsel& evsel, uint64_t period, const ResolvedSample& rs,
                 std::span<const Frame> frames) override {
    RecordRow& row = batch_.rows.emplace_back();
    row.comm = strings_.intern(rs.comm);
    const Frame& self = rs.self;
    if (self.map && self.dso) {
      row.has_map = true;
      row.dso = strings_.intern(self.dso_name());
      row.map_start = self.map->start;
      row.map_end = self.map->end;
    }
    if (self.sym) {
      row.has_symbol = true;
      row.symbol = strings_.intern_stable(self.sym->name);
      row.symoff = self.symoff();
      row.sym_start = self.sym->start;
      row.sym_end = self.sym->end;
    }
    // `frames` is the call chain when there is one, else the sample's own frame.
    row.has_callchain = frames.data() == rs.callchain.data();
    if (row.has_callchain) {
      row.frames_begin = static_cast<uint32_t>(batch_.frames.size());
      row.frames_count = static_cast<uint32_t>(frames.size());
      for (const Frame& f : frames) add_frame(f);
    }
    if (const RepeatCache::Hash* key = repeat_key()) {
      repeats_.keep(*key, row, std::span<const RecordFrame>(batch_.frames).last(row.frames_count));
    }
    add_sample_fields(row, s, evsel, period);
  }

  // The fields a sample gives a row by itself (the resolved ones are set), then the row is
  // done (the batch may be emitted).
  void add_sample_fields(RecordRow& row, const Sample& s, const Evsel& evsel, uint64_t period) {
    row.type = kRecordSample;
    row.misc = s.misc;
    row.cpumode = s.cpumode();
    row.event = static_cast<int32_t>(evsel.index);
    row.pid = s.pid;
    row.tid = s.tid;
    row.cpu = s.cpu;
    row.time = s.time;
    row.ip = s.ip;
    row.addr = s.addr;
    row.period = period;
    row.phys_addr = s.phys_addr;
    row.weight = s.weight;
    row.transaction = s.transaction;
    row.id = s.id;
    row.file_offset = file_offset_;
    if (s.raw_size) add_bytes(row, s.raw);
    if (evsel.attr.type == kTypeTracepoint) row.format = tracepoint_format(evsel);
    row_done();
  }

  void on_other(const RecordView& r, const Sample& s, const Evsel* evsel) override {
    if (!handing_out_) return;
    RecordRow& row = batch_.rows.emplace_back();
    row.type = r.type;
    row.misc = r.misc;
    row.cpumode = r.misc & kMiscCpumodeMask;
    row.event = evsel ? static_cast<int32_t>(evsel->index) : -1;
    row.pid = s.pid;
    row.tid = s.tid;
    row.cpu = s.cpu;
    row.time = s.time;
    row.id = s.id;
    row.file_offset = r.file_offset;
    add_bytes(row, r.bytes);
    row_done();
  }

 private:
  bool wanted_type(uint32_t type) const {
    return cfg_.types.empty() ||
           std::find(cfg_.types.begin(), cfg_.types.end(), type) != cfg_.types.end();
  }
  bool wanted_event(uint32_t index) const {
    return cfg_.events.empty() ||
           std::find(cfg_.events.begin(), cfg_.events.end(), index) != cfg_.events.end();
  }

  // The format of `evsel`'s tracepoint. The tracing data comes in the header, or in a pipe
  // as a record before the first tracepoint sample.
  const tep_event* tracepoint_format(const Evsel& evsel) {
    if (!tracing_ && !tracing_tried_ && pd_.tracing_data()) {
      tracing_tried_ = true;
      auto tf = TraceFormatter::create(*pd_.tracing_data());
      if (tf) tracing_ = std::move(*tf);
    }
    if (!tracing_) return nullptr;
    batch_.tracing = tracing_;
    return tracing_->find_event(evsel.attr.config);
  }

  // python_process_callchain(): sym and sym_off when the node has a symbol, dso when it has
  // a map.
  void add_frame(const Frame& f) {
    RecordFrame& out = batch_.frames.emplace_back();
    out.ip = f.ip;
    if (f.sym) {
      out.has_symbol = true;
      out.symbol = strings_.intern_stable(f.sym->name);
      out.sym_start = f.sym->start;
      out.sym_end = f.sym->end;
      out.binding = f.sym->binding;
      out.symoff = f.symoff();
    }
    if (f.map && f.dso) {
      out.has_map = true;
      out.dso = strings_.intern(f.dso_name());
    }
  }

  void add_bytes(RecordRow& row, Bytes b) {
    row.bytes_begin = static_cast<uint32_t>(batch_.bytes.size());
    row.bytes_size = static_cast<uint32_t>(b.size());
    batch_.bytes.insert(batch_.bytes.end(), b.begin(), b.end());
  }

  void row_done() {
    if (batch_.rows.size() >= cfg_.batch_rows) flush();
  }

  void flush() {
    strings_.take_new(batch_);
    if (!emit_(batch_)) stopped_ = true;
    batch_.clear();
    batch_.rows.reserve(cfg_.batch_rows);
  }

  const RecordStreamConfig& cfg_;
  const std::function<bool(RecordBatch&)>& emit_;
  StringIds strings_;
  ResolvedRowCache repeats_;
  RecordBatch batch_;
  uint64_t file_offset_ = 0;
  std::shared_ptr<const TraceFormatter> tracing_;
  bool tracing_tried_ = false;
  bool handing_out_ = true;
  bool stopped_ = false;
};

}  // namespace

Status stream_records(PerfData& data, const RecordStreamConfig& config,
                      const std::function<bool(RecordBatch&)>& emit) {
  RecordStreamSink sink(data, config, emit);
  Status st = data.process(sink, stream_process_options(data));
  sink.finish();
  return st;
}

}  // namespace readperf
