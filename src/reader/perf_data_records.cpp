// Each record read (session.c perf_session__process_event()): the kernel's queued in time order
// or delivered with their samples decoded, the user records applied to the events, features
// and tracing data as they come, compressed records fed to the reader's decompressor.
#include <fmt/format.h>

#include "perf_data_impl.h"
#include "readperf/format/perf_abi.h"

namespace readperf {

Error record_error(const RecordView& r, uint64_t offset, std::string_view what) {
  return Error(fmt::format("record type {} ({}) size {}: {}", r.type, record_type_name(r.type),
                           r.size, what),
               offset);
}

void PerfData::Impl::deliver(PerfData& pd, const RecordView& r) {
  const Evsel* evsel = pd.events_.evsel_for_record(r, pd.order());
  if (!evsel) {
    note_skip(pd, r, record_error(r, r.file_offset, "names no known event id"));
    return;
  }
  if (!options.decode_samples && r.type == kRecordSample) {
    sink->on_kernel_record(r, sample, evsel);
    return;
  }
  if (Status s = evsel->layout.decode(r, pd.order(), sample); !s) {
    note_skip(pd, r, s.error());
    return;
  }
  sink->on_kernel_record(r, sample, evsel);
}

Status PerfData::Impl::handle(PerfData& pd, const RecordView& r, bool transient, DataReader* reader,
                              uint64_t* skip, uint32_t block) {
  ++pd.stats_.records;
  *skip = 0;
  sink->on_read(r);
  if (r.type >= kRecordUserTypeStart) return handle_user(pd, r, reader, skip);
  if (r.type >= kRecordKernelTypeMax) {
    // Unknown kernel type: perf counts it and skips it at delivery (nr_unknown_events).
    note_skip(pd, r, record_error(r, r.file_offset, "unknown record type"));
    return {};
  }
  if (options.ordered) {
    const Evsel* evsel = pd.events_.evsel_for_record(r, pd.order());
    uint64_t ts = evsel ? evsel->layout.timestamp(r, pd.order()) : ~0ull;
    if (queue.push(ts, r, transient && block == OrderedQueue::kNoBlock, block)) return {};
  }
  deliver(pd, r);
  return {};
}

Status PerfData::Impl::handle_user(PerfData& pd, const RecordView& r, DataReader* reader,
                                   uint64_t* skip) {
  sink->on_user_record(r);
  ByteCursor c = r.body(pd.order());
  auto deliver_fn = [&](const RecordView& q, uint64_t) { deliver(pd, q); };
  switch (r.type) {
    case kRecordHeaderAttr: {
      // util/header.c perf_event__process_attr(): the attr, then its ids to the end.
      ByteCursor peek = c;
      peek.u32();
      uint32_t attr_bytes = peek.u32();
      if (attr_bytes == 0) attr_bytes = kAttrSizeVer0;
      if (attr_bytes > c.remaining()) {
        return tl::unexpected(record_error(r, r.file_offset, "attr larger than its record"));
      }
      auto attr = parse_event_attr(c, attr_bytes);
      if (!attr) return tl::unexpected(attr.error());
      std::vector<uint64_t> ids;
      while (c.remaining() >= 8) ids.push_back(c.u64());
      pd.events_.add(*attr, std::move(ids));
      return {};
    }
    case kRecordIdIndex: {
      uint64_t nr = c.u64();
      for (uint64_t i = 0; i < nr && c.remaining() >= 32; ++i) {
        uint64_t id = c.u64();
        uint64_t idx = c.u64();
        c.u64();  // cpu
        c.u64();  // tid
        pd.events_.add_id(idx, id);
      }
      return {};
    }
    case kRecordHeaderFeature: {
      // perf has no swap op for HEADER_FEATURE: it reads feat_id as it is (session.c).
      uint64_t feat = c.u64();
      if (c.swapped()) feat = bswap(feat);
      if (c.ok() && feat < 256) {
        FeatureContext ctx{.swapped = pd.order() == ByteOrder::kSwapped,
                           .nr_events = pd.events_.size()};
        Status st =
            parse_feature(static_cast<uint32_t>(feat), c.sub(c.remaining()), ctx, pd.features_);
        if (!st && perf_stops_on_error(feat) && !pd.features_.stopped_at) {
          pd.features_.stopped_at.emplace(feat, st.error());
        }
        if (feat == kFeatEventDesc) apply_event_desc_names(pd.features_, pd.events_);
      }
      return {};
    }
    case kRecordEventUpdate: {
      // util/event.h struct perf_record_event_update: type, id, then the payload;
      // PERF_EVENT_UPDATE__NAME (2) names the event (header.c perf_event__process_event_update).
      uint64_t type = c.u64();
      uint64_t id = c.u64();
      if (c.ok() && type == 2) {
        const Evsel* ev = pd.events_.evsel_for_sample_id(id);  // evlist__id2evsel
        if (ev) pd.events_[ev->index].name = std::string(c.cstring());
      }
      return {};
    }
    case kRecordFinishedRound:
      queue.flush_round(deliver_fn);
      return {};
    case kRecordHeaderTracingData: {
      // The tracing data follows the record, padded to 8 bytes (header.c
      // perf_event__process_tracing_data).
      uint32_t size = c.u32();
      *skip = (static_cast<uint64_t>(size) + 7) & ~7ull;
      return {};
    }
    case kRecordAuxtrace: {
      // The AUX area data follows the record (session.c, "setup for reading amidst mmap").
      *skip = c.u64();
      return {};
    }
    case kRecordCompressed:
    case kRecordCompressed2: {
      if (!reader) {
        return tl::unexpected(record_error(r, r.file_offset,
                                           "compressed record inside "
                                           "compressed data"));
      }
      Bytes payload = r.bytes.subspan(kRecordHeaderSize);
      if (r.type == kRecordCompressed2) {
        // perf 7.x: struct perf_record_compressed2 { header; u64 data_size; char data[]; }
        uint64_t data_size = c.u64();
        if (!c.ok() || data_size > payload.size() - 8) {
          return tl::unexpected(record_error(r, r.file_offset, "data_size past the record"));
        }
        payload = payload.subspan(8, data_size);
      }
      if (Status s = reader->decompressor.feed(payload); !s) {
        return tl::unexpected(record_error(r, r.file_offset, s.error().what()));
      }
      return {};
    }
    default:
      return {};
  }
}

Status PerfData::Impl::drain_decompressed(PerfData& pd, DataReader& reader, uint64_t file_offset) {
  while (true) {
    Bytes pending = reader.decompressor.pending();
    if (pending.size() < kRecordHeaderSize) return {};
    ByteCursor hc(pending.first(kRecordHeaderSize), pd.order());
    RecordView r;
    r.type = hc.u32();
    r.misc = hc.u16();
    r.size = hc.u16();
    if (r.size > pending.size()) return {};  // the rest comes with the next chunk
    r.bytes = pending.first(r.size);
    r.file_offset = file_offset;
    r.source = reader.source;
    r.decompressed = true;
    if (r.size < kRecordHeaderSize) {
      return tl::unexpected(
          record_error(r, file_offset, "is smaller than its header (in compressed data)"));
    }
    uint64_t skip = 0;
    RETURN_IF_ERROR(handle(pd, r, /*transient=*/true, nullptr, &skip));
    reader.decompressor.consume(r.size);
  }
}

}  // namespace readperf
