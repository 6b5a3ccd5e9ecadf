// The converter's record loop: reads the input's records and hands them, filtered, swapped,
// decompressed or compressed as asked, to a RecordOutput (a perf.data file or a pipe-mode
// stream). Private to the writer library.
#pragma once

#include <algorithm>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "compressor.h"
#include "readperf/format/perf_abi.h"
#include "readperf/reader/perf_data.h"
#include "readperf/reader/record_swap.h"
#include "readperf/writer/converter.h"
#include "readperf/writer/record_output.h"

namespace readperf::writer_detail {

// Records that carry the header in a pipe; a file has them in its header and features.
bool is_pipe_only(uint32_t type);

// do_write_string(): a u32 length (the string, its NUL and padding to 64), then the bytes.
void put_string(std::vector<std::byte>& out, ByteOrder order, std::string_view s);

template <class T>
void put(std::vector<std::byte>& out, ByteOrder order, T v) {
  if (order == ByteOrder::kSwapped) v = bswap(v);
  const auto* p = reinterpret_cast<const std::byte*>(&v);
  out.insert(out.end(), p, p + sizeof v);
}

// sizeof(struct perf_event_attr) in perf 6.1 (PERF_ATTR_SIZE_VER7), what --compat 6.1 writes.
constexpr uint32_t kAttrBytesPerf61 = 128;

// --compat 6.1: an error naming the first event perf 6.1 could not read as recorded.
Status check_perf61_attrs(const PerfData& in);

// The byte order the output is written in.
ByteOrder output_order(const PerfData& in, ConvertOptions::Endian e);

// EVENT_DESC (header.c write_event_desc) for the attrs as written.
std::vector<std::byte> event_desc_section(const std::vector<EventDesc>& desc, ByteOrder order,
                                          uint32_t attr_bytes,
                                          const std::function<EventAttr(const EventAttr&)>& f);

class ConvertSink : public EventSink {
 public:
  // `pipe_out`: the output is a pipe-mode stream, which keeps a pipe input's header records.
  ConvertSink(PerfData& in, RecordOutput& out, const ConvertOptions& o, ConvertStats& stats,
              bool pipe_out = false)
      : in_(in), out_(out), o_(o), stats_(stats), pipe_out_(pipe_out) {
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
  // For a pipe copied to a pipe: the COMPRESSED feature record's section to write instead of
  // the input's (nullopt: keep the input's; empty: drop it).
  void set_compressed_feature(std::optional<std::vector<std::byte>> section) {
    compressed_feature_ = std::move(section);
  }
  // The attrs as written: without PERF_SAMPLE_RAW under --strip-raw.
  EventAttr out_attr(const EventAttr& a) const {
    EventAttr r = a;
    if (o_.strip_raw) r.sample_type &= ~uint64_t{kSampleRaw};
    if (o_.compat_perf61) r.size = std::min(r.size, kAttrBytesPerf61);
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
    // perf 6.1 stops at a user record type it does not know (session.c
    // perf_session__process_event(): type >= PERF_RECORD_HEADER_MAX is -EINVAL).
    if (o_.compat_perf61 && r.type > kRecordFinishedInit) return;
    Bytes rec = r.bytes;
    if (in_.kind() == ContainerKind::kPipe && is_pipe_only(r.type)) {
      if (pipe_out_) {
        // A pipe to a pipe keeps its header records, changed where the output differs.
        if (r.type == kRecordHeaderFeature) return pipe_feature(r);
        if (r.type == kRecordHeaderAttr && (o_.strip_raw || o_.compat_perf61)) {
          rec = rewrite_attr(r);
        }
      } else {
        if (r.type == kRecordHeaderBuildId) {
          build_ids_.insert(build_ids_.end(), r.bytes.begin(), r.bytes.end());
        }
        skip_data_ = true;  // the tracing data after HEADER_TRACING_DATA is not copied either
        return;
      }
    }
    skip_data_ = false;
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
    // In a pipe output the data (padding included) follows its record again.
    if (pipe_out_) emit(data);
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

  // A HEADER_FEATURE record of a pipe input, for a pipe output (convert_sink.cpp).
  void pipe_feature(const RecordView& r);
  void emit_compressed_feature();
  // The HEADER_ATTR record as out_attr() changes its attr (no PERF_SAMPLE_RAW, the size
  // perf 6.1 reads), in the input's byte order.
  Bytes rewrite_attr(const RecordView& r);

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
  RecordOutput& out_;
  const ConvertOptions& o_;
  ConvertStats& stats_;
  bool pipe_out_ = false;
  std::optional<std::vector<std::byte>> compressed_feature_;
  bool compressed_feature_done_ = false;
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

// The input's feature sections in `order`, less DIR_FORMAT (and, for --compat 6.1, those perf
// 6.1 does not know).
std::map<uint32_t, std::vector<std::byte>> input_features(const PerfData& in, ByteOrder order,
                                                          const ConvertOptions& o);

// The COMPRESSED feature the output needs: nullopt keeps the input's, an empty section drops
// it, anything else replaces it (written with `ratio`).
std::optional<std::vector<std::byte>> compressed_feature(const PerfData& in,
                                                         const ConvertSink& sink,
                                                         const ConvertOptions& o, ByteOrder order,
                                                         uint32_t ratio);

// convert() to a pipe-mode stream (pipe_converter.cpp); `out_path` "-" is standard output.
Result<ConvertStats> convert_to_pipe(PerfData& in, const std::string& out_path,
                                     const ConvertOptions& options);

}  // namespace readperf::writer_detail
