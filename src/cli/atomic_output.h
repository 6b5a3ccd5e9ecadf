// Outputs that appear under their final name only once complete: written to a temporary file
// (or directory) beside it and renamed over it at the end, so that an interrupted or failed
// conversion never leaves a half-written file where a viewer would take it for a whole one.
//
//   auto out = AtomicFile::create("out.json", /*overwrite=*/true);
//   if (!out) ... out.error().message()
//   fputs("{}", out->file());
//   if (Status st = out->commit(); !st) ...    // destroyed uncommitted: the temporary goes
#pragma once

#include <cstdio>
#include <string>

#include "readperf/format/error.h"

namespace readperf::cli {

class AtomicFile {
 public:
  // A temporary file in the directory of `path`. Without `overwrite`, an existing `path` is
  // refused (perf's O_EXCL: "use --force to overwrite it"). "-" is standard output, written
  // directly.
  static Result<AtomicFile> create(const std::string& path, bool overwrite);
  AtomicFile(AtomicFile&& other) noexcept;
  AtomicFile& operator=(AtomicFile&&) = delete;
  ~AtomicFile();

  FILE* file() const { return file_; }
  // Flushes and closes the temporary file and renames it to the final name; an error (a
  // failed write, a full disk) removes it instead.
  Status commit();

 private:
  AtomicFile() = default;
  std::string path_, temp_;
  FILE* file_ = nullptr;
};

class AtomicDirectory {
 public:
  // A temporary directory beside `path`. An existing `path` must be an empty directory, or
  // with `overwrite` a directory holding only a CTF trace (`metadata` and stream files),
  // replaced at commit().
  static Result<AtomicDirectory> create(const std::string& path, bool overwrite);
  AtomicDirectory(AtomicDirectory&& other) noexcept;
  AtomicDirectory& operator=(AtomicDirectory&&) = delete;
  ~AtomicDirectory();

  const std::string& temp_path() const { return temp_; }
  Status commit();

 private:
  AtomicDirectory() = default;
  std::string path_, temp_;
  bool overwrite_ = false;
};

}  // namespace readperf::cli
