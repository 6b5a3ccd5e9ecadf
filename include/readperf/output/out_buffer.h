// Buffered output for printers: text is formatted into one large buffer with fmt and written
// with few system calls.
//
//   OutBuffer out(stdout);
//   out.print("{:>16} events: {:>10}\n", name, n);
#pragma once

#include <fmt/format.h>

#include <cstdint>
#include <cstdio>
#include <string_view>
#include <type_traits>

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
  void put(char c) { buf_.push_back(c); }

  // Integer writers for the lines printed once per record or call-chain entry (dump,
  // script): fmt's runtime format strings parse the format on every call, which costs more
  // than the digits. Each writes what the fmt spec in its comment writes.
  // "{}", "{:N}" (width N, right-aligned) or "{:<N}" (left-aligned) for an integer.
  template <class T>
  void dec(T v, size_t width = 0, bool left = false) {
    char tmp[24];
    char* end = tmp + sizeof tmp;
    char* p = end;
    bool neg = false;
    uint64_t u;
    if constexpr (std::is_signed_v<T>) {
      neg = v < 0;
      u = neg ? 0 - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
    } else {
      u = v;
    }
    do {
      *--p = static_cast<char>('0' + u % 10);
      u /= 10;
    } while (u);
    if (neg) *--p = '-';
    size_t n = static_cast<size_t>(end - p);
    if (!left) pad(' ', n, width);
    buf_.append(p, end);
    if (left) pad(' ', n, width);
  }
  // "{:x}", "{:0Nx}" (zero-padded to N = width) or "{:Nx}" (space-padded, with fill ' ').
  void hex(uint64_t v, size_t width = 0, char fill = '0') {
    static constexpr char kDigits[] = "0123456789abcdef";
    char tmp[16];
    char* end = tmp + sizeof tmp;
    char* p = end;
    do {
      *--p = kDigits[v & 15];
      v >>= 4;
    } while (v);
    pad(fill, static_cast<size_t>(end - p), width);
    buf_.append(p, end);
  }
  void alt_hex(uint64_t v) {  // "{:#x}"
    buf_.push_back('0');
    buf_.push_back('x');
    hex(v);
  }
  // `c` repeated until `have` reaches `width`.
  void pad(char c, size_t have, size_t width) {
    for (; have < width; ++have) buf_.push_back(c);
  }
  fmt::memory_buffer& buffer() { return buf_; }
  FILE* file() const { return file_; }
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
