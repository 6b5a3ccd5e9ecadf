// The functions of one compilation unit that InlineFrames' functions_at() walk considers at
// its outer levels, indexed by address once per unit (see UnitFunctions).
#pragma once

#include <elfutils/libdw.h>

#include <cstdint>
#include <memory>
#include <unordered_map>
#include <utility>
#include <vector>

namespace readperf {

// The functions of one compilation unit that functions_at() would consider at its outer
// levels (the unit's children, and through namespaces, classes, structs, unions and modules),
// found by one walk of the unit, so that a lookup does not walk the unit's top level again for
// each address: a C++ unit has tens of thousands of DIEs there.
struct UnitFunctions {
  struct Scope {
    uint32_t parent;  // kNoScope for the unit itself
    int depth;
  };
  struct Function {
    Dwarf_Die die;
    uint32_t scope;  // the scope whose child it is
    uint32_t first_range, nr_ranges;
    bool is_block;
  };
  struct Range {
    uint64_t lo, hi;
    uint32_t function;
  };
  static constexpr uint32_t kNoScope = ~0u;
  std::vector<Scope> scopes;
  std::vector<Function> functions;                    // in the order of the walk (preorder)
  std::vector<std::pair<uint64_t, uint64_t>> ranges;  // each function's, in DWARF order
  std::vector<Range> by_start;                        // every range, sorted by lo
  std::vector<uint64_t> max_hi;                       // largest hi of by_start[0..i]
  // DWARF 5 default_file_name(): each line's index in the unit's table, built on first need.
  std::unordered_map<const Dwarf_Line*, size_t> line_index;
  bool line_index_built = false;
};

// Each non-empty address range of `die` in DWARF order (dwarf_ranges(), at most 4096 of them,
// a guard against a hostile list), until `f(lo, hi)` returns false.
template <class F>
void for_each_range(Dwarf_Die* die, F f) {
  Dwarf_Addr base, lo, hi;
  ptrdiff_t off = 0;
  for (int guard = 0; guard < 4096 && (off = dwarf_ranges(die, off, &base, &lo, &hi)) > 0;
       ++guard) {
    if (lo < hi && !f(lo, hi)) return;
  }
}

// One walk of the unit: every function with its ranges, every scope descended into.
std::unique_ptr<UnitFunctions> index_unit(Dwarf_Die* cu);

// The outermost function functions_at(cu, pc) would pick, from the unit's index; null when
// none holds `pc`.
const UnitFunctions::Function* outer_function_at(const UnitFunctions& unit, Dwarf_Addr pc);

}  // namespace readperf
