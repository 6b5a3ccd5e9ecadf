// The binaries a recording's samples fall in, as perf names them (util/dso.c, util/dsos.c):
// one Dso per distinct file, found again by its long name (the path perf prints in
// " ...... dso:" lines), kernel modules also by their short "[name]".
//
//   DsoTable dsos;
//   Dso* libc = dsos.findnew("/usr/lib/x86_64-linux-gnu/libc.so.6");
//   Dso* mod = dsos.findnew_module("/lib/modules/6.1.0/kernel/fs/ext4/ext4.ko");
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace readperf {

enum class DsoSpace : uint8_t { kUser, kKernel, kKernelGuest };

struct Dso {
  std::string long_name;   // what perf prints: the path, "[kernel.kallsyms]", "[vdso]"
  std::string short_name;  // basename, or "[module]" for kernel modules
  DsoSpace space = DsoSpace::kUser;
  bool is_module = false;
  // Whether perf's dso->name (what script and report print) is the short name: a module first
  // seen in a kernel MMAP is created under its "[name]" (machine.c
  // machine__findnew_module_dso); one the build-id table named first keeps its path.
  bool named_short = false;
  // perf's dso->long_name where loading the symbols renamed it (symbol.c dso__load_vmlinux():
  // the vmlinux's name; for the maps of its other sections, the kernel's name): what
  // `report -v` and `script --show-kernel-path` print. Empty: long_name.
  std::string symsrc_name;
  // perf's dso->long_name.
  const std::string& perf_long_name() const {
    return symsrc_name.empty() ? long_name : symsrc_name;
  }
  std::vector<uint8_t> build_id;  // empty when unknown
  // "[vdso]" created for a map, not by the build-id table: perf's is a copy of its own vdso
  // (vdso.c machine__findnew_vdso(), get_file()), read when no build-id names another.
  bool running_vdso_copy = false;
  // dso->id from the first MMAP2 with a device and inode (dsos.c dso__inject_id(): an empty id
  // takes the first non-empty one); `report --mmaps` prints the inode.
  uint32_t maj = 0, min = 0;
  uint64_t ino = 0, ino_generation = 0;
};

// The "[name]" perf gives a kernel module path (dso.c __kmod_path__parse): the basename up to
// its first '.', '-' turned into '_'; a name already in brackets is kept.
std::string module_short_name(std::string_view path);

class DsoTable {
 public:
  // The Dso with this long name, created if there is none (dsos.c __dsos__findnew_id).
  Dso* findnew(std::string_view long_name);
  // The kernel module of `path`, found by its short name; a new one gets `path` as its long
  // name (machine.c machine__findnew_module_dso).
  Dso* findnew_module(std::string_view path);
  Dso* find(std::string_view long_name) const;
  Dso* find_short(std::string_view short_name) const;
  // Dsos in creation order (perf's machine->dsos.head list).
  const std::deque<Dso>& all() const { return dsos_; }

 private:
  Dso* add(std::string_view long_name);
  std::deque<Dso> dsos_;  // stable addresses
  std::unordered_map<std::string, Dso*> by_long_;
};

}  // namespace readperf
