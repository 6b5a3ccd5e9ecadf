// Opening a recording (session.c perf_session__open(), header.c perf_session__read_header()):
// a file, a directory of data files, a pipe-mode stream or bytes in memory; the attrs and the
// feature sections of a file's header.
#include "readperf/reader/perf_data.h"

#include <fmt/format.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstring>
#include <filesystem>

#include "perf_data_impl.h"
#include "readperf/format/perf_abi.h"

namespace readperf {

// header.c process_event_desc() / evlist__set_event_name(): EVENT_DESC names the events by
// position, those that have no name yet.
void apply_event_desc_names(const Features& f, EventList& events) {
  if (!f.event_desc) return;
  for (size_t i = 0; i < f.event_desc->size() && i < events.size(); ++i) {
    if (events[i].name.empty()) events[i].name = (*f.event_desc)[i].name;
  }
}

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

}  // namespace readperf
