#include "readperf/writer/perf_data_writer.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "readperf/format/file_header.h"
#include "readperf/reader/record_swap.h"

namespace readperf {

namespace {

constexpr size_t kBufferBytes = 1 << 20;

// Appends integers in a chosen byte order.
struct Put {
  std::vector<std::byte>& out;
  ByteOrder order;
  template <class T>
  void operator()(T v) {
    if (order == ByteOrder::kSwapped) v = bswap(v);
    const auto* b = reinterpret_cast<const std::byte*>(&v);
    out.insert(out.end(), b, b + sizeof v);
  }
};

Error io_error(const std::string& path, std::string_view what) {
  return Error(fmt::format("{}: {}", what, std::strerror(errno))).in_file(path);
}

}  // namespace

Result<std::unique_ptr<PerfDataWriter>> PerfDataWriter::create(const std::string& path,
                                                               const WriterOptions& options) {
  std::unique_ptr<PerfDataWriter> w(new PerfDataWriter());
  w->path_ = path;
  w->options_ = options;
  w->fd_ = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (w->fd_ < 0) return tl::unexpected(io_error(path, "cannot create the output"));
  w->buf_.reserve(kBufferBytes);
  return w;
}

PerfDataWriter::~PerfDataWriter() {
  if (fd_ >= 0) ::close(fd_);
}

std::vector<std::byte> PerfDataWriter::attrs_block(const std::vector<WriterEvent>& events,
                                                   uint64_t at, uint64_t* attrs_offset) const {
  // perf_session__do_write_header(): every event's ids, then the perf_file_attr array.
  std::vector<std::byte> out;
  Put put{out, options_.order};
  std::vector<FileSection> ids;
  for (const WriterEvent& e : events) {
    ids.push_back({at + out.size(), e.ids.size() * 8});
    for (uint64_t id : e.ids) put(id);
  }
  *attrs_offset = at + out.size();
  for (size_t i = 0; i < events.size(); ++i) {
    write_attr(events[i].attr, options_.attr_bytes, options_.order, out);
    put(ids[i].offset);
    put(ids[i].size);
  }
  return out;
}

Status PerfDataWriter::begin(const std::vector<WriterEvent>& events) {
  data_offset_ = kFileHeaderSize;
  if (!events.empty()) {
    std::vector<std::byte> block = attrs_block(events, kFileHeaderSize, &attrs_offset_);
    RETURN_IF_ERROR(write_at(kFileHeaderSize, block));
    data_offset_ = kFileHeaderSize + block.size();
    if (options_.min_data_offset > data_offset_) {
      RETURN_IF_ERROR(
          write_at(data_offset_, std::vector<std::byte>(options_.min_data_offset - data_offset_)));
      data_offset_ = options_.min_data_offset;
    }
    nr_events_ = events.size();
    events_written_ = true;
  }
  if (::lseek(fd_, static_cast<off_t>(data_offset_), SEEK_SET) < 0) {
    return tl::unexpected(io_error(path_, "seek"));
  }
  return {};
}

Status PerfDataWriter::write(Bytes bytes) {
  if (buf_.size() + bytes.size() > kBufferBytes) RETURN_IF_ERROR(flush());
  if (bytes.size() >= kBufferBytes) {
    buf_.insert(buf_.end(), bytes.begin(), bytes.end());
    RETURN_IF_ERROR(flush());
  } else {
    buf_.insert(buf_.end(), bytes.begin(), bytes.end());
  }
  data_size_ += bytes.size();
  return {};
}

Status PerfDataWriter::flush() {
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

Status PerfDataWriter::write_at(uint64_t offset, const std::vector<std::byte>& bytes) {
  size_t done = 0;
  while (done < bytes.size()) {
    ssize_t n =
        ::pwrite(fd_, bytes.data() + done, bytes.size() - done, static_cast<off_t>(offset + done));
    if (n < 0) {
      if (errno == EINTR) continue;
      return tl::unexpected(io_error(path_, "write"));
    }
    done += static_cast<size_t>(n);
  }
  return {};
}

Status PerfDataWriter::finish(const std::vector<WriterEvent>& events,
                              const std::map<uint32_t, std::vector<std::byte>>& features) {
  RETURN_IF_ERROR(flush());
  // header.c perf_header__adds_write(): the table of sections right after the data, then
  // the sections in feature order.
  uint64_t table_at = data_offset_ + data_size_;
  uint64_t at = table_at + features.size() * 16;
  std::vector<std::byte> table, sections;
  Put put{table, options_.order};
  std::bitset<256> bits;
  for (const auto& [feat, bytes] : features) {
    bits[feat] = true;
    put(at + sections.size());
    put(static_cast<uint64_t>(bytes.size()));
    sections.insert(sections.end(), bytes.begin(), bytes.end());
  }
  table.insert(table.end(), sections.begin(), sections.end());
  RETURN_IF_ERROR(write_at(table_at, table));
  uint64_t end = table_at + table.size();
  if (!events_written_) {
    std::vector<std::byte> block = attrs_block(events, end, &attrs_offset_);
    RETURN_IF_ERROR(write_at(end, block));
    nr_events_ = events.size();
  }

  std::vector<std::byte> header;
  Put h{header, options_.order};
  h(kMagicPerfile2);
  h(kFileHeaderSize);
  uint64_t attr_entry = options_.attr_bytes + 16;
  h(attr_entry);
  h(attrs_offset_);
  h(nr_events_ * attr_entry);
  h(data_offset_);
  h(data_size_);
  h(uint64_t{0});  // event_types, unused since 2011
  h(uint64_t{0});
  for (int w = 0; w < 4; ++w) {
    uint64_t word = 0;
    for (int b = 0; b < 64; ++b) {
      if (bits[w * 64 + b]) word |= 1ull << b;
    }
    h(word);
  }
  RETURN_IF_ERROR(write_at(0, header));
  if (::close(fd_) != 0) {
    fd_ = -1;
    return tl::unexpected(io_error(path_, "close"));
  }
  fd_ = -1;
  return {};
}

}  // namespace readperf
