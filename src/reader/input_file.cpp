#include "readperf/reader/input_file.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include <fmt/format.h>

namespace readperf {

Result<std::unique_ptr<MappedFile>> MappedFile::open(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return make_error(fmt::format("cannot open: {}", std::strerror(errno)));
  struct stat st;
  if (fstat(fd, &st) != 0) {
    int e = errno;
    ::close(fd);
    return make_error(fmt::format("cannot stat: {}", std::strerror(e)));
  }
  std::unique_ptr<MappedFile> f(new MappedFile());
  f->path_ = path;
  f->size_ = static_cast<size_t>(st.st_size);
  if (f->size_ > 0) {
    void* p = mmap(nullptr, f->size_, PROT_READ, MAP_PRIVATE, fd, 0);
    if (p == MAP_FAILED) {
      int e = errno;
      ::close(fd);
      return make_error(fmt::format("cannot mmap: {}", std::strerror(e)));
    }
    madvise(p, f->size_, MADV_SEQUENTIAL);
    f->data_ = p;
  }
  f->fd_ = fd;  // kept for read_at()
  return f;
}

MappedFile::~MappedFile() {
  if (data_) munmap(data_, size_);
  if (fd_ >= 0) ::close(fd_);
}

size_t MappedFile::read_at(uint64_t offset, std::byte* out, size_t n) const {
  size_t got = 0;
  while (got < n && offset + got < size_) {
    ssize_t r = ::pread(fd_, out + got, std::min<uint64_t>(n - got, size_ - offset - got),
                        static_cast<off_t>(offset + got));
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) break;
    got += static_cast<size_t>(r);
  }
  return got;
}

void MappedFile::release_before(uint64_t offset) {
  if (!data_) return;
  uint64_t page = static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
  uint64_t end = std::min<uint64_t>(offset, size_) / page * page;
  if (end <= released_) return;
  madvise(static_cast<char*>(data_) + released_, end - released_, MADV_DONTNEED);
  released_ = end;
}

void MappedFile::release_range(uint64_t offset, uint64_t size) {
  if (!data_ || offset >= size_) return;
  uint64_t page = static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
  uint64_t begin = (offset + page - 1) / page * page;  // whole pages only
  uint64_t end = std::min<uint64_t>(size_, offset + std::min<uint64_t>(size, size_ - offset));
  end = end / page * page;
  if (end > begin) madvise(static_cast<char*>(data_) + begin, end - begin, MADV_DONTNEED);
}

Result<std::unique_ptr<StreamInput>> StreamInput::open(const std::string& path) {
  if (path == "-") return std::make_unique<StreamInput>(0, "pipe");
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return make_error(fmt::format("cannot open: {}", std::strerror(errno)));
  return std::make_unique<StreamInput>(fd, "pipe", /*owned=*/true);
}

StreamInput::~StreamInput() {
  if (owned_) ::close(fd_);
}

Result<size_t> StreamInput::read_exact(std::byte* out, size_t n) {
  size_t got = 0;
  while (got < n) {
    if (buf_pos_ == buf_len_) {
      if (buf_.empty()) buf_.resize(1 << 20);
      ssize_t r = ::read(fd_, buf_.data(), buf_.size());
      if (r < 0) {
        if (errno == EINTR) continue;
        return make_error(fmt::format("read error: {}", std::strerror(errno)));
      }
      if (r == 0) break;
      buf_pos_ = 0;
      buf_len_ = static_cast<size_t>(r);
    }
    size_t take = std::min(n - got, buf_len_ - buf_pos_);
    std::memcpy(out + got, buf_.data() + buf_pos_, take);
    buf_pos_ += take;
    got += take;
  }
  return got;
}

}  // namespace readperf
