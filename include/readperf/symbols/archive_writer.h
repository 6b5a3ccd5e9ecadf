// Writes a symbol archive: a tar file compressed with zstd, each tar header and each member's
// data a zstd frame of its own that states its size, so that SymbolArchive finds and reads one
// member without decompressing the others. Any tar that reads zstd extracts it
// (`tar --zstd -xf FILE.tar.zst`), and what it extracts is a build-id cache perf reads
// (`perf --buildid-dir DIR report`).
//
//   Result<ArchiveWriter> w = ArchiveWriter::create("syms.tar.zst");
//   w->add_file("usr/lib/libc.so.6/93ac.../elf", "/usr/lib/x86_64-linux-gnu/libc.so.6");
//   w->add_symlink(".build-id/93/ac...", "../../usr/lib/libc.so.6/93ac...");
//   Status st = w->finish();
#pragma once

#include <cstdint>
#include <cstdio>
#include <memory>
#include <set>
#include <string>
#include <string_view>

#include "readperf/format/error.h"

namespace readperf {

class ArchiveWriter {
 public:
  // Creates (truncates) `path`; `level` is zstd's compression level.
  static Result<ArchiveWriter> create(const std::string& path, int level = 6);
  ArchiveWriter(ArchiveWriter&&) noexcept;
  ArchiveWriter& operator=(ArchiveWriter&&) noexcept;
  ~ArchiveWriter();

  // A regular file named `name` in the archive with the contents of `source` (a path on disk
  // or in an open symbol archive). Directories above it are implied. A name added before is
  // left as it is (returns success).
  Status add_file(std::string_view name, const std::string& source);
  // A regular file holding `contents`.
  Status add_contents(std::string_view name, std::string_view contents);
  // A symbolic link `name` -> `target`.
  Status add_symlink(std::string_view name, std::string_view target);
  // The end-of-archive blocks; closes the file.
  Status finish();

  uint64_t bytes_in() const { return bytes_in_; }    // member data read
  uint64_t bytes_out() const { return bytes_out_; }  // compressed bytes written

 private:
  struct Impl;
  explicit ArchiveWriter(std::unique_ptr<Impl> impl);
  // One zstd frame holding `data`.
  Status write_frame(std::string_view data);
  std::unique_ptr<Impl> impl_;
  std::set<std::string, std::less<>> names_;
  uint64_t bytes_in_ = 0, bytes_out_ = 0;
};

}  // namespace readperf
