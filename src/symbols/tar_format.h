// The tar format as symbol archives use it (POSIX.1-2001 pax, which GNU tar and bsdtar read and
// write): 512-byte ustar header blocks, a member's data padded to a block, pax extended
// headers ('x') for names longer than the 100 bytes of a header, and GNU's long-name
// members ('L', 'K') when reading archives GNU tar made.
//
//   Result<TarHeader> h = parse_tar_header(block);       // a 512-byte block
//   std::string blocks = tar_header_blocks("a/b/elf", TarType::kFile, size);
//
// Private to the symbols layer.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "readperf/format/error.h"

namespace readperf {

inline constexpr size_t kTarBlock = 512;

enum class TarType : char {
  kFile = '0',
  kHardLink = '1',
  kSymlink = '2',
  kDirectory = '5',
  kPaxHeader = 'x',    // pax records for the next member
  kPaxGlobal = 'g',    // pax records for every member after it (ignored)
  kGnuLongName = 'L',  // the next member's name
  kGnuLongLink = 'K',  // the next member's link target
  kOther = '?',        // devices, FIFOs, ...: skipped
};

struct TarHeader {
  std::string name;  // prefix + "/" + name for ustar; as stored otherwise
  std::string linkname;
  uint64_t size = 0;  // of the data that follows
  TarType type = TarType::kOther;
};

// A header block: nullopt for an all-zero block (the end of the archive), an error for a
// block whose checksum or numbers are wrong.
Result<std::optional<TarHeader>> parse_tar_header(std::span<const uint8_t, kTarBlock> block);

// The "LENGTH key=value\n" records of a pax extended header: the path, linkpath and size it
// sets on `h` (other keys are ignored). Fails on a malformed record.
Status apply_pax_records(std::string_view records, TarHeader& h);

// The header block(s) of one member: a pax header first when the name or link target does not
// fit a ustar header. Modes are 0644 (0755 for directories), owner root, time 0: the archive
// of the same files is the same bytes.
std::string tar_header_blocks(std::string_view name, TarType type, uint64_t size,
                              std::string_view linkname = {});

// The zero bytes after `size` bytes of data, up to the next block.
inline uint64_t tar_padding(uint64_t size) { return (kTarBlock - size % kTarBlock) % kTarBlock; }

}  // namespace readperf
