// Build-ids: the note that names one exact build of a binary. perf keys its cache with them and
// refuses a symbol file whose build-id differs from the one the recording saw.
//
//   BuildId recorded = BuildId::from_bytes(header_bytes);
//   Result<BuildId> on_disk = read_elf_build_id("/usr/lib/x86_64-linux-gnu/libc.so.6");
//   if (on_disk && recorded.matches(*on_disk)) ...
//   std::string hex = recorded.hex();   // "93ac61ec..."
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "readperf/format/error.h"

namespace readperf {

class BuildId {
 public:
  // perf's struct build_id holds at most 20 bytes (BUILD_ID_SIZE).
  static constexpr size_t kMaxSize = 20;

  BuildId() = default;
  // Keeps at most kMaxSize bytes.
  static BuildId from_bytes(std::span<const uint8_t> bytes);
  // Parses lower- or upper-case hex; an odd length or a non-hex digit gives an empty id.
  static BuildId from_hex(std::string_view hex);

  bool empty() const { return bytes_.empty(); }
  size_t size() const { return bytes_.size(); }
  const std::vector<uint8_t>& bytes() const { return bytes_; }
  // Lower-case hex of every byte, as build_id__sprintf() prints it.
  std::string hex() const;

  // dso.c dso__build_id_equal(): equal bytes, except that a 20-byte id recorded with trailing
  // zeros (older perf padded every id to 20 bytes) equals the shorter id it pads.
  bool matches(const BuildId& found) const;

  friend bool operator==(const BuildId&, const BuildId&) = default;

 private:
  std::vector<uint8_t> bytes_;
};

// The NT_GNU_BUILD_ID note of an ELF file, searched in the sections perf searches
// (symbol-elf.c elf_read_build_id: ".note.gnu.build-id", then ".notes", then ".note").
Result<BuildId> read_elf_build_id(const std::string& path);

// The build-id in a file of raw ELF notes such as /sys/kernel/notes (sysfs__read_build_id):
// the running kernel's.
Result<BuildId> read_notes_build_id(const std::string& path);

}  // namespace readperf
