#include "readperf/reader/perf_data.h"

#include <fmt/format.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstring>
#include <filesystem>

#include "decompressor.h"
#include "readperf/format/perf_abi.h"
#include "readperf/reader/input_file.h"
#include "readperf/reader/ordered_queue.h"
#include "readperf/reader/record_errors.h"

namespace readperf {

namespace {

// perf's session.c reads a directory's data files 2 MB at a time, in turn.
constexpr uint64_t kDirSliceBytes = 2 * 1024 * 1024;
// How often (in bytes read) to give mapped pages behind the reader back to the kernel.
constexpr uint64_t kReleaseStep = 2 * 1024 * 1024;

Error record_error(const RecordView& r, uint64_t offset, std::string_view what) {
  return Error(fmt::format("record type {} ({}) size {}: {}", r.type, record_type_name(r.type),
                           r.size, what),
               offset);
}

// header.c process_event_desc() / evlist__set_event_name(): EVENT_DESC names the events by
// position, those that have no name yet.
void apply_event_desc_names(const Features& f, EventList& events) {
  if (!f.event_desc) return;
  for (size_t i = 0; i < f.event_desc->size() && i < events.size(); ++i) {
    if (events[i].name.empty()) events[i].name = (*f.event_desc)[i].name;
  }
}

}  // namespace

// One data file, or the data section of the main file, read record by record.
struct DataReader {
  DataReader(Bytes d, uint64_t base, uint32_t src, MappedFile* f = nullptr)
      : data(d), base_offset(base), source(src), file(f) {}
  Bytes data;            // the bytes to read
  uint64_t base_offset;  // file offset of data[0]
  uint32_t source;
  size_t pos = 0;
  uint64_t slice = 0;  // bytes read since this reader's turn began (directory mode)
  Decompressor decompressor;
  bool done = false;
  // The mapping `data` lives in, whose pages behind the reader are dropped as it goes, so
  // resident memory stays flat however large the file (pages still referenced by queued
  // records fault back in from the file).
  MappedFile* file = nullptr;
  size_t released = 0;  // reader position at the last release

  // Records of a mapped file are read through blocks of the ordered queue (acquire_block()),
  // filled with pread() (MappedFile::read_at): data[win_pos, win_pos + win_len) is in `block`.
  // Queued records point into their block, which the queue keeps until they are delivered:
  // nothing is copied. The mapping serves only what is read once and large (AUX data).
  OrderedQueue* queue = nullptr;
  uint32_t block = OrderedQueue::kNoBlock;
  size_t win_pos = 0;
  size_t win_len = 0;
  static constexpr size_t kBlockBytes = 256 * 1024;  // stays in L2: fastest in measurements

  // data[pos, pos + n), n <= data.size() - pos: from the current block (a new one as needed)
  // when reading a file, else the bytes themselves. `in_block` is set to the block holding
  // them, kNoBlock when they are not in one.
  Bytes view(size_t at, size_t n, uint32_t* in_block = nullptr) {
    if (in_block) *in_block = OrderedQueue::kNoBlock;
    if (!file || !queue) return data.subspan(at, n);
    if (block == OrderedQueue::kNoBlock || at < win_pos || at + n > win_pos + win_len) {
      // Retired first: a block no queued record holds is the one filled again, which keeps
      // the reading in one cache-warm buffer when records are not queued.
      retire();
      block = queue->acquire_block(std::max(kBlockBytes, n));
      size_t len = std::min<uint64_t>(queue->block_capacity(block), data.size() - at);
      size_t got = file->read_at(base_offset + at, queue->block_data(block), len);
      if (got < n) {
        retire();
        return data.subspan(at, n);  // a read error: the mapping has the bytes
      }
      win_pos = at;
      win_len = got;
    }
    if (in_block) *in_block = block;
    return Bytes(queue->block_data(block) + (at - win_pos), n);
  }
  // Lets the current block go (queued records still hold it).
  void retire() {
    if (block != OrderedQueue::kNoBlock) queue->retire_block(block);
    block = OrderedQueue::kNoBlock;
    win_len = 0;
  }
};

struct PerfData::Impl {
  std::vector<std::unique_ptr<MappedFile>> files;
  std::unique_ptr<StreamInput> stream;
  std::vector<std::byte> owned;  // the bytes of open_bytes()
  Bytes pipe_bytes;              // a regular file holding a pipe-mode stream
  std::vector<DataReader> readers;
  OrderedQueue queue;
  EventSink* sink = nullptr;
  ProcessOptions options;
  Sample sample;                // reused for every delivery
  uint32_t current_source = 0;  // the data file being read, for error messages

