#include "readperf/analysis/stack_counts.h"

#include <algorithm>

#include "readperf/format/hash_mix.h"

namespace readperf {

uint32_t StackCounts::intern(std::string_view name) {
  auto it = ids_.find(name);
  if (it != ids_.end()) return it->second;
  auto id = static_cast<uint32_t>(names_.size());
  names_.emplace_back(name);
  ids_.emplace(names_.back(), id);
  return id;
}

size_t StackCounts::VecHash::operator()(const std::vector<uint32_t>& v) const {
  uint64_t h = 0x9e3779b97f4a7c15ull ^ v.size();
  for (uint32_t x : v) h = hash_mix(h, x);
  return static_cast<size_t>(hash_finish(h));
}

void StackCounts::add(std::span<const uint32_t> stack, uint64_t count) {
  // The lookup reuses one vector, so a stack seen before costs no allocation.
  key_.assign(stack.begin(), stack.end());
  auto it = stacks_.find(key_);
  if (it != stacks_.end()) {
    it->second += count;
    return;
  }
  stacks_.emplace(key_, count);
}

void StackCounts::for_each_folded(const std::function<void(std::string_view, uint64_t)>& fn) const {
  std::vector<std::pair<std::string, uint64_t>> lines;
  lines.reserve(stacks_.size());
  for (const auto& [stack, count] : stacks_) {
    std::string text;
    for (size_t i = 0; i < stack.size(); ++i) {
      if (i) text.push_back(';');
      text.append(names_[stack[i]]);
    }
    lines.emplace_back(std::move(text), count);
  }
  // Perl's `sort { $a cmp $b }`: bytes compared unsigned, as std::string compares them.
  std::sort(lines.begin(), lines.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  for (size_t i = 0; i < lines.size();) {
    uint64_t total = lines[i].second;
    size_t j = i + 1;
    for (; j < lines.size() && lines[j].first == lines[i].first; ++j) total += lines[j].second;
    fn(lines[i].first, total);
    i = j;
  }
}

void StackCounts::for_each_stack(
    const std::function<void(std::span<const uint32_t>, uint64_t)>& fn) const {
  std::vector<const std::pair<const std::vector<uint32_t>, uint64_t>*> order;
  order.reserve(stacks_.size());
  for (const auto& entry : stacks_) order.push_back(&entry);
  std::sort(order.begin(), order.end(), [&](const auto* a, const auto* b) {
    return std::lexicographical_compare(
        a->first.begin(), a->first.end(), b->first.begin(), b->first.end(),
        [&](uint32_t x, uint32_t y) { return names_[x] < names_[y]; });
  });
  for (const auto* entry : order) fn(entry->first, entry->second);
}

}  // namespace readperf
