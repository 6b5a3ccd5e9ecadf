// The unwinding of a user stack copy from DWARF call-frame information, as perf 6.1 with
// libunwind 1.6 does it on x86_64 (unwind-libunwind-local.c, libunwind's x86_64 Gstep.c
// unw_step() and dwarf_step()): CFI rules and expressions, then its fallbacks (PLT entries,
// the frame pointer).
#include "readperf/symbols/dwarf_unwind.h"

#include <dwarf.h>
#include <elfutils/libdw.h>

#include <array>
#include <cstdlib>
#include <memory>
#include <utility>

#include "cfi_file_impl.h"

namespace readperf {

int perf_reg_for_dwarf_x86_64(int dwarf_reg) {
  // arch/x86/include/uapi/asm/perf_regs.h PERF_REG_X86_*: AX 0, BX 1, CX 2, DX 3, SI 4, DI 5,
  // BP 6, SP 7, IP 8, ..., R8 16 ... R15 23.
  static constexpr int kMap[kDwarfRegCount] = {0,  3,  2,  1,  4,  5,  6,  7, 16,
                                               17, 18, 19, 20, 21, 22, 23, 8};
  return dwarf_reg >= 0 && dwarf_reg < kDwarfRegCount ? kMap[dwarf_reg] : -1;
}

namespace {

// Where a register of the frame being unwound is found, as libunwind's dwarf_loc_t: nowhere
// (DWARF_NULL_LOC, which its end-of-chain tests look at), a value, a memory word, or a sample
// register perf could not give (access_reg() fails when it is read, not before).
struct Loc {
  enum Kind : uint8_t { kNull, kValue, kMemory, kUnreadable } kind = kNull;
  uint64_t v = 0;
  static Loc value(uint64_t x) { return {kValue, x}; }
  static Loc memory(uint64_t a) { return {kMemory, a}; }
};

// libunwind's struct dwarf_cursor, the part x86_64 uses.
struct Cursor {
  std::array<Loc, kDwarfRegCount> loc{};
  uint64_t cfa = 0;  // also the frame's stack pointer: x86_64 Gregs.c reads RSP as the CFA
  uint64_t ip = 0;
  bool use_prev_instr = false;
  // sigcontext_format != X86_64_SCF_NONE: whether the last FDE found (tdep_fetch_frame(), on
  // the frame a step starts from) is a signal frame's ('S' augmentation). libunwind 1.6's
  // unw_is_signal_frame() answers this, so after a step it speaks of the frame just left:
  // perf decrements the ip of the frame returning into __restore_rt, and not the one after.
  bool signal_frame = false;
};

// dwarf_get(): false when the location cannot be read (libunwind returns an error).
bool get(const Loc& l, const UnwindCallbacks& cb, uint64_t* out) {
  switch (l.kind) {
    case Loc::kValue:
      *out = l.v;
      return true;
    case Loc::kMemory:
      return cb.read_word(l.v, out);
    default:
      return false;
  }
}

// unw_get_reg() of DWARF register `r` in cursor `c`.
bool get_reg(const Cursor& c, int r, const UnwindCallbacks& cb, uint64_t* out) {
  if (r < 0 || r >= kDwarfRegCount) return false;
  if (r == kDwarfRsp) {
    *out = c.cfa;
    return true;
  }
  return get(c.loc[r], cb, out);
}

// A DWARF expression of the kinds CFI holds (libunwind's dwarf_eval_expr()). The stack is
// bounded; registers read through get_reg(). `is_value` tells whether the result is a value
// (DW_OP_stack_value, or a bare register) rather than an address.
bool eval(const Dwarf_Op* ops, size_t nops, const Cursor& c, uint64_t cfa,
          const UnwindCallbacks& cb, uint64_t* out, bool* is_value) {
  constexpr size_t kMaxStack = 64;
  uint64_t st[kMaxStack];
  size_t n = 0;
  *is_value = false;
  auto pop = [&](uint64_t* v) {
    if (n == 0) return false;
    *v = st[--n];
    return true;
  };
  for (size_t i = 0; i < nops; ++i) {
    const Dwarf_Op& op = ops[i];
    const uint8_t a = op.atom;
    if (n >= kMaxStack - 1) return false;
    uint64_t x, y;
    if (a >= DW_OP_lit0 && a <= DW_OP_lit31) {
      st[n++] = a - DW_OP_lit0;
    } else if (a >= DW_OP_breg0 && a <= DW_OP_breg31) {
      if (!get_reg(c, a - DW_OP_breg0, cb, &x)) return false;
      st[n++] = x + op.number;
    } else if (a >= DW_OP_reg0 && a <= DW_OP_reg31) {
      if (!get_reg(c, a - DW_OP_reg0, cb, &x)) return false;
      st[n++] = x;
      *is_value = true;
    } else {
      switch (a) {
        case DW_OP_bregx:
          if (op.number > 64 || !get_reg(c, static_cast<int>(op.number), cb, &x)) return false;
          st[n++] = x + op.number2;
          break;
        case DW_OP_regx:
          if (op.number > 64 || !get_reg(c, static_cast<int>(op.number), cb, &x)) return false;
          st[n++] = x;
          *is_value = true;
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
        case DW_OP_swap:
          if (n < 2) return false;
          std::swap(st[n - 1], st[n - 2]);
          break;
        case DW_OP_deref:
          if (!pop(&x) || !cb.read_word(x, &y)) return false;
          st[n++] = y;
          break;
        case DW_OP_stack_value:
          *is_value = true;
          break;
        case DW_OP_nop:
          break;
        default: {
          if (!pop(&y) || !pop(&x)) return false;
          uint64_t r;
          switch (a) {
            case DW_OP_plus:
              r = x + y;
              break;
            case DW_OP_minus:
              r = x - y;
              break;
            case DW_OP_mul:
              r = x * y;
              break;
            case DW_OP_and:
              r = x & y;
              break;
            case DW_OP_or:
              r = x | y;
              break;
            case DW_OP_xor:
              r = x ^ y;
              break;
            case DW_OP_shl:
              r = x << (y & 63);
              break;
            case DW_OP_shr:
              r = x >> (y & 63);
              break;
            case DW_OP_shra:
              r = static_cast<uint64_t>(static_cast<int64_t>(x) >> (y & 63));
              break;
            case DW_OP_ge:
              r = static_cast<int64_t>(x) >= static_cast<int64_t>(y);
              break;
            case DW_OP_gt:
              r = static_cast<int64_t>(x) > static_cast<int64_t>(y);
              break;
            case DW_OP_le:
              r = static_cast<int64_t>(x) <= static_cast<int64_t>(y);
              break;
            case DW_OP_lt:
              r = static_cast<int64_t>(x) < static_cast<int64_t>(y);
              break;
            case DW_OP_eq:
              r = x == y;
              break;
            case DW_OP_ne:
              r = x != y;
              break;
            default:
              return false;
          }
          st[n++] = r;
        }
      }
    }
  }
  return pop(out);
}

// libunwind's return codes, as far as the walk cares.
enum class Step { kOk, kEnd, kNoInfo, kError };

// The FDE for `ip` (fetch_proc_info() → perf's find_proc_info()): .eh_frame at perf's base,
// else .debug_frame. Null with kNoInfo when neither covers it; kError when find_proc_info()
// fails outright.
Step find_frame(uint64_t ip, const UnwindCallbacks& cb, Dwarf_Frame** frame) {
  *frame = nullptr;
  CodeLocation loc;
  if (!cb.find_code(ip, &loc) || !loc.file) return Step::kError;
  const CfiFile::Impl& file = loc.file->impl();
  if (!file.eh_frame && !file.debug_frame) return Step::kError;
  if (file.eh_frame && ip >= loc.map_start && ip < loc.map_end) {
    Dwarf_Frame* f = nullptr;
    if (dwarf_cfi_addrframe(file.eh_frame, ip - loc.eh_frame_bias, &f) == 0) {
      *frame = f;
      return Step::kOk;
    }
  }
  if (file.debug_frame && ip >= loc.map_start && ip < loc.map_end) {
    Dwarf_Frame* f = nullptr;
    if (dwarf_cfi_addrframe(file.debug_frame, ip - loc.debug_frame_bias, &f) == 0) {
      *frame = f;
      return Step::kOk;
    }
  }
  // find_proc_info() returns the .eh_frame lookup's -UNW_ENOINFO, or -EINVAL when only a
  // .debug_frame was there to look in.
  return file.eh_frame ? Step::kNoInfo : Step::kError;
}

// Registers the x86_64 psABI has callee-saved (elfutils x86_64_abi_cfi() marks them
// same_value): an "undefined" from libdw for any other register is its default, where
// libunwind's initial state says "same".
bool callee_saved(int r) { return r == 3 || r == 6 || (r >= 12 && r <= 15) || r == kDwarfRip; }

// dwarf_step() → apply_reg_state().
Step dwarf_step(Cursor& c, const UnwindCallbacks& cb) {
  Dwarf_Frame* frame = nullptr;
  Step found = find_frame(c.use_prev_instr ? c.ip - 1 : c.ip, cb, &frame);
  if (found != Step::kOk) return found;
  std::unique_ptr<Dwarf_Frame, void (*)(void*)> owned(frame, free);
  bool signal = false;
  dwarf_frame_info(frame, nullptr, nullptr, &signal);
  c.signal_frame = signal;

  const uint64_t prev_ip = c.ip, prev_cfa = c.cfa;
  Dwarf_Op* ops = nullptr;
  size_t nops = 0;
  uint64_t cfa = 0;
  bool is_value = false;
  if (dwarf_frame_cfa(frame, &ops, &nops) != 0 || nops == 0 ||
      !eval(ops, nops, c, 0, cb, &cfa, &is_value)) {
    return Step::kError;
  }
  std::array<Loc, kDwarfRegCount> next = c.loc;
  for (int r = 0; r < kDwarfRegCount; ++r) {
    if (r == kDwarfRsp) continue;  // read as the CFA whatever its location
    Dwarf_Op mem[3];
    Dwarf_Op* rops = nullptr;
    size_t rn = 0;
    if (dwarf_frame_register(frame, r, mem, &rops, &rn) != 0) return Step::kError;
    if (rn == 0) {
      // Undefined (ops set) or same value (ops null).
      if (rops != nullptr && callee_saved(r)) next[r] = Loc{};
      continue;
    }
    // A register rule (the caller's value is in another register) copies its location.
    if (rn <= 2 && (rn == 1 || rops[1].atom == DW_OP_stack_value)) {
      int other = -1;
      const uint8_t a = rops[0].atom;
      if (a >= DW_OP_reg0 && a <= DW_OP_reg31) other = a - DW_OP_reg0;
      if (a == DW_OP_regx) other = static_cast<int>(rops[0].number);
      if (a == DW_OP_bregx && rops[0].number2 == 0 && rn == 2) {
        other = static_cast<int>(rops[0].number);
      }
      if (other >= 0 && other < kDwarfRegCount && other != kDwarfRsp) {
        next[r] = c.loc[other];
        continue;
      }
    }
    uint64_t v = 0;
    if (!eval(rops, rn, c, cfa, cb, &v, &is_value)) return Step::kError;
    next[r] = is_value ? Loc::value(v) : Loc::memory(v);
  }
  c.loc = next;
  c.cfa = cfa;
  c.use_prev_instr = !signal;  // fetch_proc_info(): "Update use_prev_instr for the next frame"
  Step st = Step::kOk;
  // "DWARF spec says undefined return address location means end of stack."
  if (c.loc[kDwarfRip].kind == Loc::kNull) {
    c.ip = 0;
    st = Step::kEnd;
  } else {
    uint64_t ip;
    if (!get(c.loc[kDwarfRip], cb, &ip)) return Step::kError;
    c.ip = ip;
  }
  if (c.ip == prev_ip && c.cfa == prev_cfa) return Step::kError;  // -UNW_EBADFRAME
  // A return address read as 0 still makes a frame: perf 6.1 with Debian's libunwind 1.6.2
  // shows it as ffffffffffffffff, then the next step finds no map and ends.
  return st;
}

bool read_code(uint64_t addr, const UnwindCallbacks& cb, uint64_t* w0, uint64_t* w1) {
  return addr + 16 > addr && cb.read_word(addr, w0) && cb.read_word(addr + 8, w1);
}

// x86_64 Gstep.c is_plt_entry(): "jmpq *x(%rip); pushq $n; jmpq y".
bool is_plt_entry(uint64_t ip, const UnwindCallbacks& cb) {
  uint64_t w0, w1;
  if (!read_code(ip, cb, &w0, &w1)) return false;
  return (w0 & 0xffff) == 0x25ff && ((w0 >> 48) & 0xff) == 0x68 && ((w1 >> 24) & 0xff) == 0xe9;
}

// x86_64 Gstep.c unw_step(): true while there is a caller.
bool unw_step(Cursor& c, const UnwindCallbacks& cb) {
  Step st = dwarf_step(c, cb);
  if (st == Step::kError) return false;
  if (st != Step::kNoInfo) {
    // "x86_64 ABI specifies that end of call-chain is marked with a NULL RBP or undefined
    // return address" (libunwind 1.6 tests RBP's location).
    if (c.loc[kDwarfRbp].kind == Loc::kNull) return false;
    return st == Step::kOk;
  }
  // "DWARF failed. There isn't much of a usable frame-chain on x86-64, but we do need to
  // handle two special-cases": signal trampolines and PLT stubs, else the frame pointer.
  const uint64_t prev_ip = c.ip, prev_cfa = c.cfa;
  if (c.signal_frame) {
    // x86_64_handle_signal_frame() is not modelled: a trampoline without CFI ends the walk.
    return false;
  } else if (is_plt_entry(c.ip, cb)) {
    c.loc[kDwarfRip] = Loc::memory(c.cfa);
    c.cfa += 8;
  } else if (c.loc[kDwarfRbp].kind == Loc::kNull) {
    c.loc.fill(Loc{});
  } else {
    uint64_t rbp = 0, unused = 0;
    if (!get(c.loc[kDwarfRbp], cb, &rbp)) return false;
    const bool invalid_prev_rip = !cb.read_word(prev_ip, &unused);
    Loc rbp_loc, rsp_loc, rip_loc;
    if (rbp != 0 || invalid_prev_rip) {
      bool fixed = false;
      if (invalid_prev_rip) {
        // "Check if previous RIP was invalid. This could happen if a bad function pointer
        // was followed and so the stack wasn't updated by the preamble".
        uint64_t rsp = 0, new_ip = 0;
        if (get(c.loc[kDwarfRsp], cb, &rsp) && cb.read_word(rsp, &new_ip) &&
            cb.read_word(new_ip, &unused)) {
          fixed = true;
          c.cfa += 8;
          rbp_loc = Loc::memory(rbp);
          rsp_loc = Loc::memory(rsp);
          rip_loc = Loc::memory(rsp);
        }
      }
      if (!fixed) {
        rbp_loc = Loc::memory(rbp);
        rip_loc = Loc::memory(rbp + 8);
        uint64_t rbp1 = 0;
        // "Heuristic to determine incorrect guess. For RBP to be a valid frame it needs to be
        // above current CFA, but don't let it go more than a little."
        if (!cb.read_word(rbp, &rbp1) || rbp < c.cfa || rbp - c.cfa > 0x4000) {
          rip_loc = Loc{};
          rbp_loc = Loc{};
        }
        c.cfa += 16;
      }
    }
    c.loc.fill(Loc{});
    c.loc[kDwarfRbp] = rbp_loc;
    c.loc[kDwarfRsp] = rsp_loc;
    c.loc[kDwarfRip] = rip_loc;
    c.use_prev_instr = true;
  }
  if (c.loc[kDwarfRbp].kind == Loc::kNull) return false;  // "NULL %rbp loc"
  bool more = false;
  if (c.loc[kDwarfRip].kind != Loc::kNull) {
    if (!get(c.loc[kDwarfRip], cb, &c.ip)) return false;
    more = true;
  } else {
    c.ip = 0;
  }
  if (c.ip == prev_ip && c.cfa == prev_cfa) return false;  // -UNW_EBADFRAME
  // A zero read from the frame chain still counts as a step (ret = 1): perf shows it as
  // ffffffffffffffff once decremented.
  return more;
}

}  // namespace

void unwind_x86_64(const UnwindRegs& regs, const UnwindCallbacks& cb, uint32_t max_stack,
                   std::vector<uint64_t>& ips) {
  ips.clear();
  // get_entries(): ips[0] is the sample's own ip; without it nothing is shown.
  if (!regs.has(kDwarfRip) || max_stack == 0) return;
  ips.push_back(regs.value[kDwarfRip]);
  if (max_stack < 2) return;
  // unw_init_remote() → x86_64 common_init(): every register where the sample has it, the
  // CFA from RSP; a missing RIP or RSP fails the init and leaves the one entry.
  Cursor c;
  for (int r = 0; r < kDwarfRegCount; ++r) {
    c.loc[r] = regs.has(r) ? Loc::value(regs.value[r]) : Loc{Loc::kUnreadable, 0};
  }
  if (!regs.has(kDwarfRsp)) return;
  c.ip = regs.value[kDwarfRip];
  c.cfa = regs.value[kDwarfRsp];
  // Each step either moves the CFA or is the last, but a hostile stack can still cycle:
  // max_stack bounds the walk as perf's ips[] array does.
  while (ips.size() < max_stack && unw_step(c, cb)) {
    // "Decrement the IP for any non-activation frames" (unw_is_signal_frame() <= 0).
    ips.push_back(c.signal_frame ? c.ip : c.ip - 1);
  }
}

}  // namespace readperf
