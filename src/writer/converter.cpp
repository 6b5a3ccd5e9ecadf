#include "readperf/writer/converter.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <charconv>
#include <unordered_map>

#include "compressor.h"
#include "readperf/format/perf_abi.h"
#include "readperf/reader/feature_swap.h"
#include "readperf/reader/record_swap.h"
#include "readperf/writer/perf_data_writer.h"

namespace readperf {

using writer_detail::Compressor;

namespace {

// util/time-utils.c parse_timestr_sec_nsec(): "SEC[.FRACTION]", the fraction at most 9
// digits; "" is an open end (0).
Result<uint64_t> parse_timestamp(std::string_view s) {
  if (s.empty()) return uint64_t{0};
  size_t dot = s.find('.');
  std::string_view sec = s.substr(0, dot);
  std::string_view frac = dot == std::string_view::npos ? "" : s.substr(dot + 1);
  uint64_t secs = 0, ns = 0;
  auto bad = [&] { return make_error(fmt::format("invalid time '{}'", s)); };
  if (sec.empty() ||
      std::from_chars(sec.data(), sec.data() + sec.size(), secs).ptr != sec.data() + sec.size()) {
    return bad();
  }
  if (frac.size() > 9) return bad();
  if (!frac.empty()) {
    if (std::from_chars(frac.data(), frac.data() + frac.size(), ns).ptr !=
        frac.data() + frac.size()) {
      return bad();
    }
    for (size_t i = frac.size(); i < 9; ++i) ns *= 10;
  }
  return secs * 1000000000ull + ns;
}

bool is_pipe_only(uint32_t type) {
  // Records that carry the header in a pipe; a file has them in its header and features.
  return type == kRecordHeaderAttr || type == kRecordHeaderEventType ||
         type == kRecordHeaderTracingData || type == kRecordHeaderBuildId ||
         type == kRecordHeaderFeature;
}

// do_write_string(): a u32 length (the string, its NUL and padding to 64), then the bytes.
void put_string(std::vector<std::byte>& out, ByteOrder order, std::string_view s) {
  uint32_t len = static_cast<uint32_t>((s.size() + 1 + 63) / 64 * 64);
  uint32_t l = order == ByteOrder::kSwapped ? bswap(len) : len;
  const auto* p = reinterpret_cast<const std::byte*>(&l);
  out.insert(out.end(), p, p + 4);
  const auto* b = reinterpret_cast<const std::byte*>(s.data());
  out.insert(out.end(), b, b + s.size());
  out.resize(out.size() + len - s.size());
}

template <class T>
void put(std::vector<std::byte>& out, ByteOrder order, T v) {
  if (order == ByteOrder::kSwapped) v = bswap(v);
  const auto* p = reinterpret_cast<const std::byte*>(&v);
  out.insert(out.end(), p, p + sizeof v);
}

class ConvertSink : public EventSink {
 public:
  ConvertSink(PerfData& in, PerfDataWriter& out, const ConvertOptions& o, ConvertStats& stats)
      : in_(in), out_(out), o_(o), stats_(stats) {
    swap_ = in.order() != out.order();
    filtering_ = !o.time.empty() || !o.pids.empty() || !o.tids.empty() || !o.cpus.empty() ||
                 !o.comms.empty();
    const auto& comp = in.features().compressed;
    passthrough_ = !swap_ && !filtering_ && !o.strip_raw && !o.decompress && !o.compress_level;
    if (o.compress_level) {
      level_ = *o.compress_level;
    } else if (comp && comp->level > 0 && !o.decompress && !passthrough_) {
      level_ = static_cast<int>(comp->level);
    }
    if (level_) {
      compressor_ = std::make_unique<Compressor>(*level_);
      if (comp && comp->mmap_len) chunk_limit_ = comp->mmap_len;
    }
  }

  Status status() const { return status_; }
  std::optional<std::pair<uint64_t, uint64_t>> sample_time() const {
    if (first_time_ == ~0ull) return std::nullopt;
    return std::make_pair(first_time_, last_time_);
  }
  bool compressed_output() const { return compressor_ != nullptr; }
  // The input's COMPRESSED records are copied as they are.
  bool passthrough() const { return passthrough_; }
  const Compressor* compressor() const { return compressor_.get(); }
  const std::vector<std::byte>& build_id_records() const { return build_ids_; }
  const std::vector<std::byte>& tracing_data() const { return tracing_; }
  // The attrs as written: without PERF_SAMPLE_RAW under --strip-raw.
  EventAttr out_attr(const EventAttr& a) const {
    EventAttr r = a;
    if (o_.strip_raw) r.sample_type &= ~uint64_t{kSampleRaw};
    return r;
  }

