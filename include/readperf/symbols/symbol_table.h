// The symbols of one binary (or of the kernel), sorted by address, found by binary search.
// Built once by a SymbolTableBuilder that applies perf's fix-ups in perf's order, then
// immutable: lookups allocate nothing and may run from any number of threads.
//
//   SymbolTableBuilder b;
//   b.add(0x1040, 0x20, STB_GLOBAL, STT_FUNC, "main");
//   b.add(0x1060, 0, STB_LOCAL, STT_FUNC, "helper");   // size unknown
//   b.fixup_end(false);        // helper now ends where the next symbol starts
//   b.fixup_duplicate();
//   SymbolTable t = std::move(b).finish();
//   if (const Symbol* s = t.find(0x1048)) fmt::print("{}+{:#x}", s->name, s->symoff(0x1048));
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

namespace readperf {

// The ELF symbol binding and type values perf keeps (elf.h STB_*, STT_*), so that callers do
// not need <elf.h>.
inline constexpr uint8_t kBindLocal = 0;
inline constexpr uint8_t kBindGlobal = 1;
inline constexpr uint8_t kBindWeak = 2;
inline constexpr uint8_t kTypeNoType = 0;
inline constexpr uint8_t kTypeObject = 1;
inline constexpr uint8_t kTypeFunc = 2;

struct Symbol {
  uint64_t start = 0;
  // Exclusive, as in perf 6.1 (symbol__new: start + len). Equal to start for a symbol of
  // unknown size that no fix-up could size; such a symbol holds just its start address.
  uint64_t end = 0;
  std::string_view name;  // owned by the SymbolTable
  uint8_t binding = kBindGlobal;
  uint8_t type = kTypeFunc;
  // An inline frame's symbol (srcline.c new_inline_sym()): the range of the function it was
  // inlined into, under the inlined function's name. perf compares these by name.
  bool inlined = false;

  bool contains(uint64_t addr) const {
    // symbol.c symbols__find(): [start, end), and the start itself for a zero-size symbol.
    return addr >= start && (addr < end || addr == start);
  }
  // What perf prints after '+' (symbol_fprintf.c __symbol__fprintf_symname_offs).
  uint64_t symoff(uint64_t addr) const { return addr - start; }
};

class SymbolTable {
 public:
  SymbolTable() = default;
  SymbolTable(SymbolTable&&) = default;
  SymbolTable& operator=(SymbolTable&&) = default;
  SymbolTable(const SymbolTable&) = delete;
  SymbolTable& operator=(const SymbolTable&) = delete;

  // The symbol holding `addr`, or null (dso__find_symbol). Where symbols overlap, the one
  // starting closest below `addr` that holds it; in a table built with perf's tree
  // (SymbolTableBuilder::track_tree()), the one perf's walk down its rb-tree meets first, which
  // may be none (symbols__find()).
  const Symbol* find(uint64_t addr) const;
  // The symbol with this exact name (first in address order), or null. Linear: for tests and
  // one-off look-ups such as the kernel's "_text".
  const Symbol* find_by_name(std::string_view name) const;

  const std::vector<Symbol>& symbols() const { return symbols_; }
  // Moves every symbol by -delta (a kernel's table read from another boot: KASLR moved the
  // kernel, not its layout).
  void shift(uint64_t delta);
  size_t size() const { return symbols_.size(); }
  bool empty() const { return symbols_.empty(); }

 private:
  friend class SymbolTableBuilder;
  std::vector<Symbol> symbols_;    // sorted by start
  std::vector<uint64_t> max_end_;  // max_end_[i] = max(end of symbols_[0..i]), for overlaps
  std::vector<char> names_;        // every name, back to back; Symbol::name points here
  // perf's rb-tree of these symbols (indices into symbols_), kept only when symbols overlap:
  // otherwise any walk finds the one symbol holding an address.
  std::vector<uint32_t> tree_left_, tree_right_;
  uint32_t tree_root_ = ~0u;
};

// Collects symbols and applies perf's fix-ups. Symbols keep the order they were added among
// equal start addresses, as perf's rb-tree insertion does, because that order decides the
// ties in fixup_duplicate().
class SymbolTableBuilder {
 public:
  void add(uint64_t start, uint64_t size, uint8_t binding, uint8_t type, std::string_view name);
  size_t size() const { return pending_.size(); }
  // Keeps the history of perf's rb-tree (every add() an insertion, every fixup_duplicate()
  // loser an erasure) so that finish() can rebuild its shape where symbols overlap: perf finds
  // a symbol by walking that tree, and among overlapping symbols the walk decides (symbols
  // stretched by fixup_end() and the "@plt" ones added after it). For loaders that add every
  // symbol in perf's order and edit none through pending().
  void track_tree() { track_tree_ = true; }

  // symbol.c symbols__fixup_end(): a zero-size symbol ends where the next one starts; with
  // `is_kallsyms`, one followed by a symbol on the other side of the kernel/module boundary (a
  // '[' in one name but not the other) ends at the next page instead; the last zero-size
  // symbol ends at the page after the one holding its start.
  void fixup_end(bool is_kallsyms);
  // symbol.c symbols__fixup_duplicate(): of symbols starting at the same address, keep the
  // one choose_best_symbol() prefers.
  void fixup_duplicate();
  // Moves every pending symbol's start and end by -delta (a relocated kernel).
  void shift(uint64_t delta);
  // Keeps the pending symbols for which keep(pending, name) is true, in order; the names of the
  // others stay in the name buffer, unused. For a builder that does not track_tree().
  template <class Keep>
  void retain(Keep&& keep) {
    std::erase_if(pending_, [&](const Pending& p) { return !keep(p, name_of(p)); });
  }

  SymbolTable finish() &&;
  // Room for `symbols` symbols of `name_bytes` name bytes in all: a 200k-line kallsyms grown
  // by doubling spent a third of its parse copying the vectors.
  void reserve(size_t symbols, size_t name_bytes) {
    pending_.reserve(symbols);
    names_.reserve(name_bytes);
  }

  struct Pending {
    uint64_t start;
    uint64_t end;
    uint32_t name_off;
    uint32_t name_len;
    uint8_t binding;
    uint8_t type;
    uint32_t seq;  // the add() it came from, in order
  };
  // For loaders that split or filter the symbols before finishing (kallsyms modules).
  std::vector<Pending>& pending() { return pending_; }
  std::string_view name_of(const Pending& p) const {
    return std::string_view(names_.data() + p.name_off, p.name_len);
  }

 private:
  void sort();
  void build_tree(SymbolTable& t) const;
  std::vector<Pending> pending_;
  std::vector<char> names_;
  bool sorted_ = true;
  bool track_tree_ = false;
  // With track_tree(): the start of every symbol by seq, and perf's tree operations in order,
  // a seq each, kErased set for an erasure.
  static constexpr uint32_t kErased = 1u << 31;
  std::vector<uint64_t> starts_;
  std::vector<uint32_t> tree_ops_;
};

}  // namespace readperf
