#include "gzip_writer.h"

namespace readperf {

GzipWriter::GzipWriter(FILE* out, bool compress) : out_(out), compress_(compress) {
  // windowBits 15 + 16: the gzip header and trailer instead of zlib's.
  if (compress_ && deflateInit2(&z_, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8,
                                Z_DEFAULT_STRATEGY) != Z_OK) {
    ok_ = false;
  }
}

GzipWriter::~GzipWriter() {
  if (compress_) deflateEnd(&z_);
}

void GzipWriter::pump(int flush) {
  int rc;
  do {
    z_.next_out = reinterpret_cast<Bytef*>(chunk_);
    z_.avail_out = sizeof chunk_;
    rc = deflate(&z_, flush);
    if (rc == Z_STREAM_ERROR) {
      ok_ = false;
      return;
    }
    size_t n = sizeof chunk_ - z_.avail_out;
    if (n && std::fwrite(chunk_, 1, n, out_) != n) ok_ = false;
  } while (z_.avail_out == 0 || (flush == Z_FINISH && rc != Z_STREAM_END));
}

void GzipWriter::write(std::string_view bytes) {
  if (!ok_ || bytes.empty()) return;
  if (!compress_) {
    if (std::fwrite(bytes.data(), 1, bytes.size(), out_) != bytes.size()) ok_ = false;
    return;
  }
  z_.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data()));
  z_.avail_in = static_cast<uInt>(bytes.size());
  pump(Z_NO_FLUSH);
}

Status GzipWriter::finish() {
  if (!finished_ && ok_ && compress_) pump(Z_FINISH);
  finished_ = true;
  if (!ok_) return make_error("could not write the output");
  return {};
}

}  // namespace readperf
