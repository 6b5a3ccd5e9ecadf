#include "fuzz_util.h"

#include <sys/mman.h>
#include <unistd.h>

namespace readperf::fuzz {

FILE* null_file() {
  static FILE* f = std::fopen("/dev/null", "w");
  return f;
}

int memory_fd(const uint8_t* data, size_t size) {
  int fd = memfd_create("readperf-fuzz", MFD_CLOEXEC);
  if (fd < 0) return -1;
  size_t done = 0;
  while (done < size) {
    ssize_t n = ::write(fd, data + done, size - done);
    if (n <= 0) {
      ::close(fd);
      return -1;
    }
    done += static_cast<size_t>(n);
  }
  if (::lseek(fd, 0, SEEK_SET) != 0) {
    ::close(fd);
    return -1;
  }
  return fd;
}

}  // namespace readperf::fuzz