  Status handle(PerfData& pd, const RecordView& r, bool transient, DataReader* reader,
                uint64_t* skip, uint32_t block = OrderedQueue::kNoBlock);
  Status handle_user(PerfData& pd, const RecordView& r, DataReader* reader, uint64_t* skip);
  Status drain_decompressed(PerfData& pd, DataReader& reader, uint64_t file_offset);
  void deliver(PerfData& pd, const RecordView& r);
  void note_skip(PerfData& pd, const RecordView& r, const Error& why) {
    ++pd.stats_.skipped;
    if (!pd.stats_.first_skip) pd.stats_.first_skip = why;
    sink->on_skipped(r, why);
  }
};

PerfData::~PerfData() = default;

Result<std::unique_ptr<PerfData>> PerfData::open(const std::string& path) {
  std::unique_ptr<PerfData> pd(new PerfData());
  pd->impl_ = std::make_unique<Impl>();
  pd->path_ = path;
  auto with_path = [&](const Error& e) { return tl::unexpected(e.in_file(path)); };

  struct stat st;
  bool is_stream = path == "-" || (::stat(path.c_str(), &st) == 0 && S_ISFIFO(st.st_mode));
  if (is_stream) {
    auto s = StreamInput::open(path);
    if (!s) return with_path(s.error());
    return open_stream_input(std::move(pd), std::move(*s));
  }

  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    // perf record --threads: perf.data/data holds the header, data.N the per-thread data.
    std::string main = path + "/data";
    auto f = MappedFile::open(main);
    if (!f) return tl::unexpected(f.error().in_file(main));
    Bytes bytes = (*f)->bytes();
    pd->impl_->files.push_back(std::move(*f));
    pd->kind_ = ContainerKind::kDirectory;
    if (Status s = pd->open_file(main, bytes); !s) {
      return tl::unexpected(s.error().in_file(main));
    }
    pd->source_names_.push_back(main);
    DataReader main_reader(bytes.subspan(pd->header_.data.offset, pd->header_.data.size),
                           pd->header_.data.offset, 0, pd->impl_->files.back().get());
    pd->impl_->readers.push_back(std::move(main_reader));
    // data.0, data.1, ... in numeric order, as perf's data.c open_dir() sorts them.
    std::vector<std::pair<int, std::string>> parts;
    for (const auto& entry : std::filesystem::directory_iterator(path, ec)) {
      std::string name = entry.path().filename().string();
      if (name.rfind("data.", 0) != 0) continue;
      char* end = nullptr;
      long n = std::strtol(name.c_str() + 5, &end, 10);
      if (*end != '\0' || name.size() == 5) continue;
      parts.emplace_back(static_cast<int>(n), path + "/" + name);
    }
    std::sort(parts.begin(), parts.end());
    for (auto& [n, part] : parts) {
      auto pf = MappedFile::open(part);
      if (!pf) return tl::unexpected(pf.error().in_file(part));
      Bytes b = (*pf)->bytes();
      pd->impl_->files.push_back(std::move(*pf));
      if (b.empty()) continue;  // perf skips empty data files
      pd->source_names_.push_back(part);
      pd->impl_->readers.push_back(DataReader(b, 0,
                                              static_cast<uint32_t>(pd->source_names_.size() - 1),
                                              pd->impl_->files.back().get()));
    }
    return pd;
  }

  auto f = MappedFile::open(path);
  if (!f) return with_path(f.error());
  Bytes bytes = (*f)->bytes();
  MappedFile* file = f->get();
  pd->impl_->files.push_back(std::move(*f));
  return open_image(std::move(pd), bytes, file);
}

Result<std::unique_ptr<PerfData>> PerfData::open_bytes(std::vector<std::byte> bytes,
                                                       const std::string& name) {
  std::unique_ptr<PerfData> pd(new PerfData());
  pd->impl_ = std::make_unique<Impl>();
  pd->path_ = name;
  // Moving a vector keeps its buffer, so `view` stays valid in impl_->owned.
  Bytes view(bytes.data(), bytes.size());
  pd->impl_->owned = std::move(bytes);
  return open_image(std::move(pd), view, nullptr);
}

