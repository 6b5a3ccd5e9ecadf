#include "readperf/symbols/compressed_file.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <lzma.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <climits>
#include <cstring>

#include "readperf/symbols/symbol_files.h"

namespace readperf {

namespace {

constexpr std::array<char, 2> kGzipMagic = {'\x1f', '\x8b'};
constexpr std::array<char, 6> kXzMagic = {'\xfd', '7', 'z', 'X', 'Z', '\0'};

// Runs `step` (one decoder call writing into `out`'s free tail, telling how much it wrote and
// whether the stream ended) until the stream ends, doubling `out` up to `max_size`.
template <class Step>
Result<std::vector<char>> decode_growing(size_t input_size, size_t max_size, Step step) {
  std::vector<char> out(std::min(max_size, std::max<size_t>(4 * input_size, 65536)));
  size_t produced = 0;
  while (true) {
    if (produced == out.size()) {
      if (out.size() >= max_size) {
        return make_error(fmt::format("decompresses to more than {} bytes", max_size));
      }
      out.resize(std::min(max_size, out.size() * 2));
    }
    size_t written = 0;
    Result<bool> ended =
        step(reinterpret_cast<uint8_t*>(out.data() + produced), out.size() - produced, written);
    produced += written;
    if (!ended) return tl::unexpected(ended.error());
    if (*ended) break;
  }
  out.resize(produced);
  return out;
}

// lzma.c lzma_strerror(): perf's words for liblzma's errors.
const char* lzma_error_text(lzma_ret ret) {
  switch (ret) {
    case LZMA_MEM_ERROR:
      return "Memory allocation failed";
    case LZMA_OPTIONS_ERROR:
      return "Unsupported decompressor flags";
    case LZMA_FORMAT_ERROR:
      return "The input is not in the .xz format";
    case LZMA_DATA_ERROR:
      return "Compressed file is corrupt";
    case LZMA_BUF_ERROR:
      return "Compressed file is truncated or otherwise corrupt";
    default:
      return "Unknown error, possibly a bug";
  }
}

}  // namespace

FileCompression kmod_compression(std::string_view path) {
  // __kmod_path__parse(): the name after the last '/'; "[name]" is never a file; the last '.'
  // names the compression, and the 3 characters before it must then be ".ko" (after at least
  // one character of name: "ext > name").
  size_t slash = path.rfind('/');
  std::string_view name = slash == std::string_view::npos ? path : path.substr(slash + 1);
  if (name.empty() || name[0] == '[') return FileCompression::kNone;
  size_t dot = name.rfind('.');
  if (dot == std::string_view::npos || dot < 4) return FileCompression::kNone;
  std::string_view ext = name.substr(dot + 1);
  FileCompression c = ext == "gz"   ? FileCompression::kGzip
                      : ext == "xz" ? FileCompression::kXz
                                    : FileCompression::kNone;
  if (c == FileCompression::kNone || name.substr(dot - 3, 3) != ".ko")
    return FileCompression::kNone;
  return c;
}

bool has_compression_magic(FileCompression c, std::span<const char> head) {
  auto starts = [&](std::span<const char> magic) {
    return head.size() >= magic.size() && std::equal(magic.begin(), magic.end(), head.begin());
  };
  switch (c) {
    case FileCompression::kGzip:
      return starts(kGzipMagic);
    case FileCompression::kXz:
      return starts(kXzMagic);
    case FileCompression::kNone:
      break;
  }
  return false;
}

Result<std::vector<char>> decompress_xz(std::span<const char> data, size_t max_size,
                                        bool concatenated) {
  lzma_stream strm = LZMA_STREAM_INIT;
  // The decoder's memory bounded (perf: UINT64_MAX) against a header asking for a huge
  // dictionary; xz -9's takes 65 MiB, the kernel's modules_install 1 MiB.
  constexpr uint64_t kMemLimit = uint64_t{1} << 30;
  if (lzma_ret r = lzma_stream_decoder(&strm, kMemLimit, concatenated ? LZMA_CONCATENATED : 0);
      r != LZMA_OK) {
    return make_error(fmt::format("xz: {}", lzma_error_text(r)));
  }
  strm.next_in = reinterpret_cast<const uint8_t*>(data.data());
  strm.avail_in = data.size();
  Result<std::vector<char>> out = decode_growing(
      data.size(), max_size, [&](uint8_t* next, size_t avail, size_t& written) -> Result<bool> {
        strm.next_out = next;
        strm.avail_out = avail;
        lzma_ret ret = lzma_code(&strm, LZMA_FINISH);
        written = avail - strm.avail_out;
        if (ret == LZMA_STREAM_END) return true;
        if (ret == LZMA_OK) return false;
        return make_error(fmt::format("xz: {}", lzma_error_text(ret)));
      });
  lzma_end(&strm);
  return out;
}

Result<std::vector<char>> decompress_gzip(std::span<const char> data, size_t max_size) {
  z_stream zs{};
  if (inflateInit2(&zs, 16 + MAX_WBITS) != Z_OK) return make_error("gzip: cannot start inflate");
  size_t fed = 0;
  Result<std::vector<char>> out = decode_growing(
      data.size(), max_size, [&](uint8_t* next, size_t avail, size_t& written) -> Result<bool> {
        // zlib counts in uInt: the input goes in by pieces of at most UINT_MAX bytes.
        if (zs.avail_in == 0 && fed < data.size()) {
          zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data() + fed));
          zs.avail_in = static_cast<uInt>(std::min<size_t>(data.size() - fed, UINT_MAX));
          fed += zs.avail_in;
        }
        zs.next_out = next;
        zs.avail_out = static_cast<uInt>(std::min<size_t>(avail, UINT_MAX));
        uInt before = zs.avail_out;
        int ret = inflate(&zs, Z_NO_FLUSH);
        written = before - zs.avail_out;
        if (ret == Z_STREAM_END) return true;
        if (ret == Z_OK) return false;
        // Z_BUF_ERROR: no progress with all the input read. perf's loop takes it for "go on"
        // and never ends; here it is the truncated file it is.
        if (ret == Z_BUF_ERROR && zs.avail_in == 0 && fed == data.size()) {
          return make_error("gzip: compressed file is truncated");
        }
        return make_error(fmt::format("gzip: {}", zs.msg ? zs.msg : "corrupt data"));
      });
  inflateEnd(&zs);
  return out;
}

