// Telling the reader's errors apart where a caller's behaviour depends on the cause (perf's
// exit status does: session.c returns different values for them).
//
//   if (is_record_smaller_than_header(st.error())) ...
#pragma once

#include <string_view>

#include "readperf/format/error.h"

namespace readperf {

// The end of the message of a record whose header declares a size below the header's 8 bytes.
inline constexpr std::string_view kSmallerThanHeader = "is smaller than its header";

// Whether `e` is that error (in the data, not in compressed data).
inline bool is_record_smaller_than_header(const Error& e) {
  return e.what().ends_with(kSmallerThanHeader);
}

}  // namespace readperf
