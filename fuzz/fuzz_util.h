// What the fuzz entry points share: a sink for printed text, and input in a file descriptor.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>

namespace readperf::fuzz {

// /dev/null, opened once: printers run in full but their output costs no memory.
FILE* null_file();

// An anonymous in-memory file (memfd) holding `data`, positioned at its start; -1 on failure.
// The caller closes it. `/proc/self/fd/N` names it for APIs that take a path.
int memory_fd(const uint8_t* data, size_t size);
inline std::string fd_path(int fd) { return "/proc/self/fd/" + std::to_string(fd); }

}  // namespace readperf::fuzz
