#include "readperf/symbols/dwarf_unwind.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <unistd.h>

#include <cstring>

namespace readperf {

struct CfiFile::Impl {
  int fd = -1;
  Elf* elf = nullptr;
  Dwarf_CFI* eh_frame = nullptr;  // owned by elf (dwarf_getcfi_elf)
  Dwarf* dwarf = nullptr;
  Dwarf_CFI* debug_frame = nullptr;  // owned by dwarf
  const char* image = nullptr;
  size_t image_size = 0;
  struct Load {
    uint64_t offset, vaddr, filesz;
  };
  std::vector<Load> loads;
  uint16_t type = 0;

  ~Impl() {
    if (dwarf) dwarf_end(dwarf);
    if (eh_frame) dwarf_cfi_end(eh_frame);
    if (elf) elf_end(elf);
    if (fd >= 0) close(fd);
  }
};

CfiFile::CfiFile(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
CfiFile::~CfiFile() = default;

std::unique_ptr<CfiFile> CfiFile::open(const std::string& path) {
  elf_version(EV_CURRENT);
  auto impl = std::make_unique<Impl>();
  impl->fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (impl->fd < 0) return nullptr;
  impl->elf = elf_begin(impl->fd, ELF_C_READ_MMAP, nullptr);
  if (!impl->elf || elf_kind(impl->elf) != ELF_K_ELF) return nullptr;
  GElf_Ehdr ehdr;
  if (gelf_getehdr(impl->elf, &ehdr)) impl->type = ehdr.e_type;
  impl->image = elf_rawfile(impl->elf, &impl->image_size);
  size_t phnum = 0;
  if (elf_getphdrnum(impl->elf, &phnum) == 0) {
    for (size_t i = 0; i < phnum; ++i) {
      GElf_Phdr ph;
      if (gelf_getphdr(impl->elf, static_cast<int>(i), &ph) && ph.p_type == PT_LOAD) {
        impl->loads.push_back({ph.p_offset, ph.p_vaddr, ph.p_filesz});
      }
    }
  }
  // libunwind's find_proc_info() in perf prefers .eh_frame (through .eh_frame_hdr) and falls
  // back to .debug_frame.
  impl->eh_frame = dwarf_getcfi_elf(impl->elf);
  impl->dwarf = dwarf_begin_elf(impl->elf, DWARF_C_READ, nullptr);
  if (impl->dwarf) impl->debug_frame = dwarf_getcfi(impl->dwarf);
  return std::unique_ptr<CfiFile>(new CfiFile(std::move(impl)));
}

uint64_t CfiFile::offset_to_vaddr(uint64_t offset) const {
  for (const Impl::Load& l : impl_->loads) {
    if (offset >= l.offset && offset < l.offset + l.filesz) return offset - l.offset + l.vaddr;
  }
  return offset;
}

uint16_t CfiFile::elf_type() const { return impl_->type; }

bool CfiFile::read_word(uint64_t offset, uint64_t* value) const {
  if (!impl_->image || offset > impl_->image_size || impl_->image_size - offset < 8) return false;
  std::memcpy(value, impl_->image + offset, 8);
  return true;
}

const CfiFile* UnwindCfiCache::get(const std::string& path) {
  auto it = files_.find(path);
  if (it == files_.end()) it = files_.emplace(path, CfiFile::open(path)).first;
  return it->second.get();
}

int perf_reg_for_dwarf_x86_64(int dwarf_reg) {
  // arch/x86/include/uapi/asm/perf_regs.h PERF_REG_X86_*: AX 0, BX 1, CX 2, DX 3, SI 4, DI 5,
  // BP 6, SP 7, IP 8, ..., R8 16 ... R15 23.
  static constexpr int kMap[kDwarfRegCount] = {0,  3,  2,  1,  4,  5,  6,  7, 16,
                                               17, 18, 19, 20, 21, 22, 23, 8};
  return dwarf_reg >= 0 && dwarf_reg < kDwarfRegCount ? kMap[dwarf_reg] : -1;
}

namespace {

// A register of the frame being unwound: libunwind keeps locations and reads a saved register
// only when something needs its value (dwarf_get()), so an unreadable slot costs the walk
// nothing until it is used.
struct RegLoc {
  enum Kind : uint8_t { kUndefined, kValue, kMemory } kind = kUndefined;
  uint64_t v = 0;  // the value, or the address holding it
};

struct Frame {
  std::array<RegLoc, kDwarfRegCount> regs{};
};

bool get(const Frame& f, int r, const UnwindCallbacks& cb, uint64_t* out) {
  if (r < 0 || r >= kDwarfRegCount) return false;
  const RegLoc& l = f.regs[r];
  switch (l.kind) {
    case RegLoc::kValue:
      *out = l.v;
      return true;
    case RegLoc::kMemory:
      return cb.read_word(l.v, out);
    default:
      return false;
  }
}

// A DWARF expression of the kinds CFI holds (libunwind's dwarf_eval_expr()): register-relative
// addresses, constants, arithmetic, comparisons, dereferences. `stack_value` tells whether the
// expression ended in DW_OP_stack_value (a value, not a location).
bool eval(const Dwarf_Op* ops, size_t nops, const Frame& f, uint64_t cfa, bool push_cfa,
          const UnwindCallbacks& cb, uint64_t* out, bool* stack_value) {
  uint64_t st[64];
  size_t n = 0;
  if (push_cfa) st[n++] = cfa;
  *stack_value = false;
  auto pop = [&](uint64_t* v) {
    if (n == 0) return false;
    *v = st[--n];
    return true;
  };
  for (size_t i = 0; i < nops; ++i) {
    const Dwarf_Op& op = ops[i];
    uint8_t a = op.atom;
    if (n >= 63) return false;
    uint64_t x, y;
    if (a >= DW_OP_lit0 && a <= DW_OP_lit31) {
      st[n++] = a - DW_OP_lit0;
    } else if (a >= DW_OP_breg0 && a <= DW_OP_breg31) {
      if (!get(f, a - DW_OP_breg0, cb, &x)) return false;
      st[n++] = x + op.number;
    } else if (a >= DW_OP_reg0 && a <= DW_OP_reg31) {
      if (!get(f, a - DW_OP_reg0, cb, &x)) return false;
      st[n++] = x;
      *stack_value = true;
    } else {
      switch (a) {
        case DW_OP_bregx:
          if (!get(f, static_cast<int>(op.number), cb, &x)) return false;
          st[n++] = x + op.number2;
          break;
        case DW_OP_regx:
          if (!get(f, static_cast<int>(op.number), cb, &x)) return false;
          st[n++] = x;
          *stack_value = true;
          break;
        case DW_OP_call_frame_cfa:
          st[n++] = cfa;
          break;
        case DW_OP_addr:
        case DW_OP_const1u:
        case DW_OP_const1s:
        case DW_OP_const2u:
        case DW_OP_const2s:
        case DW_OP_const4u:
        case DW_OP_const4s:
        case DW_OP_const8u:
        case DW_OP_const8s:
        case DW_OP_constu:
        case DW_OP_consts:
          st[n++] = op.number;
          break;
        case DW_OP_plus_uconst:
          if (!pop(&x)) return false;
          st[n++] = x + op.number;
          break;
        case DW_OP_dup:
          if (n == 0) return false;
          st[n] = st[n - 1];
          ++n;
          break;
        case DW_OP_drop:
          if (!pop(&x)) return false;
          break;
        case DW_OP_deref:
          if (!pop(&x) || !cb.read_word(x, &y)) return false;
          st[n++] = y;
          break;
        case DW_OP_stack_value:
          *stack_value = true;
          break;
        case DW_OP_nop:
          break;
        default: {
          // Binary operators.
          if (!pop(&y) || !pop(&x)) return false;
          uint64_t r;
          switch (a) {
            case DW_OP_plus: r = x + y; break;
            case DW_OP_minus: r = x - y; break;
            case DW_OP_mul: r = x * y; break;
            case DW_OP_and: r = x & y; break;
            case DW_OP_or: r = x | y; break;
            case DW_OP_xor: r = x ^ y; break;
            case DW_OP_shl: r = x << (y & 63); break;
            case DW_OP_shr: r = x >> (y & 63); break;
            case DW_OP_shra: r = static_cast<uint64_t>(static_cast<int64_t>(x) >> (y & 63)); break;
            case DW_OP_ge: r = static_cast<int64_t>(x) >= static_cast<int64_t>(y); break;
            case DW_OP_gt: r = static_cast<int64_t>(x) > static_cast<int64_t>(y); break;
            case DW_OP_le: r = static_cast<int64_t>(x) <= static_cast<int64_t>(y); break;
            case DW_OP_lt: r = static_cast<int64_t>(x) < static_cast<int64_t>(y); break;
            case DW_OP_eq: r = x == y; break;
            case DW_OP_ne: r = x != y; break;
            default: return false;
          }
          st[n++] = r;
        }
      }
    }
  }
  return pop(out);
}

enum class Step { kOk, kEnd, kNoInfo };

// One step by CFI (libunwind dwarf_step()): kNoInfo when no FDE covers `lookup`.
Step cfi_step(Frame& f, const CodeLocation& loc, uint64_t lookup, const UnwindCallbacks& cb,
              bool* signal) {
  const CfiFile::Impl& file = loc.file->impl();
  Dwarf_Frame* frame = nullptr;
  uint64_t vaddr = lookup - loc.bias;
  if (!(file.eh_frame && dwarf_cfi_addrframe(file.eh_frame, vaddr, &frame) == 0)) {
    frame = nullptr;
    if (!(file.debug_frame && dwarf_cfi_addrframe(file.debug_frame, vaddr, &frame) == 0)) {
      return Step::kNoInfo;
    }
  }
  std::unique_ptr<Dwarf_Frame, void (*)(void*)> owned(frame, free);
  dwarf_frame_info(frame, nullptr, nullptr, signal);
  Dwarf_Op* ops = nullptr;
  size_t nops = 0;
  uint64_t cfa = 0;
  bool sv = false;
  if (dwarf_frame_cfa(frame, &ops, &nops) != 0 || nops == 0 ||
      !eval(ops, nops, f, 0, false, cb, &cfa, &sv)) {
    return Step::kEnd;
  }
  Frame caller;
  for (int r = 0; r < kDwarfRegCount; ++r) {
    Dwarf_Op mem[3];
    Dwarf_Op* rops = nullptr;
    size_t rn = 0;
    if (dwarf_frame_register(frame, r, mem, &rops, &rn) != 0) continue;
    if (rn == 0) {
      if (rops == nullptr) caller.regs[r] = f.regs[r];  // same value
      continue;                                         // undefined
    }
    uint64_t v = 0;
    if (!eval(rops, rn, f, cfa, false, cb, &v, &sv)) continue;
    caller.regs[r] = sv ? RegLoc{RegLoc::kValue, v} : RegLoc{RegLoc::kMemory, v};
  }
  // The caller's stack pointer is the CFA (x86_64 ABI), whatever the CIE says of rsp.
  caller.regs[kDwarfRsp] = {RegLoc::kValue, cfa};
  // "x86_64 ABI specifies that end of call-chain is marked with ... undefined return
  // address" (libunwind x86_64 unw_step()).
  if (caller.regs[kDwarfRip].kind == RegLoc::kUndefined) return Step::kEnd;
  // The return address is read at once (apply_reg_state() sets c->ip).
  uint64_t rip;
  if (!get(caller, kDwarfRip, cb, &rip)) return Step::kEnd;
  caller.regs[kDwarfRip] = {RegLoc::kValue, rip};
  f = caller;
  return Step::kOk;
}

// libunwind x86_64 unw_step()'s fallback without CFI: the frame-pointer chain.
Step frame_pointer_step(Frame& f, const UnwindCallbacks& cb) {
  uint64_t rbp = 0, saved_rbp = 0, rip = 0;
  if (!get(f, kDwarfRbp, cb, &rbp) || rbp == 0) return Step::kEnd;
  if (!cb.read_word(rbp, &saved_rbp) || !cb.read_word(rbp + 8, &rip)) return Step::kEnd;
  Frame caller = f;
  caller.regs[kDwarfRbp] = {RegLoc::kValue, saved_rbp};
  caller.regs[kDwarfRsp] = {RegLoc::kValue, rbp + 16};
  caller.regs[kDwarfRip] = {RegLoc::kValue, rip};
  f = caller;
  return Step::kOk;
}

}  // namespace

void unwind_x86_64(const UnwindRegs& regs, const UnwindCallbacks& cb, uint32_t max_stack,
                   std::vector<uint64_t>& ips) {
  ips.clear();
  if (!regs.has(kDwarfRip) || max_stack == 0) return;
  Frame f;
  for (int r = 0; r < kDwarfRegCount; ++r) {
    if (regs.has(r)) f.regs[r] = {RegLoc::kValue, regs.value[r]};
  }
  // unwind-libunwind-local.c get_entries(): ips[0] is the sample's own ip, the callers follow
  // while unw_step() > 0.
  ips.push_back(regs.value[kDwarfRip]);
  bool use_prev_instr = false;  // libunwind looks callers' CFI up at ip - 1
  while (ips.size() < max_stack) {
    uint64_t ip = f.regs[kDwarfRip].v;
    uint64_t cfa_before = 0;
    get(f, kDwarfRsp, cb, &cfa_before);
    uint64_t lookup = use_prev_instr ? ip - 1 : ip;
    CodeLocation loc;
    bool signal = false;
    Step st = Step::kNoInfo;
    if (cb.find_code(lookup, &loc) && loc.file) st = cfi_step(f, loc, lookup, cb, &signal);
    if (st == Step::kNoInfo) st = frame_pointer_step(f, cb);
    if (st != Step::kOk) break;
    uint64_t new_ip = f.regs[kDwarfRip].v;
    uint64_t new_sp = 0;
    get(f, kDwarfRsp, cb, &new_sp);
    // dwarf_step(): a step that changes neither ip nor cfa is a loop; ip 0 ends the chain.
    if (new_ip == 0 || (new_ip == ip && new_sp == cfa_before)) break;
    use_prev_instr = !signal;
    ips.push_back(signal ? new_ip : new_ip - 1);
  }
}

}  // namespace readperf
