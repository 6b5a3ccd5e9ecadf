// Buffered output for printers: text is formatted into one large buffer with fmt and written
// with few system calls.
//
//   OutBuffer out(stdout);
//   out.print("{:>16} events: {:>10}\n", name, n);
#pragma once

#include <fmt/format.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
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
  [[gnu::always_inline]] void write(std::string_view s) {
    append(s.data(), s.size());
    maybe_flush();
  }
  [[gnu::always_inline]] void put(char c) {
    size_t n = buf_.size();
    if (n < buf_.capacity()) {
      buf_.resize(n + 1);
      buf_.data()[n] = c;
    } else {
      buf_.push_back(c);
    }
  }
  // "{:>N}" (right-aligned) or "{:N}"/"{:<N}" of a string: fmt pads by display width, which
  // is the byte count for ASCII; other text goes through fmt.
  void padded(std::string_view s, size_t width, bool left = false) {
    bool ascii = true;
    for (char c : s) ascii &= static_cast<unsigned char>(c) < 0x80;
    if (!ascii) {
      if (left) {
        print("{:<{}}", s, width);
      } else {
        print("{:>{}}", s, width);
      }
      return;
    }
    if (!left) pad(' ', s.size(), width);
    append(s.data(), s.size());
    if (left) pad(' ', s.size(), width);
  }

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
    append(p, n);
    if (left) pad(' ', n, width);
  }
  // "{:0N}" for a non-negative integer: zero-padded to N digits.
  void dec0(uint64_t v, size_t width) {
    char tmp[24];
    char* end = tmp + sizeof tmp;
    char* p = end;
    do {
      *--p = static_cast<char>('0' + v % 10);
      v /= 10;
    } while (v);
    pad('0', static_cast<size_t>(end - p), width);
    append(p, static_cast<size_t>(end - p));
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
    append(p, static_cast<size_t>(end - p));
  }
  void alt_hex(uint64_t v) {  // "{:#x}"
    buf_.push_back('0');
    buf_.push_back('x');
    hex(v);
  }
  // `c` repeated until `have` reaches `width`.
  void pad(char c, size_t have, size_t width) {
    if (have >= width) return;
    size_t n = buf_.size(), k = width - have;
    buf_.resize(n + k);
    std::memset(buf_.data() + n, c, k);
  }
  fmt::memory_buffer& buffer() { return buf_; }
  FILE* file() const { return file_; }
  void maybe_flush() {
    if (buf_.size() >= kFlushAt) flush();
  }
  // Hands the buffered text to the FILE without flushing it: for code that writes to the same
  // FILE itself (a dlfilter's printf), so that the two stay in order.
  void drain() {
    if (buf_.size()) std::fwrite(buf_.data(), 1, buf_.size(), file_);
    buf_.clear();
  }
  void flush() {
    if (buf_.size()) std::fwrite(buf_.data(), 1, buf_.size(), file_);
    buf_.clear();
    std::fflush(file_);
  }

 private:
  // Bytes copied in place when they fit (fmt's append() is an out-of-line loop, costly for
  // the few bytes most calls add).
  [[gnu::always_inline]] void append(const char* p, size_t n) {
    size_t at = buf_.size();
    if (buf_.capacity() - at >= n) {
      buf_.resize(at + n);
      std::memcpy(buf_.data() + at, p, n);
    } else {
      buf_.append(p, p + n);
    }
  }

  static constexpr size_t kFlushAt = 1 << 20;
  FILE* file_;
  fmt::memory_buffer buf_;
};

}  // namespace readperf
