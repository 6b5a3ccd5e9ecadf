// Folded stacks: a count per distinct call stack, the data flame graphs are drawn from. Frame
// names are interned once, a stack is the list of their ids (root first), so memory grows with
// the distinct stacks and names, not with the samples.
//
//   StackCounts counts;
//   std::vector<uint32_t> stack = {counts.intern("comm"), counts.intern("main")};
//   counts.add(stack, 250000);
//   counts.for_each_folded([](std::string_view line, uint64_t n) { print(line, n); });
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace readperf {

class StackCounts {
 public:
  // The id of `name`, the same for equal names.
  uint32_t intern(std::string_view name);
  std::string_view name(uint32_t id) const { return names_[id]; }

  // Adds `count` to the stack of frame ids `stack` (root first).
  void add(std::span<const uint32_t> stack, uint64_t count);

  size_t distinct_stacks() const { return stacks_.size(); }

  // Every stack as its folded text (the names joined by ';') with its total, sorted by that
  // text byte by byte. Stacks whose texts are equal (a name holding a ';') are one line, as
  // they are one key of stackcollapse-perf.pl's hash.
  void for_each_folded(const std::function<void(std::string_view, uint64_t)>& fn) const;

  // Every stack as its frame ids (root first) with its total, sorted by the frames' names
  // frame by frame, for the writers that build a tree or a frame table from the stacks.
  void for_each_stack(const std::function<void(std::span<const uint32_t>, uint64_t)>& fn) const;

 private:
  struct VecHash {
    size_t operator()(const std::vector<uint32_t>& v) const;
  };
  std::deque<std::string> names_;  // a deque: the map's keys view its strings
  std::unordered_map<std::string_view, uint32_t> ids_;
  std::unordered_map<std::vector<uint32_t>, uint64_t, VecHash> stacks_;
  std::vector<uint32_t> key_;  // reused by add()
};

}  // namespace readperf
