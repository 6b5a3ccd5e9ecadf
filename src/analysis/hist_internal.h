// Pieces of Hists shared by its hist*.cpp files (not a public API).
#pragma once

#include <cstdint>

namespace readperf {

// An empty slot of the entries' lookup table (Hists::table_).
constexpr uint32_t kEmpty = ~0u;

}  // namespace readperf
