#include "readperf/format/error.h"

#include <fmt/format.h>

namespace readperf {

std::string Error::message() const {
  if (offset_ == kNoOffset) return what_;
  return fmt::format("offset {:#x}: {}", offset_, what_);
}

}  // namespace readperf
