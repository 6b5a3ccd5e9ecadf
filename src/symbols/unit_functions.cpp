#include "unit_functions.h"

#include <dwarf.h>

#include <algorithm>
#include <span>

namespace readperf {

namespace {

bool is_function_tag(int tag) {
  return tag == DW_TAG_subprogram || tag == DW_TAG_inlined_subroutine ||
         tag == DW_TAG_entry_point || tag == DW_TAG_lexical_block;
}

bool is_scope_tag(int tag) {
  return tag == DW_TAG_namespace || tag == DW_TAG_class_type || tag == DW_TAG_structure_type ||
         tag == DW_TAG_union_type || tag == DW_TAG_module;
}

// The walk functions_at() makes of the outer levels, once for every address: each function
// with its ranges, each scope it descends into (to the same depth limit).
void collect_functions(Dwarf_Die* parent, uint32_t scope, int depth, UnitFunctions& unit) {
  if (depth > 64) return;
  Dwarf_Die child;
  if (dwarf_child(parent, &child) != 0) return;
  do {
    int tag = dwarf_tag(&child);
    if (is_function_tag(tag)) {
      auto first = static_cast<uint32_t>(unit.ranges.size());
      for_each_range(&child, [&](uint64_t lo, uint64_t hi) {
        unit.ranges.emplace_back(lo, hi);
        return true;
      });
      auto n = static_cast<uint32_t>(unit.ranges.size()) - first;
      if (n) unit.functions.push_back({child, scope, first, n, tag == DW_TAG_lexical_block});
    } else if (is_scope_tag(tag)) {
      auto inner = static_cast<uint32_t>(unit.scopes.size());
      unit.scopes.push_back({scope, depth + 1});
      collect_functions(&child, inner, depth + 1, unit);
    }
  } while (dwarf_siblingof(&child, &child) == 0);
}

}  // namespace

std::unique_ptr<UnitFunctions> index_unit(Dwarf_Die* cu) {
  auto unit = std::make_unique<UnitFunctions>();
  unit->scopes.push_back({UnitFunctions::kNoScope, 0});
  collect_functions(cu, 0, 0, *unit);
  for (uint32_t f = 0; f < unit->functions.size(); ++f) {
    const UnitFunctions::Function& fn = unit->functions[f];
    for (uint32_t r = 0; r < fn.nr_ranges; ++r) {
      auto [lo, hi] = unit->ranges[fn.first_range + r];
      unit->by_start.push_back({lo, hi, f});
    }
  }
  std::sort(unit->by_start.begin(), unit->by_start.end(),
            [](const auto& a, const auto& b) { return a.lo < b.lo; });
  uint64_t top = 0;
  for (const auto& r : unit->by_start) unit->max_hi.push_back(top = std::max(top, r.hi));
  return unit;
}

namespace {

struct Candidate {
  uint32_t function;
  uint64_t len;  // of its first range holding the address: range_len_at()
};

bool within(const UnitFunctions& unit, uint32_t scope, uint32_t outer) {
  for (; scope != UnitFunctions::kNoScope; scope = unit.scopes[scope].parent) {
    if (scope == outer) return true;
  }
  return false;
}

// functions_at()'s choice at `scope`, from the functions below it that hold the address (in
// walk order): the smallest of its own, the last among equals; a scope met before any of its
// own is searched, and what is found there is the answer.
const UnitFunctions::Function* choose(const UnitFunctions& unit, std::span<const Candidate> c,
                                      uint32_t scope) {
  const Candidate* best = nullptr;
  size_t i = 0;
  while (i < c.size()) {
    uint32_t own = unit.functions[c[i].function].scope;
    if (own == scope) {
      if (!best || c[i].len <= best->len) best = &c[i];
      ++i;
      continue;
    }
    uint32_t child = own;  // the scope below `scope` that holds this candidate
    while (unit.scopes[child].parent != scope) child = unit.scopes[child].parent;
    size_t end = i + 1;
    while (end < c.size() && within(unit, unit.functions[c[end].function].scope, child)) ++end;
    if (!best) {
      if (const UnitFunctions::Function* found = choose(unit, c.subspan(i, end - i), child)) {
        return found;
      }
    }
    i = end;
  }
  return best ? &unit.functions[best->function] : nullptr;
}

}  // namespace

const UnitFunctions::Function* outer_function_at(const UnitFunctions& unit, Dwarf_Addr pc) {
  auto end = std::upper_bound(unit.by_start.begin(), unit.by_start.end(), pc,
                              [](uint64_t a, const UnitFunctions::Range& r) { return a < r.lo; });
  std::vector<Candidate> found;
  for (auto i = static_cast<size_t>(end - unit.by_start.begin()); i-- > 0;) {
    if (unit.max_hi[i] <= pc) break;  // no range starting here or before reaches pc
    if (unit.by_start[i].hi > pc) found.push_back({unit.by_start[i].function, 0});
  }
  if (found.empty()) return nullptr;
  std::sort(found.begin(), found.end(),
            [](const Candidate& a, const Candidate& b) { return a.function < b.function; });
  found.erase(
      std::unique(found.begin(), found.end(),
                  [](const Candidate& a, const Candidate& b) { return a.function == b.function; }),
      found.end());
  for (Candidate& c : found) {
    const UnitFunctions::Function& fn = unit.functions[c.function];
    for (uint32_t r = 0; r < fn.nr_ranges; ++r) {
      auto [lo, hi] = unit.ranges[fn.first_range + r];
      if (pc >= lo && pc < hi) {
        c.len = hi - lo;
        break;
      }
    }
  }
  return choose(unit, found, 0);
}

}  // namespace readperf
