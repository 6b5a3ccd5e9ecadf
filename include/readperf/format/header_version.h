// perf_header.version, which `--header` prints ("# header version : N") and `data convert
// --to-json` writes: 0 for a file with the legacy magic "PERFFILE" (PERF_HEADER_VERSION_1,
// written by perf until 2011), 1 for "PERFILE2" (util/header.c check_magic_endian).
//
//   uint32_t v = header_version(first_bytes_of_the_file);
#pragma once

#include <cstdint>

#include "readperf/format/byte_cursor.h"

namespace readperf {

// `start` holds the file's first bytes (8 are enough); 1 when it is shorter.
uint32_t header_version(Bytes start);

}  // namespace readperf
