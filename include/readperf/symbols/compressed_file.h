// Compressed kernel modules ("ext4.ko.xz", "ext4.ko.gz"), decompressed into memory as perf 6.1
// decompresses them into a /tmp/perf-kmod-XXXXXX file (util/dso.c filename__decompress(),
// util/lzma.c lzma_decompress_to_file(), util/zlib.c gzip_decompress_to_file()). perf's
// compressions[] table holds the formats it was built with: Debian's perf 6.1 has zlib and lzma
// (`perf version --build-options`); its zstd support is only for PERF_RECORD_COMPRESSED, so a
// ".ko.zst" is no module to it (named "fakemod.ko.zst", its file never read as an ELF).
//
//   FileCompression c = kmod_compression("/lib/modules/6.1.0-13-amd64/kernel/fs/ext4/ext4.ko.xz");
//   Result<std::optional<std::vector<char>>> image = read_decompressed(path, c);
//   // nullopt: not compressed after all (a build-id cache's plain copy): read the file as is.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "readperf/format/error.h"

namespace readperf {

enum class FileCompression : uint8_t { kNone, kGzip, kXz };

// dso.c __kmod_path__parse() and dso__set_module_info(): the compression of a module path, from
// its suffix ("gz", "xz": is_supported_compression()), only for a "NAME.ko.SUFFIX" (m->kmod &&
// m->comp); kNone for anything else, "[name]" included.
FileCompression kmod_compression(std::string_view path);

// gzip_is_compressed() (1f 8b) and lzma_is_compressed() (fd '7zXZ' 00) on a file's first
// bytes: false for fewer bytes than the magic.
bool has_compression_magic(FileCompression c, std::span<const char> head);

// The bound readers put on what one file may decompress to: perf has none (it writes to
// /tmp), but a hostile file must not make us allocate without limit.
constexpr size_t kMaxDecompressed = size_t{1} << 30;

// lzma_decompress_to_file(): an xz file, its streams concatenated (LZMA_CONCATENATED) unless
// `concatenated` is false (one stream, what follows it ignored).
Result<std::vector<char>> decompress_xz(std::span<const char> data,
                                        size_t max_size = kMaxDecompressed,
                                        bool concatenated = true);
// gzip_decompress_to_file(): a gzip file's first member (inflateInit2(16 + MAX_WBITS)); what
// follows it is ignored. A truncated member is an error (perf 6.1 loops forever on one).
Result<std::vector<char>> decompress_gzip(std::span<const char> data,
                                          size_t max_size = kMaxDecompressed);
Result<std::vector<char>> decompress(FileCompression c, std::span<const char> data,
                                     size_t max_size = kMaxDecompressed);

// filename__decompress(): the file at `path` (on disk or in a symbol archive) decompressed;
// nullopt when it lacks `c`'s magic ("the file behind the 'name' can still be plain
// uncompressed object": perf then opens it as it is). Fails on an unreadable file and on
// data that does not decompress.
Result<std::optional<std::vector<char>>> read_decompressed(const std::string& path,
                                                           FileCompression c,
                                                           size_t max_size = kMaxDecompressed);

}  // namespace readperf
