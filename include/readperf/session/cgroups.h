// The cgroups a recording names (util/cgroup.c: perf_env's tree of struct cgroup), filled by
// PERF_RECORD_CGROUP records (perf record --all-cgroups) and read by `report --sort cgroup`.
//
//   CgroupTable t;
//   t.findnew(25, "/readperf-a");   // machine.c machine__process_cgroup_event()
//   t.name(25);                     // "/readperf-a"; t.name(0) is "N/A", t.name(7) "unknown"
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>

namespace readperf {

class CgroupTable {
 public:
  // cgroup.c cgroup__findnew(): an id already known keeps its first path.
  void findnew(uint64_t id, std::string_view path) { names_.try_emplace(id, path); }
  // cgroup__find(): null for an id no record named.
  const std::string* find(uint64_t id) const {
    auto it = names_.find(id);
    return it == names_.end() ? nullptr : &it->second;
  }
  // sort.c hist_entry__cgroup_snprintf(): "N/A" for a sample without a cgroup (id 0),
  // "unknown" for an id no record named, else the path.
  std::string_view name(uint64_t id) const {
    if (!id) return "N/A";
    const std::string* n = find(id);
    return n ? std::string_view(*n) : std::string_view("unknown");
  }
  size_t size() const { return names_.size(); }

 private:
  std::unordered_map<uint64_t, std::string> names_;
};

}  // namespace readperf