  void on_read(const RecordView& r) override {
    if (!status_) return;
    ++stats_.records_in;
    bool compressed = r.type == kRecordCompressed || r.type == kRecordCompressed2;
    if (passthrough_ ? r.decompressed : compressed) {
      if (!passthrough_ && compressor_ && !o_.compress_level) {
        // Recompressing the input's compression: one record out for each record in, the same
        // size where a level gets there (see Compressor::compress_to_size).
        flush_compressed();
        group_payload_ = r.size - kRecordHeaderSize;
      }
      return;
    }
    if (!r.decompressed && group_payload_) flush_compressed();
    if (in_.kind() == ContainerKind::kPipe && is_pipe_only(r.type)) {
      if (r.type == kRecordHeaderBuildId) {
        build_ids_.insert(build_ids_.end(), r.bytes.begin(), r.bytes.end());
      }
      skip_data_ = true;  // the tracing data after HEADER_TRACING_DATA is not copied either
      return;
    }
    skip_data_ = false;
    Bytes rec = r.bytes;
    const Evsel* ev = nullptr;
    if (r.type < kRecordUserTypeStart) {
      ev = in_.events().evsel_for_record(r, in_.order());
      track_threads(r);
      if (r.type == kRecordSample && ev && (filtering_ || o_.strip_raw)) {
        if (!keep_sample(r, *ev)) {
          ++stats_.samples_dropped;
          return;
        }
        if (o_.strip_raw && (ev->attr.sample_type & kSampleRaw)) rec = strip_raw(r);
      }
    }
    Bytes converted = rec;
    if (swap_) {
      swapped_.clear();
      EventAttr attr;
      if (ev) attr = out_attr(ev->attr);
      swap_record(rec, in_.order(), ev ? &attr : nullptr, in_.events().sample_id_all(), swapped_);
      converted = swapped_;
    }
    ++stats_.records_out;
    // --compress compresses the kernel records; redoing the input's compression compresses
    // what was compressed.
    bool to_compress =
        o_.compress_level ? r.type < kRecordUserTypeStart || r.decompressed : r.decompressed;
    if (compressor_ && to_compress) {
      if (!group_payload_ && pending_.size() + converted.size() > chunk_limit_) {
        flush_compressed();
      }
      pending_.insert(pending_.end(), converted.begin(), converted.end());
      return;
    }
    if (!group_payload_) flush_compressed();
    emit(converted);
  }

  void on_auxtrace_data(const RecordView&, Bytes data) override { emit(data); }
  void on_tracing_data(const RecordView&, Bytes data) override {
    tracing_.assign(data.begin(), data.end());
  }

  void finish() { flush_compressed(); }

 private:
  void emit(Bytes b) {
    if (!status_) return;
    status_ = out_.write(b);
  }

  void flush_compressed() {
    if (!compressor_ || pending_.empty()) {
      group_payload_ = 0;
      return;
    }
    packed_.clear();
    size_t target = group_payload_;
    group_payload_ = 0;
    Status s = target ? compressor_->compress_to_size(pending_, target, out_.order(), packed_)
                      : compressor_->compress(pending_, out_.order(), packed_);
    if (!s) {
      status_ = s;
      return;
    }
    pending_.clear();
    emit(packed_);
  }

  // Thread names as perf's machine tracks them, for --comm: COMM sets one, FORK copies the
  // parent's (thread__fork).
  void track_threads(const RecordView& r) {
    if (o_.comms.empty()) return;
    ByteCursor c = r.body(in_.order());
    if (r.type == kRecordComm) {
      c.u32();
      int32_t tid = c.s32();
      comms_[tid] = std::string(c.cstring());
    } else if (r.type == kRecordFork) {
      c.u32();  // pid
      c.u32();  // ppid
      int32_t tid = c.s32();
      int32_t ptid = c.s32();
      if (auto it = comms_.find(ptid); it != comms_.end()) comms_[tid] = it->second;
    }
  }

