// debug.c trace_event() through print_binary.c binary__fprintf(): 16 bytes a line, each line
// ".  <offset>: " then the bytes in hex, then as characters ('.' for what isprint rejects).
// This runs for every record, so lines are built by hand rather than through fmt.
#include <array>

#include "dump_internal.h"

namespace readperf {

namespace {
constexpr char kHex[] = "0123456789abcdef";

// isprint() in the C locale perf runs in, as a table: this runs for every byte of every record.
constexpr auto kPrintable = [] {
  std::array<char, 256> t{};
  for (int c = 0; c < 256; ++c) t[c] = (c >= 0x20 && c < 0x7f) ? static_cast<char>(c) : '.';
  return t;
}();
}  // namespace

void print_raw_event(OutBuffer& out, Bytes record) {
  fmt::memory_buffer& buf = out.buffer();
  fmt::format_to(fmt::appender(buf), ".\n. ... raw event: size {} bytes\n", record.size());
  const auto* p = reinterpret_cast<const unsigned char*>(record.data());
  size_t n = record.size();
  char line[8 + 4 + 2 + 16 * 3 + 2 + 16 + 1 + 8];
  for (size_t at = 0; at < n; at += 16) {
    size_t len = std::min<size_t>(16, n - at);
    char* w = line;
    *w++ = '.';
    *w++ = ' ';
    *w++ = ' ';
    // "%04x" (records are at most 64 KiB, so four digits always do).
    *w++ = kHex[(at >> 12) & 15];
    *w++ = kHex[(at >> 8) & 15];
    *w++ = kHex[(at >> 4) & 15];
    *w++ = kHex[at & 15];
    *w++ = ':';
    *w++ = ' ';
    for (size_t i = 0; i < len; ++i) {
      *w++ = ' ';
      *w++ = kHex[p[at + i] >> 4];
      *w++ = kHex[p[at + i] & 15];
    }
    for (size_t i = len; i < 16; ++i) {
      *w++ = ' ';
      *w++ = ' ';
      *w++ = ' ';
    }
    *w++ = ' ';
    *w++ = ' ';
    for (size_t i = 0; i < len; ++i) {
      *w++ = kPrintable[p[at + i]];
    }
    for (size_t i = len; i < 16; ++i) *w++ = ' ';
    *w++ = '\n';
    buf.append(line, w);
  }
  buf.push_back('\n');
}

}  // namespace readperf
