// A gzip stream onto a FILE (zlib's deflate with the gzip wrapper, RFC 1952), written as the
// exporter produces its bytes so nothing waits in memory but zlib's window.
#pragma once

#include <zlib.h>

#include <cstdio>
#include <string_view>

#include "readperf/format/error.h"

namespace readperf {

class GzipWriter {
 public:
  // With `compress` false the bytes go to `out` as they are.
  GzipWriter(FILE* out, bool compress);
  ~GzipWriter();
  GzipWriter(const GzipWriter&) = delete;
  GzipWriter& operator=(const GzipWriter&) = delete;

  void write(std::string_view bytes);
  // Ends the stream; the first error seen.
  Status finish();

 private:
  void pump(int flush);
  FILE* out_;
  bool compress_;
  bool ok_ = true;
  bool finished_ = false;
  z_stream z_{};
  char chunk_[1 << 16];
};

}  // namespace readperf
