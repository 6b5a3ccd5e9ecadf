// Unwinding a user stack copy with the binaries' call frame information, what perf 6.1 does
// for `perf record --call-graph dwarf` through libunwind (util/unwind-libunwind-local.c
// get_entries()): the sample's registers begin the walk, every frame's CFI (.eh_frame, else
// .debug_frame) gives its caller's registers, and x86_64 libunwind's frame-pointer walk takes
// over where no CFI covers an address. Plain inputs only: the caller maps addresses to files and
// reads memory (perf's access_mem() over the stack copy, access_dso_mem() over files).
//
//   UnwindCfiCache files;
//   DwarfUnwinder::Callbacks cb{.find_code = ..., .read_word = ...};
//   std::vector<uint64_t> ips;
//   unwind_x86_64(regs, cb, /*max_stack=*/127, ips);  // ips[0] is the sample's ip
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace readperf {

// One ELF file's call frame information and contents, opened once.
class CfiFile {
 public:
  ~CfiFile();
  CfiFile(const CfiFile&) = delete;
  CfiFile& operator=(const CfiFile&) = delete;

  // Null when the file cannot be read as ELF.
  static std::unique_ptr<CfiFile> open(const std::string& path);

  // The ELF virtual address a file offset is loaded at (by the PT_LOAD holding it), as
  // map__rip_2objdump() converts; the offset itself when no segment holds it.
  uint64_t offset_to_vaddr(uint64_t offset) const;
  // perf's elf_base_address(): the first PT_LOAD's p_vaddr, page aligned.
  uint64_t elf_base_address() const;
  // The ELF header's e_type (ET_EXEC, ET_DYN, ...).
  uint16_t elf_type() const;
  // The ELF header's e_machine (EM_X86_64, EM_AARCH64, ...).
  uint16_t elf_machine() const;
  // Whether perf's find_proc_info() can use the file's .eh_frame (it needs .eh_frame_hdr) and
  // .debug_frame.
  bool has_eh_frame_hdr() const;
  bool has_debug_frame() const;
  // Eight bytes of the file at `offset` (perf's dso__data_read_offset()).
  bool read_word(uint64_t offset, uint64_t* value) const;
  // Up to `len` bytes of the file at `offset`; how many there were.
  size_t read_bytes(uint64_t offset, uint8_t* out, size_t len) const;
  // ELFCLASS64 (perf's dso->is_64_bit).
  bool is_64bit() const;

  struct Impl;
  const Impl& impl() const { return *impl_; }

 private:
  explicit CfiFile(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// Files by path, opened on first use; a file that failed to open is remembered as null.
class UnwindCfiCache {
 public:
  const CfiFile* get(const std::string& path);

 private:
  std::unordered_map<std::string, std::unique_ptr<CfiFile>> files_;
};

// x86_64 registers in DWARF numbering (System V ABI): 0 rax, 1 rdx, 2 rcx, 3 rbx, 4 rsi,
// 5 rdi, 6 rbp, 7 rsp, 8-15 r8-r15, 16 the return address (rip).
inline constexpr int kDwarfRegCount = 17;
inline constexpr int kDwarfRbp = 6;
inline constexpr int kDwarfRsp = 7;
inline constexpr int kDwarfRip = 16;

struct UnwindRegs {
  std::array<uint64_t, kDwarfRegCount> value{};
  uint32_t known = 0;  // bit per register
  bool has(int r) const { return (known >> r) & 1; }
  void set(int r, uint64_t v) {
    value[r] = v;
    known |= 1u << r;
  }
};

// Where an address's code lies, as perf's find_proc_info() sees it.
struct CodeLocation {
  const CfiFile* file = nullptr;
  // ELF vaddr = address - bias. perf's read_unwind_spec_eh_frame() takes the .eh_frame_hdr
  // base from the lowest map of the same DSO in the thread's maps (which, after an exec that
  // kept the parent's maps, is the parent's mapping, so the lookup misses and libunwind falls
  // back to frame pointers); dwarf_find_debug_frame() gets the map's own start.
  uint64_t eh_frame_bias = 0;
  uint64_t debug_frame_bias = 0;
  // The map's bounds (di.start_ip / di.end_ip): an FDE outside them does not count.
  uint64_t map_start = 0;
  uint64_t map_end = ~0ull;
};

struct UnwindCallbacks {
  // False when no map with a readable file holds `ip`: find_proc_info() fails with -EINVAL,
  // which ends the walk (it is not libunwind's "no info" that falls back to frame pointers).
  std::function<bool(uint64_t ip, CodeLocation* where)> find_code;
  // perf's access_mem(): false when the word cannot be read.
  std::function<bool(uint64_t addr, uint64_t* value)> read_word;
};

// The return addresses of the stack, leaf first: ips[0] is the registers' rip, every caller's
// is decremented by one (get_entries(): "Decrement the IP for any non-activation frames")
// unless it is a sigreturn trampoline. At most max_stack entries. The steps are libunwind
// 1.6's x86_64 unw_step(): CFI first, else its PLT and frame-pointer guesses, with its end
// conditions, so the frames are the ones perf 6.1 shows.
void unwind_x86_64(const UnwindRegs& regs, const UnwindCallbacks& cb, uint32_t max_stack,
                   std::vector<uint64_t>& ips);

// perf_regs.h / arch/x86 perf_regs: the PERF_REG_X86_* index of each DWARF register above.
int perf_reg_for_dwarf_x86_64(int dwarf_reg);

}  // namespace readperf
