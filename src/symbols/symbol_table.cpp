#include "readperf/symbols/symbol_table.h"

#include <algorithm>

#include "readperf/symbols/rb_tree.h"

namespace readperf {

namespace {

size_t leading_underscores(std::string_view s) {
  size_t n = 0;
  while (n < s.size() && s[n] == '_') ++n;
  return n;
}

uint64_t page_roundup(uint64_t v) { return (v + 4095) & ~uint64_t{4095}; }

}  // namespace

const Symbol* SymbolTable::find(uint64_t addr) const {
  if (!tree_left_.empty()) {
    // symbol.c symbols__find(): left below a symbol's start, right past its end (its start
    // being its end only for a zero-size symbol), else that symbol.
    for (uint32_t at = tree_root_; at != ~0u;) {
      const Symbol& s = symbols_[at];
      if (addr < s.start) {
        at = tree_left_[at];
      } else if (addr > s.end || (addr == s.end && addr != s.start)) {
        at = tree_right_[at];
      } else {
        return &s;
      }
    }
    return nullptr;
  }
  auto it = std::upper_bound(symbols_.begin(), symbols_.end(), addr,
                             [](uint64_t a, const Symbol& s) { return a < s.start; });
  if (it == symbols_.begin()) return nullptr;
  size_t i = static_cast<size_t>(it - symbols_.begin()) - 1;
  if (symbols_[i].contains(addr)) return &symbols_[i];
  // A symbol that starts earlier may still cover addr when sizes overlap; max_end_ tells when
  // none can, so the common case stops here.
  while (i > 0 && max_end_[i - 1] > addr) {
    --i;
    if (symbols_[i].contains(addr)) return &symbols_[i];
  }
  return nullptr;
}

void SymbolTable::shift(uint64_t delta) {
  for (Symbol& s : symbols_) {
    s.start -= delta;
    s.end -= delta;
  }
  for (uint64_t& e : max_end_) e -= delta;
}

const Symbol* SymbolTable::find_by_name(std::string_view name) const {
  for (const Symbol& s : symbols_) {
    if (s.name == name) return &s;
  }
  return nullptr;
}

void SymbolTableBuilder::add(uint64_t start, uint64_t size, uint8_t binding, uint8_t type,
                             std::string_view name) {
  if (!pending_.empty() && start < pending_.back().start) sorted_ = false;
  Pending p;
  p.start = start;
  p.end = size ? start + size : start;
  p.name_off = static_cast<uint32_t>(names_.size());
  p.name_len = static_cast<uint32_t>(name.size());
  p.binding = binding;
  p.type = type;
  p.seq = static_cast<uint32_t>(starts_.size());
  if (track_tree_) {
    // symbol.c __symbols__insert(): a new symbol goes right of those starting where it does.
    tree_ops_.push_back(p.seq);
    starts_.push_back(start);
  }
  names_.insert(names_.end(), name.begin(), name.end());
  pending_.push_back(p);
}

void SymbolTableBuilder::sort() {
  if (sorted_) return;
  // Stable: equal starts keep insertion order, as rb-tree inserts do (equal keys go right).
  std::stable_sort(pending_.begin(), pending_.end(),
                   [](const Pending& a, const Pending& b) { return a.start < b.start; });
  sorted_ = true;
}

void SymbolTableBuilder::fixup_end(bool is_kallsyms) {
  sort();
  if (pending_.empty()) return;
  for (size_t i = 1; i < pending_.size(); ++i) {
    Pending& prev = pending_[i - 1];
    const Pending& curr = pending_[i];
    if (prev.end != prev.start) continue;
    // Kernel text and the modules lie far apart: do not stretch the last symbol of one
    // across the gap to the other.
    bool prev_mod = name_of(prev).find('[') != std::string_view::npos;
    bool curr_mod = name_of(curr).find('[') != std::string_view::npos;
    if (is_kallsyms && prev_mod != curr_mod) {
      prev.end = page_roundup(prev.end + 4096);
    } else {
      prev.end = curr.start;
    }
  }
  Pending& last = pending_.back();
  if (last.end == last.start) last.end = page_roundup(last.start) + 4096;
}

void SymbolTableBuilder::fixup_duplicate() {
  sort();
  // choose_best_symbol(): true when a is preferred over b.
  auto a_wins = [this](const Pending& a, const Pending& b) {
    bool a_sized = a.end != a.start, b_sized = b.end != b.start;
    if (a_sized != b_sized) return a_sized;
    bool a_weak = a.binding == kBindWeak, b_weak = b.binding == kBindWeak;
    if (a_weak != b_weak) return !a_weak;
    bool a_global = a.binding == kBindGlobal, b_global = b.binding == kBindGlobal;
    if (a_global != b_global) return a_global;
    std::string_view na = name_of(a), nb = name_of(b);
    size_t ua = leading_underscores(na), ub = leading_underscores(nb);
    if (ua != ub) return ua < ub;
    if (na.size() != nb.size()) return na.size() > nb.size();
    // arch__choose_best_symbol(): avoid the "SyS" syscall aliases, else keep the first.
    if (na.starts_with("SyS") || na.starts_with("compat_SyS")) return false;
    return true;
  };
  // In place: the kept symbols are written over the front of pending_, never ahead of the
  // one being read.
  size_t kept = 0;
  for (size_t i = 0; i < pending_.size(); ++i) {
    const Pending p = pending_[i];
    if (kept && pending_[kept - 1].start == p.start) {
      Pending& winner = pending_[kept - 1];
      // The loser leaves perf's tree (rb_erase_cached()), in this order.
      if (!a_wins(winner, p)) {
        if (track_tree_) tree_ops_.push_back(winner.seq | kErased);
        winner = p;
      } else if (track_tree_) {
        tree_ops_.push_back(p.seq | kErased);
      }
      continue;
    }
    pending_[kept++] = p;
  }
  pending_.resize(kept);
}

void SymbolTableBuilder::shift(uint64_t delta) {
  for (Pending& p : pending_) {
    p.start -= delta;
    p.end -= delta;
  }
}

SymbolTable SymbolTableBuilder::finish() && {
  sort();
  SymbolTable t;
  t.names_ = std::move(names_);
  t.symbols_.reserve(pending_.size());
  t.max_end_.reserve(pending_.size());
  uint64_t max_end = 0;
  for (const Pending& p : pending_) {
    Symbol s;
    s.start = p.start;
    s.end = p.end;
    s.name = std::string_view(t.names_.data() + p.name_off, p.name_len);
    s.binding = p.binding;
    s.type = p.type;
    t.symbols_.push_back(s);
    max_end = std::max(max_end, std::max(p.end, p.start + 1));
    t.max_end_.push_back(max_end);
  }
  if (track_tree_) build_tree(t);
  std::vector<Pending>().swap(pending_);
  return t;
}

void SymbolTableBuilder::build_tree(SymbolTable& t) const {
  // Without overlaps every walk ends at the one symbol holding the address (or none): the
  // binary search is the same, and faster.
  bool overlap = false;
  for (size_t i = 1; i < t.symbols_.size() && !overlap; ++i) {
    overlap = t.max_end_[i - 1] > t.symbols_[i].start;
  }
  if (!overlap) return;
  // Replay perf's insertions and erasures over every symbol ever added (by seq), then keep
  // the links of those finish() kept.
  constexpr uint32_t kNil = kRbNil;
  std::vector<RbNode> nodes(starts_.size());
  RbNodeLinks links{nodes};
  uint32_t root = kNil;
  for (uint32_t op : tree_ops_) {
    const uint32_t seq = op & ~kErased;
    if (op & kErased) {
      rb_erase(links, root, seq, kNil);
    } else {
      rb_insert(links, root, seq, kNil, [&](uint32_t at) { return starts_[seq] < starts_[at]; });
    }
  }
  std::vector<uint32_t> index_of(starts_.size(), kNil);
  for (size_t i = 0; i < pending_.size(); ++i) index_of[pending_[i].seq] = static_cast<uint32_t>(i);
  auto index = [&](uint32_t seq) { return seq == kNil ? kNil : index_of[seq]; };
  t.tree_left_.resize(pending_.size());
  t.tree_right_.resize(pending_.size());
  for (size_t i = 0; i < pending_.size(); ++i) {
    t.tree_left_[i] = index(nodes[pending_[i].seq].left);
    t.tree_right_[i] = index(nodes[pending_[i].seq].right);
  }
  t.tree_root_ = index(root);
}

}  // namespace readperf
