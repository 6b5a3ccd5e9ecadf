#include "rb_order.h"

namespace readperf {

std::vector<uint32_t> RbOrder::in_order() const {
  std::vector<uint32_t> out;
  out.reserve(nodes_.size());
  std::vector<uint32_t> stack;
  uint32_t at = root_;
  while (at != kNil || !stack.empty()) {
    while (at != kNil) {
      stack.push_back(at);
      at = nodes_[at].left;
    }
    at = stack.back();
    stack.pop_back();
    out.push_back(items_[at]);
    at = nodes_[at].right;
  }
  return out;
}

}  // namespace readperf