Result<std::vector<char>> decompress(FileCompression c, std::span<const char> data,
                                     size_t max_size) {
  switch (c) {
    case FileCompression::kGzip:
      return decompress_gzip(data, max_size);
    case FileCompression::kXz:
      return decompress_xz(data, max_size);
    case FileCompression::kNone:
      break;
  }
  return std::vector<char>(data.begin(), data.end());
}

Result<std::optional<std::vector<char>>> read_decompressed(const std::string& path,
                                                           FileCompression c, size_t max_size) {
  if (c == FileCompression::kNone) return std::optional<std::vector<char>>();
  // gzip_is_compressed(), lzma_is_compressed(): one read of the magic's length.
  int fd = open_symbol_file(path);
  if (fd < 0) return make_error(fmt::format("{}: {}", path, std::strerror(errno)));
  std::array<char, kXzMagic.size()> head{};
  ssize_t n = read(fd, head.data(), head.size());
  int read_errno = errno;
  close(fd);
  if (n < 0) return make_error(fmt::format("{}: {}", path, std::strerror(read_errno)));
  if (!has_compression_magic(c, std::span<const char>(head.data(), static_cast<size_t>(n)))) {
    return std::optional<std::vector<char>>();
  }
  Result<std::string> bytes = read_symbol_file(path);
  if (!bytes) return make_error(fmt::format("{}: {}", path, bytes.error().what()));
  Result<std::vector<char>> image = decompress(c, *bytes, max_size);
  if (!image) return make_error(fmt::format("{}: {}", path, image.error().what()));
  return std::optional<std::vector<char>>(std::move(*image));
}

}  // namespace readperf
