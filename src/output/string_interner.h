// Dense ids for strings, looked up by string_view without making a std::string (C++20
// heterogeneous lookup), so interning a frame name that was seen before allocates nothing.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>

namespace readperf {

class StringInterner {
 public:
  // Not copyable: the map's keys view the deque's strings, and a copy's keys would still view
  // the original's. A move keeps them valid (a deque's move hands over its blocks, the strings
  // stay where they are), so a std::vector of holders reallocates by moving, never by copying
  // (std::deque's move constructor is not noexcept, which otherwise makes a vector copy).
  StringInterner() = default;
  StringInterner(const StringInterner&) = delete;
  StringInterner& operator=(const StringInterner&) = delete;
  StringInterner(StringInterner&&) = default;
  StringInterner& operator=(StringInterner&&) = default;

  // The id of `s`, ids 0, 1, ... in first-seen order.
  uint32_t intern(std::string_view s) {
    auto it = ids_.find(s);
    if (it != ids_.end()) return it->second;
    auto id = static_cast<uint32_t>(strings_.size());
    strings_.emplace_back(s);
    ids_.emplace(strings_.back(), id);
    return id;
  }
  const std::string& operator[](uint32_t id) const { return strings_[id]; }
  size_t size() const { return strings_.size(); }
  const std::deque<std::string>& strings() const { return strings_; }

 private:
  struct Hash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>()(s); }
  };
  std::deque<std::string> strings_;  // a deque: stable, the map's keys view them
  std::unordered_map<std::string_view, uint32_t, Hash, std::equal_to<>> ids_;
};

}  // namespace readperf