Result<std::unique_ptr<PerfData>> PerfData::open_stream(int fd, const std::string& name) {
  std::unique_ptr<PerfData> pd(new PerfData());
  pd->impl_ = std::make_unique<Impl>();
  pd->path_ = name;
  return open_stream_input(std::move(pd), std::make_unique<StreamInput>(fd, "pipe", true));
}

// A stream: the 16-byte pipe header, then records read in order by process().
Result<std::unique_ptr<PerfData>> PerfData::open_stream_input(std::unique_ptr<PerfData> pd,
                                                              std::unique_ptr<StreamInput> s) {
  const std::string path = pd->path_;
  auto with_path = [&](const Error& e) { return tl::unexpected(e.in_file(path)); };
  std::byte buf[kPipeHeaderSize];
  auto got = s->read_exact(buf, sizeof buf);
  if (!got) return with_path(got.error());
  // A file header is longer than these 16 bytes: parse them zero-padded, so that a file
  // recording sent down a pipe is refused as such, not as a truncated header.
  std::byte padded[kFileHeaderSize] = {};
  std::memcpy(padded, buf, *got);
  auto h = parse_file_header(Bytes(padded, *got < kPipeHeaderSize ? *got : kFileHeaderSize));
  if (!h) return with_path(h.error());
  if (!h->is_pipe) {
    return with_path(Error("a stream must hold a pipe-mode recording (perf record -o -)", 8));
  }
  pd->header_ = *h;
  pd->kind_ = ContainerKind::kPipe;
  pd->impl_->stream = std::move(s);
  pd->source_names_.push_back("pipe");
  return pd;
}

// A whole recording in memory (mapped or owned): a file, or a pipe-mode stream saved to one.
Result<std::unique_ptr<PerfData>> PerfData::open_image(std::unique_ptr<PerfData> pd, Bytes bytes,
                                                       MappedFile* file) {
  const std::string path = pd->path_;
  auto with_path = [&](const Error& e) { return tl::unexpected(e.in_file(path)); };
  auto h = parse_file_header(bytes);
  if (!h) return with_path(h.error());
  if (h->is_pipe) {
    pd->header_ = *h;
    pd->kind_ = ContainerKind::kPipe;
    pd->impl_->pipe_bytes = bytes.subspan(kPipeHeaderSize);
    pd->source_names_.push_back("pipe");
    return pd;
  }
  if (Status s = pd->open_file(path, bytes); !s) return with_path(s.error());
  // The feature sections after the data were read whole; give their pages back.
  if (file) file->release_range(pd->header_.feature_table_offset(), bytes.size());
  pd->source_names_.push_back(path);
  pd->impl_->readers.push_back(
      DataReader(bytes.subspan(pd->header_.data.offset, pd->header_.data.size),
                 pd->header_.data.offset, 0, file));
  return pd;
}

Status PerfData::open_file(const std::string& /*path*/, Bytes bytes) {
  ASSIGN_OR_RETURN(header_, parse_file_header(bytes));
  if (header_.is_pipe) return make_error("pipe-mode header where a file header was expected", 8);
  if (header_.data.offset > bytes.size()) {
    return make_error(fmt::format("data section at {:#x} starts past the end of the file "
                                  "({:#x} bytes)",
                                  header_.data.offset, bytes.size()),
                      40);
  }
  if (header_.data.size == 0 && header_.data.offset < bytes.size()) {
    // perf record writes the data size when it exits (header.c perf_session__read_header():
    // "The %s file's data size field is 0 which is unexpected. Was the 'perf record' command
    // properly terminated?"). perf then looks for the feature table where the records are and
    // fails; the records up to the end of the file are what there is, and no features.
    warnings_.push_back(
        Error(fmt::format("warning: data size is 0: perf record did not finish; reading "
                          "the records up to the end of the file, without "
                          "header features"),
              48));
    header_.data.size = bytes.size() - header_.data.offset;
    header_.features = {};
  } else if (!fits(header_.data.offset, header_.data.size, bytes.size())) {
    // A recording cut short: read the records that are there (perf refuses such files).
    warnings_.push_back(
        Error(fmt::format("warning: data section [{:#x}, +{:#x}) runs past the end of the "
                          "file ({:#x} bytes): reading the records that are there",
                          header_.data.offset, header_.data.size, bytes.size()),
              48));
    header_.data.size = bytes.size() - header_.data.offset;
  }
  RETURN_IF_ERROR(read_attrs(bytes));
  RETURN_IF_ERROR(read_feature_sections(bytes));
  return {};
}

