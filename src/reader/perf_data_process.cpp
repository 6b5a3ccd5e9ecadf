// PerfData::process(): the records of every data file (a directory's in 2 MB turns) or of the
// stream read in order and handed to the sink, mapped pages given back as the readers go.
#include <fmt/format.h>

#include <algorithm>
#include <cstring>

#include "perf_data_impl.h"
#include "readperf/format/perf_abi.h"
#include "readperf/reader/record_errors.h"

namespace readperf {

namespace {

// perf's session.c reads a directory's data files 2 MB at a time, in turn.
constexpr uint64_t kDirSliceBytes = 2 * 1024 * 1024;
// How often (in bytes read) to give mapped pages behind the reader back to the kernel.
constexpr uint64_t kReleaseStep = 2 * 1024 * 1024;

}  // namespace

Status PerfData::process(EventSink& sink, const ProcessOptions& options) {
  Status st = process_records(sink, options);
  if (progress_) progress_->finished();
  if (st) return st;
  // Name the file the error is in, as open() does: a directory's data file, else the input.
  const std::string& name =
      kind_ == ContainerKind::kDirectory ? source_names_[impl_->current_source] : path_;
  return tl::unexpected(st.error().in_file(name));
}

Status PerfData::process_records(EventSink& sink, const ProcessOptions& options) {
  Impl& im = *impl_;
  im.sink = &sink;
  im.options = options;
  auto deliver_fn = [&](const RecordView& q, uint64_t) { im.deliver(*this, q); };

  if (kind_ == ContainerKind::kPipe) {
    // Offsets count from the end of the 16-byte pipe header, as perf's pipe reader does.
    DataReader reader(im.pipe_bytes, 0, 0);
    uint64_t head = 0;
    std::vector<std::byte> buf(1 << 16);
    while (true) {
      RecordView r;
      r.file_offset = head;
      r.source = 0;
      std::byte hdr[kRecordHeaderSize];
      size_t got;
      if (im.stream) {
        auto g = im.stream->read_exact(hdr, kRecordHeaderSize);
        if (!g) return tl::unexpected(g.error());
        got = *g;
      } else {
        got = std::min(kRecordHeaderSize, im.pipe_bytes.size() - head);
        std::memcpy(hdr, im.pipe_bytes.data() + head, got);
      }
      if (got == 0) break;
      if (got < kRecordHeaderSize) {
        return make_error("truncated record header at the end of the stream", head + 16);
      }
      ByteCursor hc(Bytes(hdr, kRecordHeaderSize), order());
      r.type = hc.u32();
      r.misc = hc.u16();
      r.size = hc.u16();
      if (r.size < kRecordHeaderSize) {
        return tl::unexpected(record_error(r, head + 16, kSmallerThanHeader));
      }
      bool transient = true;
      if (im.stream) {
        if (buf.size() < r.size) buf.resize(r.size);
        std::memcpy(buf.data(), hdr, kRecordHeaderSize);
        auto g = im.stream->read_exact(buf.data() + kRecordHeaderSize, r.size - kRecordHeaderSize);
        if (!g) return tl::unexpected(g.error());
        if (*g < r.size - kRecordHeaderSize) {
          // perf: "unexpected end of event stream", then it finishes normally.
          break;
        }
        r.bytes = Bytes(buf.data(), r.size);
      } else {
        if (r.size > im.pipe_bytes.size() - head) break;
        r.bytes = im.pipe_bytes.subspan(head, r.size);
        transient = false;
      }
      uint64_t skip = 0;
      RETURN_IF_ERROR(im.handle(*this, r, transient, &reader, &skip));
      head += r.size;
      if (skip) {
        // Data carried after the record (tracing data, AUX): read past it.
        bool aux = r.type == kRecordAuxtrace;
        bool tracing = r.type == kRecordHeaderTracingData;
        std::vector<std::byte> aux_data;  // AUX data read from the stream, for the sink
        Bytes carried;
        if (im.stream) {
          std::vector<std::byte> sink_buf(std::min<uint64_t>(skip, 1 << 20));
          uint64_t left = skip;
          while (left) {
            size_t n = std::min<uint64_t>(left, sink_buf.size());
            auto g = im.stream->read_exact(sink_buf.data(), n);
            if (!g) return tl::unexpected(g.error());
            if (aux || tracing)
              aux_data.insert(aux_data.end(), sink_buf.data(), sink_buf.data() + *g);
            if (*g < n) break;
            left -= n;
          }
          carried = aux_data;
        } else {
          if (skip > im.pipe_bytes.size() - head) {
            skip = im.pipe_bytes.size() - head;  // the data runs past the end: stop there
          }
          carried = im.pipe_bytes.subspan(head, skip);
        }
        if (aux) sink.on_auxtrace_data(r, carried);
        if (tracing) {
          set_tracing_data(carried);
          sink.on_tracing_data(r, carried);
        }
        head += skip;
      }
      RETURN_IF_ERROR(im.drain_decompressed(*this, reader, r.file_offset));
      if (sink.cancelled()) return {};
      if (sink.done()) break;
    }
    im.queue.flush_all(deliver_fn);
    stats_.unordered = im.queue.unordered();
    return {};
  }

  // File and directory: each reader in turn, 2 MB at a time (one reader for a file).
  // Readers left done by an earlier process() stay done: a second call delivers nothing
  // (counting them as active would spin on them for ever).
  size_t active = static_cast<size_t>(std::count_if(im.readers.begin(), im.readers.end(),
                                                    [](const DataReader& r) { return !r.done; }));
  for (DataReader& rd : im.readers) rd.queue = &im.queue;
  // Progress: bytes read of all readers' data, told every kProgressStep bytes.
  constexpr uint64_t kProgressStep = 1 << 20;
  uint64_t progress_total = 0, progress_done = 0, progress_next = 0;
  for (const DataReader& rd : im.readers) {
    progress_total += rd.data.size();
    progress_done += rd.pos;
  }
  size_t i = 0;
  while (active > 0) {
    DataReader& rd = im.readers[i];
    im.current_source = rd.source;
    if (rd.done) {
      i = (i + 1) % im.readers.size();
      continue;
    }
    if (rd.pos >= rd.data.size()) {
      rd.done = true;
      --active;
      continue;
    }
    uint64_t offset = rd.base_offset + rd.pos;
    if (rd.data.size() - rd.pos < kRecordHeaderSize) {
      // A partial header at the end: perf stops reading this file without a word.
      rd.done = true;
      --active;
      continue;
    }
    ByteCursor hc(rd.view(rd.pos, kRecordHeaderSize), order());
    RecordView r;
    r.type = hc.u32();
    r.misc = hc.u16();
    r.size = hc.u16();
    r.file_offset = offset;
    r.source = rd.source;
    if (r.size < kRecordHeaderSize) {
      return tl::unexpected(record_error(r, offset, kSmallerThanHeader));
    }
    if (r.size > rd.data.size() - rd.pos) {
      return tl::unexpected(record_error(
          r, offset,
          fmt::format("runs past the end of the data ({:#x})", rd.base_offset + rd.data.size())));
    }
    uint32_t block = OrderedQueue::kNoBlock;
    r.bytes = rd.view(rd.pos, r.size, &block);
    uint64_t skip = 0;
    RETURN_IF_ERROR(im.handle(*this, r, /*transient=*/rd.file != nullptr, &rd, &skip, block));
    // r.size + skip may wrap (AUXTRACE's size is a u64 from the file): clamp to what is left.
    uint64_t left = rd.data.size() - rd.pos;
    uint64_t advance = skip > left - r.size ? left : r.size + skip;
    if (r.type == kRecordAuxtrace) {
      sink.on_auxtrace_data(r, rd.data.subspan(rd.pos + r.size, advance - r.size));
    }
    rd.pos += advance;
    rd.slice += advance;
    progress_done += advance;
    if (progress_ && progress_done >= progress_next) {
      progress_->on_progress(progress_done, progress_total, stats_.records);
      progress_next = progress_done + kProgressStep;
    }
    RETURN_IF_ERROR(im.drain_decompressed(*this, rd, offset));
    if (rd.file && rd.pos >= rd.released + kReleaseStep) {
      // Drop the mapped pages behind the reader: queued records point into the reader's
      // blocks or the queue's copies, not into the mapping.
      rd.file->release_before(rd.base_offset + rd.pos);
      rd.released = rd.pos;
    }
    if (rd.slice >= kDirSliceBytes) {
      rd.slice = 0;
      i = (i + 1) % im.readers.size();
    }
    if (sink.cancelled()) break;
  }
  for (DataReader& rd : im.readers) rd.retire();
  if (sink.cancelled()) return {};
  im.queue.flush_all(deliver_fn);
  stats_.unordered = im.queue.unordered();
  if (progress_) progress_->on_progress(progress_total, progress_total, stats_.records);
  return {};
}

}  // namespace readperf
