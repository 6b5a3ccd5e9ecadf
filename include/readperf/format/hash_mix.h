// Hashing several words into one for the hash tables of interned values (frames, stacks,
// maps): boost's hash_combine step, then a 64-bit finalizer (splitmix64's) so that the low
// bits an open-addressing table masks with depend on every input bit.
#pragma once

#include <cstdint>

namespace readperf {

inline uint64_t hash_mix(uint64_t h, uint64_t v) {
  return h ^ (v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2));
}

inline uint64_t hash_finish(uint64_t h) {
  h ^= h >> 31;
  h *= 0x94d049bb133111ebull;
  return h ^ (h >> 29);
}

}  // namespace readperf