  bool keep_sample(const RecordView& r, const Evsel& ev) {
    Sample& s = sample_;
    if (!ev.layout.decode(r, in_.order(), s)) return true;  // perf would skip it anyway
    if (!filtering_) return true;
    bool keep = true;
    if (!o_.time.empty()) {
      keep = std::any_of(o_.time.begin(), o_.time.end(), [&](const TimeRange& t) {
        return !((t.start && t.start > s.time) || (t.end && t.end < s.time));
      });
    }
    auto has = [](const std::vector<int>& v, int x) {
      return v.empty() || std::find(v.begin(), v.end(), x) != v.end();
    };
    keep =
        keep && has(o_.pids, s.pid) && has(o_.tids, s.tid) && has(o_.cpus, static_cast<int>(s.cpu));
    if (keep && !o_.comms.empty()) {
      auto it = comms_.find(s.tid);
      keep = it != comms_.end() &&
             std::find(o_.comms.begin(), o_.comms.end(), it->second) != o_.comms.end();
    }
    if (keep && s.time != ~0ull) {
      first_time_ = std::min(first_time_, s.time);
      last_time_ = first_time_ == ~0ull ? s.time : std::max(last_time_, s.time);
    }
    return keep;
  }

  // The sample without its raw field (the u32 size, the data and its padding).
  Bytes strip_raw(const RecordView& r) {
    Sample& s = sample_;
    if (!s.raw.data() && s.raw_size == 0 && r.bytes.size() < 12) return r.bytes;
    size_t at = static_cast<size_t>(s.raw.data() - r.bytes.data()) - 4;
    size_t len = 4 + s.raw_size;
    stripped_.assign(r.bytes.begin(), r.bytes.end());
    stripped_.erase(stripped_.begin() + at, stripped_.begin() + at + len);
    uint16_t size = static_cast<uint16_t>(stripped_.size());
    if (in_.order() == ByteOrder::kSwapped) size = bswap(size);
    std::memcpy(stripped_.data() + 6, &size, 2);
    return stripped_;
  }