Status PerfData::read_attrs(Bytes file) {
  const FileSection& s = header_.attrs;
  if (header_.attr_size == 0) {
    if (s.size != 0) return make_error("attr_size is 0 but the attrs section is not empty", 16);
    return {};
  }
  if (!fits(s.offset, s.size, file.size())) {
    return make_error(fmt::format("attrs section [{:#x}, +{:#x}) runs past the end of the file",
                                  s.offset, s.size),
                      24);
  }
  uint64_t n = s.size / header_.attr_size;
  for (uint64_t i = 0; i < n; ++i) {
    uint64_t at = s.offset + i * header_.attr_size;
    ByteCursor c(file.subspan(at, header_.attr_size), order(), at);
    // header.c read_attr(): the attr's own size (0 means the first version), then the ids
    // section right after it.
    ByteCursor peek = c;
    peek.u32();
    uint32_t attr_bytes = peek.u32();
    if (attr_bytes == 0) attr_bytes = kAttrSizeVer0;
    if (attr_bytes + 16 > header_.attr_size) {
      return make_error(fmt::format("attr {} declares {} bytes, more than the {}-byte entry", i,
                                    attr_bytes, header_.attr_size),
                        at + 4);
    }
    ASSIGN_OR_RETURN(EventAttr attr, parse_event_attr(c, attr_bytes));
    FileSection ids{c.u64(), c.u64()};
    if (!c.ok()) return tl::unexpected(c.error("attr ids section"));
    if (!fits(ids.offset, ids.size, file.size())) {
      return make_error(fmt::format("ids of attr {} at [{:#x}, +{:#x}) run past the end of the "
                                    "file",
                                    i, ids.offset, ids.size),
                        at + attr_bytes);
    }
    std::vector<uint64_t> id_list;
    ByteCursor ic(file.subspan(ids.offset, ids.size), order(), ids.offset);
    for (uint64_t k = 0; k < ids.size / 8; ++k) id_list.push_back(ic.u64());
    events_.add(attr, std::move(id_list));
  }
  return {};
}

Status PerfData::read_feature_sections(Bytes file) {
  // header.c perf_header__process_sections(): the table holds one section per feature bit and
  // is read whole or not at all; features are then processed in order, and perf processes
  // none after the first that fails (Features::stopped_at). Sections past the end of the file
  // are read as far as they go.
  uint64_t at = header_.feature_table_offset();
  uint64_t nr = header_.features.count();
  if (nr == 0 || !fits(at, nr * 16, file.size())) return {};
  FeatureContext ctx{.swapped = order() == ByteOrder::kSwapped,
                     .is_directory = kind_ == ContainerKind::kDirectory,
                     .nr_events = events_.size()};
  ByteCursor table(file.subspan(at, nr * 16), order(), at);
  for (uint32_t feat = 0; feat < header_.features.size(); ++feat) {
    if (!header_.features[feat]) continue;
    FileSection s{table.u64(), table.u64()};
    feature_sections_.emplace_back(feat, s);
    uint64_t off = std::min<uint64_t>(s.offset, file.size());
    Bytes bytes = file.subspan(off, std::min<uint64_t>(s.size, file.size() - off));
    if (features_.stopped_at) {
      features_.raw[feat].assign(bytes.begin(), bytes.end());
      continue;
    }
    Status st = parse_feature(feat, ByteCursor(bytes, order(), off), ctx, features_);
    if (!st && perf_stops_on_error(feat)) features_.stopped_at.emplace(feat, st.error());
  }
  apply_event_desc_names(features_, events_);
  if (auto td = features_.raw.find(kFeatTracingData); td != features_.raw.end()) {
    set_tracing_data(td->second);
  }
  return {};
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
