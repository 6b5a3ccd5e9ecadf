#include "readperf/symbols/dwarf_unwind.h"

#include <execinfo.h>
#include <gtest/gtest.h>
#include <link.h>
#include <pthread.h>

#include <cstring>
#include <map>
#include <string>

namespace readperf {
namespace {

// A stack the test lays out word by word at a made-up address, read as perf's access_mem()
// reads the sample's copy; `code` words answer reads of code addresses (file contents).
struct FakeMemory {
  uint64_t base = 0x7ffd00000000;
  std::vector<uint64_t> words = std::vector<uint64_t>(512, 0);
  std::map<uint64_t, uint64_t> code;

  void put(uint64_t addr, uint64_t v) { words[(addr - base) / 8] = v; }
  bool read(uint64_t addr, uint64_t* v) const {
    if (addr >= base && addr + 8 < base + words.size() * 8) {
      std::memcpy(v, reinterpret_cast<const char*>(words.data()) + (addr - base), 8);
      return true;
    }
    if (auto it = code.find(addr); it != code.end()) {
      *v = it->second;
      return true;
    }
    return false;
  }
};

// The test binary's own CFI, looked up at a bias that misses every FDE: libunwind's "no info",
// as perf's read_unwind_spec_eh_frame() base gives after an exec that kept the parent's maps.
const CfiFile* self_file() {
  static UnwindCfiCache cache;
  return cache.get("/proc/self/exe");
}

UnwindCallbacks no_cfi_callbacks(const FakeMemory& mem) {
  UnwindCallbacks cb;
  cb.find_code = [](uint64_t, CodeLocation* where) {
    where->file = self_file();
    where->eh_frame_bias = 0x100000000000;
    where->debug_frame_bias = 0x100000000000;
    return where->file != nullptr;
  };
  cb.read_word = [&mem](uint64_t a, uint64_t* v) { return mem.read(a, v); };
  return cb;
}

TEST(DwarfUnwind, FramePointerChainWithoutCfi) {
  FakeMemory mem;
  const uint64_t s = mem.base;
  const uint64_t ip0 = 0x401000, ret1 = 0x402010, ret2 = 0x403020;
  mem.code[ip0] = mem.code[ip0 + 8] = 0x9090909090909090;  // not a PLT stub, not sigreturn
  mem.code[ret1] = mem.code[ret1 + 8] = 0x9090909090909090;
  mem.code[ret2] = mem.code[ret2 + 8] = 0x9090909090909090;
  mem.put(s + 0x40, s + 0x80);  // frame 1: saved rbp, return address
  mem.put(s + 0x48, ret1);
  mem.put(s + 0x80, 0);  // frame 2: rbp 0 ends the chain after its return address
  mem.put(s + 0x88, ret2);
  UnwindRegs regs;
  regs.set(kDwarfRip, ip0);
  regs.set(kDwarfRsp, s);
  regs.set(kDwarfRbp, s + 0x40);
  std::vector<uint64_t> ips;
  unwind_x86_64(regs, no_cfi_callbacks(mem), 127, ips);
  // The sample's ip as is, every caller decremented (get_entries()).
  EXPECT_EQ(ips, (std::vector<uint64_t>{ip0, ret1 - 1, ret2 - 1}));
}

TEST(DwarfUnwind, FramePointerBelowTheCfaEndsTheWalk) {
  // libunwind's "Heuristic to determine incorrect guess": rbp under the CFA is no frame.
  FakeMemory mem;
  mem.code[0x401000] = mem.code[0x401008] = 0x9090909090909090;
  UnwindRegs regs;
  regs.set(kDwarfRip, 0x401000);
  regs.set(kDwarfRsp, mem.base + 0x100);
  regs.set(kDwarfRbp, mem.base + 0x40);
  std::vector<uint64_t> ips;
  unwind_x86_64(regs, no_cfi_callbacks(mem), 127, ips);
  EXPECT_EQ(ips, (std::vector<uint64_t>{0x401000}));
}

TEST(DwarfUnwind, HostileStacksStayBounded) {
  // A frame chain that points at itself and random words: the walk ends, within max_stack.
  FakeMemory mem;
  uint64_t x = 0x9e3779b97f4a7c15;
  for (uint64_t& w : mem.words) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    w = (x & 1) ? mem.base + (x % (mem.words.size() * 8)) : x;
  }
  mem.put(mem.base + 0x40, mem.base + 0x40);
  UnwindRegs regs;
  regs.set(kDwarfRip, 0x401000);
  regs.set(kDwarfRsp, mem.base);
  regs.set(kDwarfRbp, mem.base + 0x40);
  for (uint32_t max : {1u, 2u, 8u, 127u}) {
    std::vector<uint64_t> ips;
    unwind_x86_64(regs, no_cfi_callbacks(mem), max, ips);
    EXPECT_LE(ips.size(), max);
    EXPECT_GE(ips.size(), 1u);
  }
  // No registers at all: nothing to show.
  std::vector<uint64_t> ips;
  unwind_x86_64(UnwindRegs{}, no_cfi_callbacks(mem), 127, ips);
  EXPECT_TRUE(ips.empty());
}

// A live stack of this process: registers and an 8 KiB copy taken inside capture(), unwound
// with the CFI of the loaded files, must give the return addresses glibc's backtrace() (the
// compiler's unwinder) finds.
struct Captured {
  uint64_t regs[kDwarfRegCount] = {};
  std::vector<uint8_t> stack = std::vector<uint8_t>(8192);
  void* bt[16] = {};
  int nbt = 0;
};

// The copy reads the callers' frames as the kernel does, redzones and all: under AddressSanitizer
// that read must be neither instrumented nor an intercepted memcpy(), which would report the
// redzones between the frames' locals as a stack-buffer-overflow.
__attribute__((noinline, no_sanitize_address)) void copy_memory(uint8_t* to, uint64_t from,
                                                                 size_t size) {
  const volatile uint8_t* byte = reinterpret_cast<const volatile uint8_t*>(from);
  for (size_t i = 0; i < size; ++i) to[i] = byte[i];
}

__attribute__((noinline)) void capture(Captured* c) {
  uint64_t* r = c->regs;
  asm volatile(
      "movq %%rbx, 24(%0)\n\t"
      "movq %%rbp, 48(%0)\n\t"
      "movq %%rsp, 56(%0)\n\t"
      "movq %%r12, 96(%0)\n\t"
      "movq %%r13, 104(%0)\n\t"
      "movq %%r14, 112(%0)\n\t"
      "movq %%r15, 120(%0)\n\t"
      "leaq 0(%%rip), %%rax\n\t"
      "movq %%rax, 128(%0)\n\t"
      :
      : "r"(r)
      : "rax", "memory");
  // As the kernel does, copy no further than the stack's end (perf's dyn_size).
  pthread_attr_t attr;
  void* lo = nullptr;
  size_t size = 0;
  if (pthread_getattr_np(pthread_self(), &attr) == 0) {
    pthread_attr_getstack(&attr, &lo, &size);
    pthread_attr_destroy(&attr);
  }
  const uint64_t end = reinterpret_cast<uint64_t>(lo) + size;
  if (end > r[kDwarfRsp]) c->stack.resize(std::min<uint64_t>(c->stack.size(), end - r[kDwarfRsp]));
  copy_memory(c->stack.data(), r[kDwarfRsp], c->stack.size());
  c->nbt = backtrace(c->bt, 16);
}
__attribute__((noinline)) void level3(Captured* c) {
  capture(c);
  asm volatile("" ::: "memory");
}
__attribute__((noinline)) void level2(Captured* c) {
  level3(c);
  asm volatile("" ::: "memory");
}
__attribute__((noinline)) void level1(Captured* c) {
  level2(c);
  asm volatile("" ::: "memory");
}

struct Module {
  std::string path;
  uint64_t bias = 0, start = 0, end = 0;
  std::vector<std::pair<uint64_t, uint64_t>> segments;  // readable [start, end)
};

std::vector<Module> loaded_modules() {
  std::vector<Module> out;
  dl_iterate_phdr(
      [](dl_phdr_info* info, size_t, void* data) {
        auto* v = static_cast<std::vector<Module>*>(data);
        Module m;
        m.path = info->dlpi_name && *info->dlpi_name ? info->dlpi_name : "/proc/self/exe";
        m.bias = info->dlpi_addr;
        m.start = ~0ull;
        for (int i = 0; i < info->dlpi_phnum; ++i) {
          const ElfW(Phdr)& ph = info->dlpi_phdr[i];
          if (ph.p_type != PT_LOAD) continue;
          m.start = std::min<uint64_t>(m.start, m.bias + ph.p_vaddr);
          m.end = std::max<uint64_t>(m.end, m.bias + ph.p_vaddr + ph.p_memsz);
          if (ph.p_flags & PF_R) {
            m.segments.emplace_back(m.bias + ph.p_vaddr, m.bias + ph.p_vaddr + ph.p_filesz);
          }
        }
        v->push_back(m);
        return 0;
      },
      &out);
  return out;
}

TEST(DwarfUnwind, LiveStackMatchesBacktrace) {
  Captured c;
  level1(&c);
  ASSERT_GE(c.nbt, 5);
  const std::vector<Module> modules = loaded_modules();
  UnwindCfiCache files;
  const uint64_t sp = c.regs[kDwarfRsp];
  UnwindCallbacks cb;
  cb.find_code = [&](uint64_t ip, CodeLocation* where) {
    for (const Module& m : modules) {
      if (ip < m.start || ip >= m.end) continue;
      where->file = files.get(m.path);
      where->eh_frame_bias = where->debug_frame_bias = m.bias;
      where->map_start = m.start;
      where->map_end = m.end;
      return where->file != nullptr;
    }
    return false;
  };
  cb.read_word = [&](uint64_t a, uint64_t* v) {
    if (a >= sp && a + 8 < sp + c.stack.size()) {
      std::memcpy(v, c.stack.data() + (a - sp), 8);
      return true;
    }
    for (const Module& m : modules) {
      for (auto [lo, hi] : m.segments) {
        if (a >= lo && a + 8 <= hi) {
          copy_memory(reinterpret_cast<uint8_t*>(v), a, 8);
          return true;
        }
      }
    }
    return false;
  };
  UnwindRegs regs;
  for (int r : {3, 6, 7, 12, 13, 14, 15, 16}) regs.set(r, c.regs[r]);
  std::vector<uint64_t> ips;
  unwind_x86_64(regs, cb, 127, ips);
  // backtrace() starts inside capture() after the copy (or, under AddressSanitizer, inside its
  // interceptor of backtrace(), one frame deeper); after that come the return addresses into
  // level3, level2, level1 and this test, which the unwinder gives decremented.
  ASSERT_GE(ips.size(), 5u);
  int first = 1;
  while (first < c.nbt && reinterpret_cast<uint64_t>(c.bt[first]) != ips[1] + 1) ++first;
  ASSERT_LE(first, 2) << "the return address into level3 is not among backtrace()'s first frames";
  ASSERT_GE(c.nbt, first + 4);
  for (int i = 1; i <= 4; ++i) {
    EXPECT_EQ(ips[i] + 1, reinterpret_cast<uint64_t>(c.bt[first + i - 1])) << "frame " << i;
  }
  // And they are those functions' (each a call and a return, well under 64 bytes of code).
  const void* levels[] = {reinterpret_cast<const void*>(&level3),
                          reinterpret_cast<const void*>(&level2),
                          reinterpret_cast<const void*>(&level1)};
  for (int i = 1; i <= 3; ++i) {
    EXPECT_LT(ips[i] - reinterpret_cast<uint64_t>(levels[i - 1]), 64u) << "frame " << i;
  }
}

}  // namespace
}  // namespace readperf
