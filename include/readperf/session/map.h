// Address ranges of a process or of the kernel, each backed by a Dso (util/map.c, util/maps.c).
// A process's Maps never overlap: a new map cuts the ranges of older ones it covers, as
// maps__fixup_overlappings() does, so what a later MMAP covers resolves to the later file.
//
//   Maps maps;
//   maps.insert_fixup(Map{.start = 0x1000, .end = 0x2000, .pgoff = 0, .dso = dso});
//   const Map* m = maps.find(0x1800);   // m->map_ip(0x1800) is the file-relative address
#pragma once

#include <cstdint>
#include <map>
#include <vector>

#include "readperf/session/dso.h"

namespace readperf {

struct Map {
  uint64_t start = 0;
  uint64_t end = 0;  // exclusive
  uint64_t pgoff = 0;
  Dso* dso = nullptr;
  uint32_t prot = 0;
  uint32_t flags = 0;
  // Anonymous memory and the kernel map use addresses as they are (map.c identity__map_ip).
  bool identity = false;
  // Which perf `struct map` this is: a new number for every map inserted, for each piece
  // left of a cut one (maps__fixup_overlappings() clones them) and for each map a fork
  // copies (maps__clone()). perf's report compares map pointers (hist.c
  // hists__findnew_entry()), so what it does depends on it. Set by Maps.
  uint32_t id = 0;

  // map.c map__map_ip: the address relative to the start of the mapped file.
  uint64_t map_ip(uint64_t addr) const { return identity ? addr : addr - start + pgoff; }
  uint64_t unmap_ip(uint64_t rel) const { return identity ? rel : rel + start - pgoff; }
};

class Maps {
 public:
  // Inserts `m`, first trimming or splitting the maps it overlaps (thread__insert_map).
  void insert_fixup(const Map& m);
  // Inserts without touching other maps (maps__insert), replacing one of the same start.
  void insert(const Map& m);
  // Removes the map starting at `start`, if any.
  void remove(uint64_t start);
  // The map holding `addr`, or null (maps__find).
  const Map* find(uint64_t addr) const;
  bool empty() const { return by_start_.empty(); }
  size_t size() const { return by_start_.size(); }
  const std::map<uint64_t, Map>& entries() const { return by_start_; }
  // Edits each map in place (its start must stay: it is the key).
  template <class F>
  void for_each_mutable(F&& f) {
    for (auto& [start, m] : by_start_) f(m);
  }
  // The Dso of every map inserted so far, in insertion order (repeats kept): the maps perf's
  // unwind__prepare_access() was shown, one by one, as they came in (unwind-libunwind.c).
  const std::vector<const Dso*>& inserted_dsos() const { return inserted_dsos_; }

  // perf's maps->unwind_libunwind_ops: set for good at the first inserted map whose file
  // perf can open and read as ELF (dso__type() known). Without it perf unwinds nothing from
  // the user stack copies of these maps' samples. Kept here, where perf keeps it; the
  // analysis layer fills it in (it knows which files are there).
  struct UnwindAccess {
    size_t dsos_checked = 0;  // inserted_dsos() already looked at
    bool registered = false;
  };
  UnwindAccess unwind_access;

 private:
  std::map<uint64_t, Map> by_start_;
  std::vector<const Dso*> inserted_dsos_;
};

}  // namespace readperf
