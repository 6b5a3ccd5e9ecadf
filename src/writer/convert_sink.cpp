#include "convert_sink.h"

#include <algorithm>
#include <bit>
#include <cstring>

#include "readperf/reader/feature_swap.h"

namespace readperf::writer_detail {

bool is_pipe_only(uint32_t type) {
  return type == kRecordHeaderAttr || type == kRecordHeaderEventType ||
         type == kRecordHeaderTracingData || type == kRecordHeaderBuildId ||
         type == kRecordHeaderFeature;
}

void put_string(std::vector<std::byte>& out, ByteOrder order, std::string_view s) {
  uint32_t len = static_cast<uint32_t>((s.size() + 1 + 63) / 64 * 64);
  uint32_t l = order == ByteOrder::kSwapped ? bswap(len) : len;
  const auto* p = reinterpret_cast<const std::byte*>(&l);
  out.insert(out.end(), p, p + 4);
  const auto* b = reinterpret_cast<const std::byte*>(s.data());
  out.insert(out.end(), b, b + s.size());
  out.resize(out.size() + len - s.size());
}

ByteOrder output_order(const PerfData& in, ConvertOptions::Endian e) {
  if (e == ConvertOptions::Endian::kKeep) return in.order();
  bool host_little = std::endian::native == std::endian::little;
  bool want_little = e == ConvertOptions::Endian::kLittle;
  return host_little == want_little ? ByteOrder::kNative : ByteOrder::kSwapped;
}

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

void ConvertSink::pipe_feature(const RecordView& r) {
  // perf reads feat_id as it is (no swap op for HEADER_FEATURE, util/session.c).
  uint64_t feat = 0;
  if (r.bytes.size() >= 16) std::memcpy(&feat, r.bytes.data() + 8, 8);
  // The COMPRESSED section in its feature-id place (synthesize_features' bit order), or the
  // input's replaced.
  if (compressed_feature_ && !compressed_feature_done_ && feat >= kFeatCompressed) {
    emit_compressed_feature();
    if (feat == kFeatCompressed) return;
  }
  if (o_.compat_perf61 && feat >= kFeatLastFeature6_1) {
    // perf 6.1's report takes HEADER_LAST_FEATURE (32) as the end of the features and any id
    // past it as an error (builtin-report.c process_feature_event(): "wrong feature ID"): a
    // newer perf's end mark (the record without a section) becomes perf 6.1's, and the
    // features perf 6.1 does not know are left out.
    if (r.bytes.size() > 16) return;
    feat = kFeatLastFeature6_1;
  }
  Bytes body = r.bytes.subspan(std::min<size_t>(r.bytes.size(), 16));
  std::vector<std::byte> patched;
  if (feat == kFeatEventDesc && o_.strip_raw && body.size() >= 8) {
    // The record comes before the reader parses it: parse it here, keeping its attr size.
    auto desc = parse_event_desc(ByteCursor(body, in_.order()));
    uint32_t attr_bytes;
    std::memcpy(&attr_bytes, body.data() + 4, 4);
    if (in_.order() == ByteOrder::kSwapped) attr_bytes = bswap(attr_bytes);
    if (desc) {
      patched = event_desc_section(*desc, in_.order(), attr_bytes,
                                   [&](const EventAttr& a) { return out_attr(a); });
      body = patched;
    }
  }
  swapped_.clear();
  put(swapped_, out_.order(), uint32_t{kRecordHeaderFeature});
  put(swapped_, out_.order(), uint16_t{0});
  put(swapped_, out_.order(), static_cast<uint16_t>(16 + body.size()));
  put(swapped_, ByteOrder::kNative, feat);
  if (swap_) {
    swap_feature(static_cast<uint32_t>(feat), body, in_.order(), in_.features().nr_cpus_avail,
                 swapped_);
  } else {
    swapped_.insert(swapped_.end(), body.begin(), body.end());
  }
  ++stats_.records_out;
  emit(swapped_);
}

void ConvertSink::emit_compressed_feature() {
  compressed_feature_done_ = true;
  if (compressed_feature_->empty()) return;  // decompressed: no COMPRESSED feature
  std::vector<std::byte> rec;
  put(rec, out_.order(), uint32_t{kRecordHeaderFeature});
  put(rec, out_.order(), uint16_t{0});
  put(rec, out_.order(), static_cast<uint16_t>(16 + compressed_feature_->size()));
  put(rec, ByteOrder::kNative, uint64_t{kFeatCompressed});
  rec.insert(rec.end(), compressed_feature_->begin(), compressed_feature_->end());
  ++stats_.records_out;
  emit(rec);
}

Bytes ConvertSink::rewrite_attr(const RecordView& r) {
  // struct perf_record_header_attr: the header, the attr (sample_type at byte 24, its size
  // at byte 4), then the ids. Changed in place, so that what is not changed stays as it was.
  stripped_.assign(r.bytes.begin(), r.bytes.end());
  if (stripped_.size() < kRecordHeaderSize + 32) return stripped_;
  const bool swapped = in_.order() == ByteOrder::kSwapped;
  if (o_.strip_raw) {
    uint64_t st;
    std::memcpy(&st, stripped_.data() + kRecordHeaderSize + 24, 8);
    uint64_t bit = kSampleRaw;
    if (swapped) bit = bswap(bit);
    st &= ~bit;
    std::memcpy(stripped_.data() + kRecordHeaderSize + 24, &st, 8);
  }
  uint32_t size;
  std::memcpy(&size, stripped_.data() + kRecordHeaderSize + 4, 4);
  if (swapped) size = bswap(size);
  if (o_.compat_perf61 && size > kAttrBytesPerf61 && kRecordHeaderSize + size <= stripped_.size()) {
    // What perf 6.1's attr has no room for goes, when it is zero (config3, config4 unused).
    auto attr_end = stripped_.begin() + kRecordHeaderSize;
    if (std::any_of(attr_end + kAttrBytesPerf61, attr_end + size,
                    [](std::byte b) { return b != std::byte{0}; })) {
      status_ = make_error(
          "--compat 6.1: a HEADER_ATTR uses config3/config4, which perf 6.1's attr cannot hold");
      return r.bytes;
    }
    stripped_.erase(attr_end + kAttrBytesPerf61, attr_end + size);
    uint32_t new_size = swapped ? bswap(kAttrBytesPerf61) : kAttrBytesPerf61;
    std::memcpy(stripped_.data() + kRecordHeaderSize + 4, &new_size, 4);
    auto record_size = static_cast<uint16_t>(stripped_.size());
    if (swapped) record_size = bswap(record_size);
    std::memcpy(stripped_.data() + 6, &record_size, 2);
  }
  return stripped_;
}

}  // namespace readperf::writer_detail
