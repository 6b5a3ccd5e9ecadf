// Errors as values. Every reader function returns `Result<T>` (tl::expected) whose error names
// where in the input things went wrong:
//
//   Result<FileHeader> h = parse_file_header(cursor);
//   if (!h) fmt::print(stderr, "readperf: {}\n", h.error().message());
#pragma once

#include <cstdint>
#include <string>
#include <utility>

#include <tl/expected.hpp>

namespace readperf {

// What went wrong and where. `offset` is the absolute file offset of the problem, or
// kNoOffset where the problem is not tied to a position (a missing file, say).
class [[nodiscard]] Error {
 public:
  static constexpr uint64_t kNoOffset = ~0ull;

  Error() = default;
  explicit Error(std::string what, uint64_t offset = kNoOffset)
      : what_(std::move(what)), offset_(offset) {}

  const std::string& what() const { return what_; }
  uint64_t offset() const { return offset_; }
  // The file the problem is in, empty until a caller that knows it says so with in_file().
  const std::string& file() const { return file_; }
  Error in_file(std::string file) const {
    Error e = *this;
    e.file_ = std::move(file);
    return e;
  }
  // "FILE: offset 0x1234: <what>", leaving out the file or offset where not known.
  std::string message() const;

 private:
  std::string file_;
  std::string what_;
  uint64_t offset_ = kNoOffset;
};

template <class T>
using Result = tl::expected<T, Error>;

// Success or an Error, for functions with no value to return.
using Status = tl::expected<void, Error>;

inline tl::unexpected<Error> make_error(std::string what, uint64_t offset = Error::kNoOffset) {
  return tl::unexpected<Error>(Error(std::move(what), offset));
}

}  // namespace readperf

// Propagation helpers in the style of LLVM's and Perfetto's: return early on error.
#define READPERF_CONCAT_INNER(a, b) a##b
#define READPERF_CONCAT(a, b) READPERF_CONCAT_INNER(a, b)
#define RETURN_IF_ERROR(expr)                                            \
  do {                                                                   \
    auto&& readperf_status_ = (expr);                                    \
    if (!readperf_status_) return tl::unexpected(readperf_status_.error()); \
  } while (0)
#define ASSIGN_OR_RETURN_IMPL(tmp, lhs, expr)  \
  auto tmp = (expr);                           \
  if (!tmp) return tl::unexpected(tmp.error()); \
  lhs = std::move(*tmp)
#define ASSIGN_OR_RETURN(lhs, expr) \
  ASSIGN_OR_RETURN_IMPL(READPERF_CONCAT(readperf_result_, __LINE__), lhs, expr)