  PerfData& in_;
  PerfDataWriter& out_;
  const ConvertOptions& o_;
  ConvertStats& stats_;
  Status status_;
  bool swap_ = false, filtering_ = false, passthrough_ = false, skip_data_ = false;
  std::optional<int> level_;
  std::unique_ptr<Compressor> compressor_;
  size_t chunk_limit_ = 256 * 1024;
  size_t group_payload_ = 0;  // payload size of the input COMPRESSED record being redone
  std::vector<std::byte> pending_, packed_, swapped_, stripped_, build_ids_, tracing_;
  std::unordered_map<int32_t, std::string> comms_;
  Sample sample_;
  uint64_t first_time_ = ~0ull, last_time_ = 0;
};

ByteOrder output_order(const PerfData& in, ConvertOptions::Endian e) {
  if (e == ConvertOptions::Endian::kKeep) return in.order();
  bool host_little = std::endian::native == std::endian::little;
  bool want_little = e == ConvertOptions::Endian::kLittle;
  return host_little == want_little ? ByteOrder::kNative : ByteOrder::kSwapped;
}

// EVENT_DESC (header.c write_event_desc) for the attrs as written.
std::vector<std::byte> event_desc_section(const std::vector<EventDesc>& desc, ByteOrder order,
                                          uint32_t attr_bytes,
                                          const std::function<EventAttr(const EventAttr&)>& f) {
  std::vector<std::byte> out;
  put(out, order, static_cast<uint32_t>(desc.size()));
  put(out, order, attr_bytes);
  for (const EventDesc& d : desc) {
    write_attr(f(d.attr), attr_bytes, order, out);
    put(out, order, static_cast<uint32_t>(d.ids.size()));
    put_string(out, order, d.name);
    for (uint64_t id : d.ids) put(out, order, id);
  }
  return out;
}

}  // namespace

Result<std::vector<TimeRange>> parse_time_ranges(std::string_view text) {
  size_t comma = text.find(',');
  if (comma == std::string_view::npos) {
    return make_error(fmt::format("invalid time range '{}': expected START,END", text));
  }
  ASSIGN_OR_RETURN(uint64_t start, parse_timestamp(text.substr(0, comma)));
  ASSIGN_OR_RETURN(uint64_t end, parse_timestamp(text.substr(comma + 1)));
  if (end && start > end) return make_error(fmt::format("invalid time range '{}'", text));
  return std::vector<TimeRange>{{start, end}};
}

Result<ConvertStats> convert(PerfData& in, const std::string& out_path,
                             const ConvertOptions& options) {
  WriterOptions wo;
  wo.order = output_order(in, options.byte_order);
  bool pipe = in.kind() == ContainerKind::kPipe;
  if (!pipe && in.header().attr_size >= 16 + kAttrSizeVer0) {
    wo.attr_bytes = static_cast<uint32_t>(in.header().attr_size - 16);
    // Keep the data where the input has it (perf before 3.x left room for event types).
    wo.min_data_offset = in.header().data.offset;
  }
  ASSIGN_OR_RETURN(auto writer, PerfDataWriter::create(out_path, wo));
  ConvertStats stats;
  ConvertSink sink(in, *writer, options, stats);

  auto events = [&] {
    std::vector<WriterEvent> ev;
    for (size_t i = 0; i < in.events().size(); ++i) {
      ev.push_back({sink.out_attr(in.events()[i].attr), in.events()[i].ids});
    }
    return ev;
  };
  RETURN_IF_ERROR(writer->begin(pipe ? std::vector<WriterEvent>{} : events()));
  PerfData::ProcessOptions po;
  po.ordered = false;
  po.decode_samples = false;
  RETURN_IF_ERROR(in.process(sink, po));
  sink.finish();
  RETURN_IF_ERROR(sink.status());

  // The features, describing the output.
  const Features& f = in.features();
  bool swap = in.order() != wo.order;
  std::map<uint32_t, std::vector<std::byte>> feats;
  for (const auto& [feat, raw] : f.raw) {
    if (swap) {
      swap_feature(feat, raw, in.order(), f.nr_cpus_avail, feats[feat]);
    } else {
      feats[feat] = raw;
    }
  }
  // A merged directory is no longer one (header.c process_dir_format).
  feats.erase(kFeatDirFormat);
  if (pipe) {
    if (!sink.tracing_data().empty()) feats[kFeatTracingData] = sink.tracing_data();
    if (!sink.build_id_records().empty()) {
      std::vector<std::byte>& b = feats[kFeatBuildId];
      b.clear();
      if (swap) {
        swap_feature(kFeatBuildId, sink.build_id_records(), in.order(), 0, b);
      } else {
        b = sink.build_id_records();
      }
    }
  }
  bool filtering = !options.time.empty() || !options.pids.empty() || !options.tids.empty() ||
                   !options.cpus.empty() || !options.comms.empty();
  if (filtering && f.sample_time) {
    std::vector<std::byte>& s = feats[kFeatSampleTime];
    s.clear();
    auto t = sink.sample_time().value_or(std::make_pair(uint64_t{0}, uint64_t{0}));
    put(s, wo.order, t.first);
    put(s, wo.order, t.second);
  }
  if (sink.passthrough()) {
    // The compressed records were copied: their feature stays as it was.
  } else if (options.decompress && !sink.compressed_output()) {
    feats.erase(kFeatCompressed);
  } else if (sink.compressed_output() && (options.compress_level || !f.compressed)) {
    // header.c write_compressed(): version, type (1: zstd), level, ratio, mmap_len.
    const Compressor* c = sink.compressor();
    double ratio = c->bytes_out() ? static_cast<double>(c->bytes_in()) / c->bytes_out() : 0;
    std::vector<std::byte>& s = feats[kFeatCompressed];
    s.clear();
    put(s, wo.order, f.compressed ? f.compressed->version : uint32_t{1});
    put(s, wo.order, uint32_t{1});
    put(s, wo.order, static_cast<uint32_t>(options.compress_level.value_or(1)));
    put(s, wo.order, static_cast<uint32_t>(ratio + 0.5));
    put(s, wo.order,
        f.compressed && f.compressed->mmap_len ? f.compressed->mmap_len : uint32_t{256 * 1024});
  }
  if (options.strip_raw && f.event_desc) {
    feats[kFeatEventDesc] =
        event_desc_section(*f.event_desc, wo.order, wo.attr_bytes,
                           [&](const EventAttr& a) { return sink.out_attr(a); });
  }
  RETURN_IF_ERROR(writer->finish(events(), feats));
  stats.bytes_out = writer->offset();
  return stats;
}

}  // namespace readperf
