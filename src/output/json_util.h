// JSON string escaping for the exporters that write JSON (RFC 8259 section 7): quotes,
// backslashes and control characters escaped, other bytes as they are (symbol names are
// UTF-8 or plain bytes; a stray byte >= 0x80 is passed through, which JSON.parse accepts as
// long as the file is valid UTF-8 — invalid sequences become U+FFFD, see json_string()).
#pragma once

#include <fmt/format.h>

#include <string_view>

namespace readperf {

// Appends `s` as a quoted JSON string. Bytes that do not form valid UTF-8 are replaced with
// U+FFFD so that strict parsers accept the file.
template <class Buffer>
void json_string(Buffer& out, std::string_view s) {
  out.push_back('"');
  for (size_t i = 0; i < s.size(); ++i) {
    auto c = static_cast<unsigned char>(s[i]);
    if (c == '"' || c == '\\') {
      out.push_back('\\');
      out.push_back(static_cast<char>(c));
    } else if (c < 0x20) {
      fmt::format_to(fmt::appender(out), "\\u{:04x}", c);
    } else if (c < 0x80) {
      out.push_back(static_cast<char>(c));
    } else {
      size_t n = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 0;
      bool ok = n && c < 0xf5 && i + n <= s.size();
      for (size_t k = 1; ok && k < n; ++k)
        ok = (static_cast<unsigned char>(s[i + k]) & 0xc0) == 0x80;
      if (ok) {
        out.append(s.data() + i, s.data() + i + n);
        i += n - 1;
      } else {
        static constexpr char kReplacement[] = "\xef\xbf\xbd";
        out.append(kReplacement, kReplacement + 3);
      }
    }
  }
  out.push_back('"');
}

}  // namespace readperf
