#include "tar_format.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

namespace readperf {

namespace {

// ustar header fields (POSIX.1-1988, pax's ustar interchange format): offset, length.
struct Field {
  size_t offset, length;
};
constexpr Field kName{0, 100}, kMode{100, 8}, kUid{108, 8}, kGid{116, 8}, kSize{124, 12},
    kMtime{136, 12}, kChecksum{148, 8}, kTypeflag{156, 1}, kLinkname{157, 100}, kMagic{257, 6},
    kVersion{263, 2}, kUname{265, 32}, kGname{297, 32}, kPrefix{345, 155};

std::string_view text_field(std::span<const uint8_t, kTarBlock> b, Field f) {
  const char* p = reinterpret_cast<const char*>(b.data() + f.offset);
  return std::string_view(p, strnlen(p, f.length));
}

// An octal number, space- or NUL-terminated, with leading spaces; or GNU's base-256 form
// (first byte 0x80, then the value big-endian).
Result<uint64_t> number_field(std::span<const uint8_t, kTarBlock> b, Field f) {
  const uint8_t* p = b.data() + f.offset;
  if (p[0] & 0x80) {
    if (p[0] != 0x80) return make_error("a negative or too large base-256 number");
    uint64_t v = 0;
    for (size_t i = 1; i < f.length; ++i) {
      if (v >> 56) return make_error("a base-256 number too large");
      v = v << 8 | p[i];
    }
    return v;
  }
  size_t i = 0;
  while (i < f.length && p[i] == ' ') ++i;
  uint64_t v = 0;
  bool digits = false;
  for (; i < f.length && p[i] >= '0' && p[i] <= '7'; ++i) {
    if (v >> 61) return make_error("an octal number too large");
    v = v << 3 | static_cast<uint64_t>(p[i] - '0');
    digits = true;
  }
  if (i < f.length && p[i] != ' ' && p[i] != '\0') {
    return make_error(fmt::format("a bad octal digit {:#x}", p[i]));
  }
  if (!digits) return uint64_t{0};
  return v;
}

TarType type_of(uint8_t flag) {
  switch (flag) {
    case '\0':
    case '0':
    case '7':  // contiguous file: a file
      return TarType::kFile;
    case '1':
      return TarType::kHardLink;
    case '2':
      return TarType::kSymlink;
    case '5':
      return TarType::kDirectory;
    case 'x':
      return TarType::kPaxHeader;
    case 'g':
      return TarType::kPaxGlobal;
    case 'L':
      return TarType::kGnuLongName;
    case 'K':
      return TarType::kGnuLongLink;
    default:
      return TarType::kOther;
  }
}

void put_text(std::string& block, Field f, std::string_view s) {
  // An empty view may have a null data(), which memcpy must not be given even for 0 bytes.
  if (s.empty()) return;
  std::memcpy(block.data() + f.offset, s.data(), std::min(s.size(), f.length));
}

void put_octal(std::string& block, Field f, uint64_t v) {
  // length - 1 digits and a NUL; larger values go in GNU's base-256 form.
  if (f.length - 1 < 22 && v >> (3 * (f.length - 1))) {
    block[f.offset] = static_cast<char>(0x80);
    for (size_t i = f.length - 1; i > 0; --i, v >>= 8) {
      block[f.offset + i] = static_cast<char>(v & 0xff);
    }
    return;
  }
  std::string digits = fmt::format("{:0{}o}", v, f.length - 1);
  put_text(block, f, digits);
}

std::string ustar_block(std::string_view name, TarType type, uint64_t size,
                        std::string_view linkname) {
  std::string b(kTarBlock, '\0');
  put_text(b, kName, name);
  put_octal(b, kMode, type == TarType::kDirectory ? 0755 : 0644);
  put_octal(b, kUid, 0);
  put_octal(b, kGid, 0);
  put_octal(b, kSize, size);
  put_octal(b, kMtime, 0);
  b[kTypeflag.offset] = static_cast<char>(type);
  put_text(b, kLinkname, linkname);
  put_text(b, kMagic, std::string_view("ustar\0", 6));
  put_text(b, kVersion, "00");
  put_text(b, kUname, "root");
  put_text(b, kGname, "root");
  // The checksum is computed with its own field as spaces, then written as six octal
  // digits, a NUL and a space.
  std::memset(b.data() + kChecksum.offset, ' ', kChecksum.length);
  unsigned sum = 0;
  for (char c : b) sum += static_cast<unsigned char>(c);
  std::string cs = fmt::format("{:06o}", sum);
  std::memcpy(b.data() + kChecksum.offset, cs.data(), 6);
  b[kChecksum.offset + 6] = '\0';
  return b;
}

// One "LENGTH key=value\n" record; LENGTH counts the whole record, its own digits included.
std::string pax_record(std::string_view key, std::string_view value) {
  size_t body = 1 + key.size() + 1 + value.size() + 1;  // " key=value\n"
  size_t len = body + 1;
  while (std::to_string(len).size() + body != len) len = std::to_string(len).size() + body;
  return fmt::format("{} {}={}\n", len, key, value);
}

}  // namespace

Result<std::optional<TarHeader>> parse_tar_header(std::span<const uint8_t, kTarBlock> block) {
  if (std::all_of(block.begin(), block.end(), [](uint8_t b) { return b == 0; })) {
    return std::optional<TarHeader>();
  }
  ASSIGN_OR_RETURN(uint64_t stored, number_field(block, kChecksum));
  // Unsigned bytes as POSIX says, or signed as some old tars summed them.
  uint64_t sum = 0;
  int64_t signed_sum = 0;
  for (size_t i = 0; i < kTarBlock; ++i) {
    bool in_field = i >= kChecksum.offset && i < kChecksum.offset + kChecksum.length;
    uint8_t c = in_field ? ' ' : block[i];
    sum += c;
    signed_sum += static_cast<int8_t>(c);
  }
  if (stored != sum && static_cast<int64_t>(stored) != signed_sum) {
    return make_error(fmt::format("tar header checksum {:o}, the block sums to {:o}", stored, sum));
  }
  TarHeader h;
  h.type = type_of(block[kTypeflag.offset]);
  ASSIGN_OR_RETURN(h.size, number_field(block, kSize));
  h.name = std::string(text_field(block, kName));
  h.linkname = std::string(text_field(block, kLinkname));
  // The prefix field is POSIX ustar's ("ustar\0" "00"); old GNU headers ("ustar  \0") keep
  // other things there.
  if (std::memcmp(block.data() + kMagic.offset, "ustar\0", 6) == 0) {
    std::string_view prefix = text_field(block, kPrefix);
    if (!prefix.empty()) h.name = std::string(prefix) + "/" + h.name;
  }
  // Hard links, symbolic links and directories have no data, whatever the size field says
  // (pax: "the size field shall be ignored" for links).
  if (h.type == TarType::kSymlink || h.type == TarType::kHardLink) h.size = 0;
  return std::optional<TarHeader>(std::move(h));
}

Status apply_pax_records(std::string_view records, TarHeader& h) {
  size_t pos = 0;
  while (pos < records.size()) {
    // Trailing NULs pad some writers' pax data.
    if (records[pos] == '\0') break;
    size_t space = records.find(' ', pos);
    if (space == std::string_view::npos || space == pos || space - pos > 20) {
      return make_error("a pax record without its length");
    }
    uint64_t len = 0;
    for (size_t i = pos; i < space; ++i) {
      if (records[i] < '0' || records[i] > '9')
        return make_error("a pax record's length is not a number");
      len = len * 10 + static_cast<uint64_t>(records[i] - '0');
    }
    if (len < space - pos + 3 || len > records.size() - pos) {
      return make_error(fmt::format("a pax record of length {} past its header's end", len));
    }
    std::string_view rec = records.substr(space + 1, pos + len - space - 1);
    if (rec.empty() || rec.back() != '\n')
      return make_error("a pax record not ending in a newline");
    rec.remove_suffix(1);
    size_t eq = rec.find('=');
    if (eq == std::string_view::npos) return make_error("a pax record without '='");
    std::string_view key = rec.substr(0, eq), value = rec.substr(eq + 1);
    if (key == "path") {
      h.name = std::string(value);
    } else if (key == "linkpath") {
      h.linkname = std::string(value);
    } else if (key == "size") {
      uint64_t v = 0;
      if (value.empty() || value.size() > 19) return make_error("a bad pax size");
      for (char c : value) {
        if (c < '0' || c > '9') return make_error("a bad pax size");
        v = v * 10 + static_cast<uint64_t>(c - '0');
      }
      h.size = v;
    }
    pos += len;
  }
  return {};
}

std::string tar_header_blocks(std::string_view name, TarType type, uint64_t size,
                              std::string_view linkname) {
  std::string out;
  std::string records;
  if (name.size() > kName.length) records += pax_record("path", name);
  if (linkname.size() > kLinkname.length) records += pax_record("linkpath", linkname);
  if (size >> 33) records += pax_record("size", std::to_string(size));
  if (!records.empty()) {
    out += ustar_block("PaxHeader", TarType::kPaxHeader, records.size(), {});
    out += records;
    out.append(tar_padding(records.size()), '\0');
  }
  out +=
      ustar_block(name.substr(0, kName.length), type, size, linkname.substr(0, kLinkname.length));
  return out;
}

}  // namespace readperf
