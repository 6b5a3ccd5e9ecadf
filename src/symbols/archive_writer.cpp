#include "readperf/symbols/archive_writer.h"

#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#include <cerrno>
#include <cstring>
#include <vector>

#include "readperf/symbols/symbol_files.h"
#include "tar_format.h"

namespace readperf {

struct ArchiveWriter::Impl {
  std::string path;
  FILE* file = nullptr;
  ZSTD_CCtx* cctx = nullptr;
  std::vector<char> out;  // compressed bytes, reused
  ~Impl() {
    if (file) std::fclose(file);
    ZSTD_freeCCtx(cctx);
  }
};

ArchiveWriter::ArchiveWriter(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
ArchiveWriter::ArchiveWriter(ArchiveWriter&&) noexcept = default;
ArchiveWriter& ArchiveWriter::operator=(ArchiveWriter&&) noexcept = default;
ArchiveWriter::~ArchiveWriter() = default;

Result<ArchiveWriter> ArchiveWriter::create(const std::string& path, int level) {
  auto impl = std::make_unique<Impl>();
  impl->path = path;
  impl->file = std::fopen(path.c_str(), "wb");
  if (!impl->file) return make_error(fmt::format("{}: {}", path, std::strerror(errno)));
  impl->cctx = ZSTD_createCCtx();
  if (!impl->cctx) return make_error("zstd: out of memory");
  ZSTD_CCtx_setParameter(impl->cctx, ZSTD_c_compressionLevel, level);
  // Each frame says how large it is (random access needs it) and carries a checksum, so that a
  // damaged member is found out when read rather than handed on as symbols.
  ZSTD_CCtx_setParameter(impl->cctx, ZSTD_c_contentSizeFlag, 1);
  ZSTD_CCtx_setParameter(impl->cctx, ZSTD_c_checksumFlag, 1);
  impl->out.resize(ZSTD_CStreamOutSize());
  return ArchiveWriter(std::move(impl));
}

namespace {

Status compress_into(ZSTD_CCtx* cctx, ZSTD_inBuffer& in, ZSTD_EndDirective mode,
                     std::vector<char>& buf, FILE* file, uint64_t& written,
                     const std::string& path) {
  while (true) {
    ZSTD_outBuffer o{buf.data(), buf.size(), 0};
    size_t left = ZSTD_compressStream2(cctx, &o, &in, mode);
    if (ZSTD_isError(left)) return make_error(fmt::format("zstd: {}", ZSTD_getErrorName(left)));
    if (o.pos && std::fwrite(buf.data(), 1, o.pos, file) != o.pos) {
      return make_error(fmt::format("{}: {}", path, std::strerror(errno)));
    }
    written += o.pos;
    bool drained = mode == ZSTD_e_end ? left == 0 : in.pos == in.size;
    if (drained) return {};
  }
}

}  // namespace

Status ArchiveWriter::write_frame(std::string_view data) {
  ZSTD_CCtx_reset(impl_->cctx, ZSTD_reset_session_only);
  ZSTD_CCtx_setPledgedSrcSize(impl_->cctx, data.size());
  ZSTD_inBuffer in{data.data(), data.size(), 0};
  return compress_into(impl_->cctx, in, ZSTD_e_end, impl_->out, impl_->file, bytes_out_,
                       impl_->path);
}

Status ArchiveWriter::add_file(std::string_view name, const std::string& source) {
  if (names_.count(name)) return {};
  int fd = open_symbol_file(source);
  if (fd < 0) return make_error(fmt::format("{}: {}", source, std::strerror(errno)));
  struct stat st;
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    return make_error(fmt::format("{}: not a regular file", source));
  }
  if (st.st_size == 0) {
    // A /proc file (kallsyms) says 0 and has contents: read it whole to know its size.
    ::close(fd);
    ASSIGN_OR_RETURN(std::string contents, read_symbol_file(source));
    return add_contents(name, contents);
  }
  const uint64_t size = static_cast<uint64_t>(st.st_size);
  Status result = write_frame(tar_header_blocks(name, TarType::kFile, size));
  // The data and its padding: one frame, its size stated up front.
  const uint64_t padding = tar_padding(size);
  ZSTD_CCtx_reset(impl_->cctx, ZSTD_reset_session_only);
  ZSTD_CCtx_setPledgedSrcSize(impl_->cctx, size + padding);
  std::vector<char> chunk(size_t{1} << 20);
  uint64_t done = 0;
  while (result && done < size) {
    size_t want = static_cast<size_t>(std::min<uint64_t>(chunk.size(), size - done));
    ssize_t n = ::read(fd, chunk.data(), want);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      result = make_error(
          fmt::format("{}: {}", source, n < 0 ? std::strerror(errno) : "shorter than its size"));
      break;
    }
    done += static_cast<uint64_t>(n);
    ZSTD_inBuffer in{chunk.data(), static_cast<size_t>(n), 0};
    result = compress_into(impl_->cctx, in, ZSTD_e_continue, impl_->out, impl_->file, bytes_out_,
                           impl_->path);
  }
  ::close(fd);
  RETURN_IF_ERROR(result);
  std::string zeros(static_cast<size_t>(padding), '\0');
  ZSTD_inBuffer in{zeros.data(), zeros.size(), 0};
  RETURN_IF_ERROR(
      compress_into(impl_->cctx, in, ZSTD_e_end, impl_->out, impl_->file, bytes_out_, impl_->path));
  bytes_in_ += size;
  names_.emplace(name);
  return {};
}

Status ArchiveWriter::add_contents(std::string_view name, std::string_view contents) {
  if (names_.count(name)) return {};
  RETURN_IF_ERROR(write_frame(tar_header_blocks(name, TarType::kFile, contents.size())));
  std::string padded(contents);
  padded.append(static_cast<size_t>(tar_padding(contents.size())), '\0');
  RETURN_IF_ERROR(write_frame(padded));
  bytes_in_ += contents.size();
  names_.emplace(name);
  return {};
}

Status ArchiveWriter::add_symlink(std::string_view name, std::string_view target) {
  if (names_.count(name)) return {};
  RETURN_IF_ERROR(write_frame(tar_header_blocks(name, TarType::kSymlink, 0, target)));
  names_.emplace(name);
  return {};
}

Status ArchiveWriter::finish() {
  RETURN_IF_ERROR(write_frame(std::string(2 * kTarBlock, '\0')));
  FILE* f = std::exchange(impl_->file, nullptr);
  if (std::fclose(f) != 0)
    return make_error(fmt::format("{}: {}", impl_->path, std::strerror(errno)));
  return {};
}

}  // namespace readperf
