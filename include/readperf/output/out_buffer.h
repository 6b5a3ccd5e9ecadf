// Buffered output for printers: text is formatted into one large buffer with fmt and written
// with few system calls.
//
//   OutBuffer out(stdout);
//   out.print("{:>16} events: {:>10}\n", name, n);
#pragma once

#include <cstdio>
#include <string_view>

#include <fmt/format.h>

namespace readperf {

class OutBuffer {
 public:
  explicit OutBuffer(FILE* f) : file_(f) {}
  ~OutBuffer() { flush(); }
  OutBuffer(const OutBuffer&) = delete;
  OutBuffer& operator=(const OutBuffer&) = delete;

  template <class... Args>
  void print(fmt::format_string<Args...> format, Args&&... args) {
    // fmt::appender writes straight into the buffer; std::back_inserter would go through a
    // small intermediate buffer on every call.
    fmt::format_to(fmt::appender(buf_), format, std::forward<Args>(args)...);
    maybe_flush();
  }
  void write(std::string_view s) {
    buf_.append(s.data(), s.data() + s.size());
    maybe_flush();
  }
  void put(char c) {
    buf_.push_back(c);
  }
  fmt::memory_buffer& buffer() { return buf_; }
  void maybe_flush() {
    if (buf_.size() >= kFlushAt) flush();
  }
  void flush() {
    if (buf_.size()) std::fwrite(buf_.data(), 1, buf_.size(), file_);
    buf_.clear();
    std::fflush(file_);
  }

 private:
  static constexpr size_t kFlushAt = 1 << 20;
  FILE* file_;
  fmt::memory_buffer buf_;
};

}  // namespace readperf
