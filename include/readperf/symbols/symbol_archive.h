// A symbol archive (`readperf archive -o FILE.tar.zst`) read in place: a tar file, zstd
// compressed or not, laid out as a build-id cache (perf's ~/.debug: `.build-id/xx/rest` links
// to `PATH/<build-id>/`, which holds `elf`, `debug`, `vdso`; `[kernel.kallsyms]/<build-id>/
// kallsyms`). Opening reads every member's header and nothing else; a member is decompressed
// when it is first read, into memory of its own (a memfd), never onto the disk.
//
//   Result<std::unique_ptr<SymbolArchive>> a = SymbolArchive::open("syms.tar.zst");
//   if (auto m = (*a)->resolve(".build-id/93/ac61ec.../debug")) {   // links followed
//     Result<int> fd = (*a)->open_member(*m);                         // an fd to read, close
//   }
//
// Thread-safe. A damaged archive gives an error naming the offset when its member list
// cannot be read; members before the damage stay readable (see warning()).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "readperf/format/error.h"

namespace readperf {

class FrameStream;

struct ArchiveLimits {
  uint64_t max_frame = uint64_t{1} << 30;  // the most one zstd frame may decompress to
  size_t max_members = size_t{1} << 20;
  size_t max_name = 4096;  // PATH_MAX
};

class SymbolArchive {
 public:
  static Result<std::unique_ptr<SymbolArchive>> open(const std::string& path,
                                                     ArchiveLimits limits = {});
  // The archive's bytes held in memory (tests, fuzzing); `name` is for messages.
  static Result<std::unique_ptr<SymbolArchive>> from_bytes(std::string name,
                                                           std::vector<uint8_t> bytes,
                                                           ArchiveLimits limits = {});
  ~SymbolArchive();
  SymbolArchive(const SymbolArchive&) = delete;
  SymbolArchive& operator=(const SymbolArchive&) = delete;

  const std::string& path() const { return path_; }
  // What was wrong with the archive past the members it lists (empty if nothing).
  const std::string& warning() const { return warning_; }
  size_t member_count() const { return members_.size(); }

  // The regular file `name` names inside the archive ("./" and "/" at its start ignored),
  // symbolic and hard links followed, or nullopt.
  std::optional<std::string> resolve(std::string_view name) const;
  // The names directly inside directory `dir` ("" for the top), links to directories
  // followed for `dir` itself.
  std::vector<std::string> list(std::string_view dir) const;
  // The size of a member resolve() returned.
  uint64_t size_of(const std::string& member) const;

  // A descriptor of its own (offset 0) on the member's contents; the caller closes it.
  Result<int> open_member(const std::string& member);
  // The member's contents, when at most `max_size` bytes.
  Result<std::string> read_member(const std::string& member, uint64_t max_size);

 private:
  struct Member {
    char type = 0;             // TarType: '0' file, '2' symlink, '1' hard link, '5' directory
    uint64_t data_offset = 0;  // in the decompressed stream
    uint64_t size = 0;
    std::string link;  // a link's target
  };
  SymbolArchive() = default;
  Status index(ArchiveLimits limits);
  // The member a path names once the links in its directories and itself are followed.
  std::optional<std::string> follow(std::string_view name, bool want_dir) const;

  std::string path_;
  std::string warning_;
  void* map_ = nullptr;  // the mmap'ed file, or null for from_bytes()
  size_t map_size_ = 0;
  std::vector<uint8_t> bytes_;  // from_bytes()'s
  std::unique_ptr<FrameStream> stream_;
  std::map<std::string, Member, std::less<>> members_;
  std::mutex mu_;                         // guards stream_ and extracted_
  std::map<std::string, int> extracted_;  // member -> memfd holding its bytes
};

}  // namespace readperf
