#include "readperf/writer/pipe_writer.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "readperf/format/file_header.h"
#include "readperf/reader/record.h"
#include "readperf/reader/record_swap.h"

namespace readperf {

namespace {

constexpr size_t kBufferBytes = 1 << 20;

Error io_error(const std::string& path, std::string_view what) {
  return Error(fmt::format("{}: {}", what, std::strerror(errno))).in_file(path);
}

template <class T>
void put(std::vector<std::byte>& out, ByteOrder order, T v) {
  if (order == ByteOrder::kSwapped) v = bswap(v);
  const auto* p = reinterpret_cast<const std::byte*>(&v);
  out.insert(out.end(), p, p + sizeof v);
}

}  // namespace

bool pipe_carries_feature(uint32_t feature) {
  switch (feature) {
    case kFeatReserved:
    case kFeatTracingData:
    case kFeatBuildId:
    case kFeatBranchStack:
    case kFeatAuxtrace:
    case kFeatStat:
    case kFeatCache:
    case kFeatDirFormat:
    case kFeatHybridTopology:
      return false;
    default:
      return feature < kFeatLastFeature6_1;
  }
}

Result<std::unique_ptr<PipeWriter>> PipeWriter::create(const std::string& path, ByteOrder order) {
  std::unique_ptr<PipeWriter> w(new PipeWriter());
  w->path_ = path == "-" ? "<stdout>" : path;
  w->order_ = order;
  if (path == "-") {
    w->fd_ = STDOUT_FILENO;
  } else {
    w->fd_ = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (w->fd_ < 0) return tl::unexpected(io_error(path, "cannot create the output"));
    w->owns_fd_ = true;
  }
  w->buf_.reserve(kBufferBytes);
  // struct perf_pipe_file_header: the magic and the header's own size.
  put(w->buf_, order, kMagicPerfile2);
  put(w->buf_, order, kPipeHeaderSize);
  w->written_ = kPipeHeaderSize;
  return w;
}

PipeWriter::~PipeWriter() {
  if (owns_fd_ && fd_ >= 0) ::close(fd_);
}

Status PipeWriter::write(Bytes bytes) {
  if (buf_.size() + bytes.size() > kBufferBytes) RETURN_IF_ERROR(flush());
  buf_.insert(buf_.end(), bytes.begin(), bytes.end());
  if (buf_.size() >= kBufferBytes) RETURN_IF_ERROR(flush());
  written_ += bytes.size();
  return {};
}

void PipeWriter::put_header(uint32_t type, uint16_t misc, uint16_t size) {
  put(buf_, order_, type);
  put(buf_, order_, misc);
  put(buf_, order_, size);
}

Status PipeWriter::write_attr(const WriterEvent& event) {
  size_t size = kRecordHeaderSize + kAttrBytes + event.ids.size() * 8;
  if (size > 0xffff)
    return tl::unexpected(Error("too many ids for a HEADER_ATTR record").in_file(path_));
  if (buf_.size() + size > kBufferBytes) RETURN_IF_ERROR(flush());
  EventAttr attr = event.attr;
  attr.size = kAttrBytes;
  put_header(kRecordHeaderAttr, 0, static_cast<uint16_t>(size));
  ::readperf::write_attr(attr, kAttrBytes, order_, buf_);
  for (uint64_t id : event.ids) put(buf_, order_, id);
  written_ += size;
  return {};
}

Status PipeWriter::write_feature(uint32_t feature, Bytes section) {
  // perf_event__synthesize_features() sends sections up to a page at least; the record's
  // u16 size bounds them.
  size_t size = kRecordHeaderSize + 8 + section.size();
  if (size > 0xffff) {
    return tl::unexpected(
        Error(fmt::format("feature {} too large for a pipe ({} bytes)", feature, section.size()))
            .in_file(path_));
  }
  if (buf_.size() + size > kBufferBytes) RETURN_IF_ERROR(flush());
  put_header(kRecordHeaderFeature, 0, static_cast<uint16_t>(size));
  put(buf_, ByteOrder::kNative, uint64_t{feature});
  buf_.insert(buf_.end(), section.begin(), section.end());
  written_ += size;
  return {};
}

Status PipeWriter::write_tracing_data(Bytes data) {
  uint32_t aligned = static_cast<uint32_t>((data.size() + 7) & ~size_t{7});
  std::vector<std::byte> rec;
  put(rec, order_, uint32_t{kRecordHeaderTracingData});
  put(rec, order_, uint16_t{0});
  put(rec, order_, uint16_t{16});
  put(rec, order_, aligned);
  put(rec, order_, uint32_t{0});
  RETURN_IF_ERROR(write(rec));
  RETURN_IF_ERROR(write(data));
  // The tracing data has its own byte order (its header says which): it is copied as it is.
  return write(std::vector<std::byte>(aligned - data.size()));
}

Status PipeWriter::write_build_ids(Bytes section) {
  size_t at = 0;
  while (section.size() - at >= kRecordHeaderSize) {
    uint16_t size;
    std::memcpy(&size, section.data() + at + 6, 2);
    if (order_ == ByteOrder::kSwapped) size = bswap(size);
    if (size < kRecordHeaderSize || size > section.size() - at) break;
    std::vector<std::byte> rec(section.begin() + at, section.begin() + at + size);
    uint32_t type = kRecordHeaderBuildId;
    if (order_ == ByteOrder::kSwapped) type = bswap(type);
    std::memcpy(rec.data(), &type, 4);
    RETURN_IF_ERROR(write(rec));
    at += size;
  }
  return {};
}

Status PipeWriter::write_event_name(uint64_t id, std::string_view name) {
  // struct perf_record_event_update: header, type, id, then the NUL-terminated name, the
  // whole rounded up to 8 bytes (event_update_event__new).
  size_t size = (24 + name.size() + 1 + 7) & ~size_t{7};
  if (size > 0xffff) return {};
  std::vector<std::byte> rec;
  put(rec, order_, uint32_t{kRecordEventUpdate});
  put(rec, order_, uint16_t{0});
  put(rec, order_, static_cast<uint16_t>(size));
  put(rec, order_, uint64_t{2});  // PERF_EVENT_UPDATE__NAME
  put(rec, order_, id);
  const auto* b = reinterpret_cast<const std::byte*>(name.data());
  rec.insert(rec.end(), b, b + name.size());
  rec.resize(size);
  return write(rec);
}

Status PipeWriter::flush() {
  size_t done = 0;
  while (done < buf_.size()) {
    ssize_t n = ::write(fd_, buf_.data() + done, buf_.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      return tl::unexpected(io_error(path_, "write"));
    }
    done += static_cast<size_t>(n);
  }
  buf_.clear();
  return {};
}

Status PipeWriter::finish() {
  RETURN_IF_ERROR(flush());
  if (owns_fd_) {
    int fd = fd_;
    fd_ = -1;
    if (::close(fd) != 0) return tl::unexpected(io_error(path_, "close"));
  }
  return {};
}

}  // namespace readperf
