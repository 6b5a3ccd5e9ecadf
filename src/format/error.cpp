#include "readperf/format/error.h"

#include <fmt/format.h>

namespace readperf {

std::string Error::message() const {
  std::string where = file_.empty() ? "" : file_ + ": ";
  if (offset_ == kNoOffset) return where + what_;
  return fmt::format("{}offset {:#x}: {}", where, offset_, what_);
}

}  // namespace readperf
