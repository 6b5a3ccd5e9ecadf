// `--branch-history` and `-g branch` (callchain_param.branch_callstack): a sample's call chain
// begins with its branch stack, each branch's target and source, as machine.c
// thread__resolve_callchain_sample() adds them ("Add branches to call stack for easier
// browsing"), then the recorded chain without the entries the branches stand for.
#include <algorithm>
#include <array>

#include "readperf/analysis/resolver.h"
#include "readperf/format/perf_abi.h"

namespace readperf {
namespace {

// machine.c PERF_MAX_BRANCH_DEPTH: a deeper stack is "corrupted", and only its chain is used.
constexpr uint64_t kMaxBranchDepth = 127;

// tools/include/linux/hash.h hash_64_generic() with bits = 7 (machine.c CHASHBITS).
uint32_t hash_from(uint64_t from) {
  constexpr uint64_t kGoldenRatio64 = 0x61C8864680B583EBull;
  return static_cast<uint32_t>((from * kGoldenRatio64) >> (64 - 7));
}

}  // namespace

size_t remove_branch_loops(std::vector<BranchHop>& hops, size_t nr) {
  // machine.c remove_loops(): a `from` seen before (by the first index its hash slot holds,
  // "no collision handling for now") starts a loop when the hops from there repeat; the
  // repetition is cut out and the scan goes on after it.
  constexpr size_t kSlots = 127;  // CHASHSZ
  constexpr uint8_t kNoEntry = 0xff;
  std::array<uint8_t, kSlots> slot;
  slot.fill(kNoEntry);
  for (size_t i = 0; i < nr; ++i) {
    uint32_t h = hash_from(hops[i].from) % kSlots;
    if (slot[h] == kNoEntry) {
      slot[h] = static_cast<uint8_t>(i);
    } else if (hops[slot[h]].from == hops[i].from) {
      bool is_loop = true;
      size_t off = 0;
      for (size_t j = slot[h]; j < i && i + off < nr; ++j, ++off) {
        if (hops[j].from != hops[i + off].from) {
          is_loop = false;
          break;
        }
      }
      if (is_loop) {
        size_t rest = nr - (i + off);
        if (rest > 0) {
          // save_iterations(): the hop after the cut counts one more loop, of the cut hops'
          // cycles.
          BranchHop& after = hops[i + off];
          ++after.nr_loop_iter;
          after.iter_cycles = 0;
          for (size_t k = i; k < i + off; ++k)
            after.iter_cycles += BranchFlags(hops[k].flags).cycles();
          std::copy(hops.begin() + static_cast<ptrdiff_t>(i + off),
                    hops.begin() + static_cast<ptrdiff_t>(nr),
                    hops.begin() + static_cast<ptrdiff_t>(i));
        }
        nr -= off;
      }
    }
  }
  return nr;
}

Frame Resolver::resolve_any_cpumode(const Thread& t, uint64_t addr) {
  // thread.c thread__find_cpumode_addr_location(): "Branches may straddle the
  // kernel/user/hypervisor boundaries", so each cpumode is tried until one has a map.
  static constexpr uint8_t kCpumodes[] = {kMiscUser, kMiscKernel, kMiscGuestUser, kMiscGuestKernel};
  Frame f;
  for (uint8_t cpumode : kCpumodes) {
    f = resolve_addr(t, cpumode, addr);
    if (f.map) break;
  }
  return f;
}

void Resolver::resolve_branch_history(const Thread& t, const Sample& s) {
  const BranchStack& b = s.branch_stack;
  const U64Array& chain = s.callchain;
  const bool callee = !options_.caller_order;
  int64_t chain_nr = static_cast<int64_t>(chain.size());
  size_t first_call = 0;
  std::vector<Frame>& out = result_.callchain;
  if (b.nr <= kMaxBranchDepth) {
    size_t nr = std::min<uint64_t>(options_.max_stack, b.nr);
    hops_.resize(nr);
    for (size_t i = 0; i < nr; ++i) {
      if (callee) {
        BranchEntry e = b.entry(i);
        hops_[i] = {e.from, e.to, e.flags};
        // "Check for overlap into the callchain": a chain entry that is a branch's return
        // address (the call at most 8 bytes before it), or a context marker, is skipped.
        // perf reads past the chain's end here; readperf stops at it.
        if (first_call >= chain.size()) continue;
        uint64_t ip = chain[first_call];
        if (ip >= kContextMax || (e.from < ip && e.from >= ip - 8)) ++first_call;
      } else {
        BranchEntry e = b.entry(b.nr - i - 1);
        hops_[i] = {e.from, e.to, e.flags};
      }
    }
    nr = remove_branch_loops(hops_, nr);
    for (size_t i = 0; i < nr; ++i) {
      const BranchHop& hop = hops_[i];
      Frame& to = out.emplace_back(resolve_any_cpumode(t, hop.to));
      to.branch = {.branch = true, .from = hop.from, .flags = hop.flags};
      Frame& from = out.emplace_back(resolve_any_cpumode(t, hop.from));
      from.branch = {.branch = true,
                     .flags = hop.flags,
                     .nr_loop_iter = hop.nr_loop_iter,
                     .iter_cycles = hop.iter_cycles};
    }
    if (chain_nr == 0) {
      if (!callee) std::reverse(out.begin(), out.end());
      return;
    }
    chain_nr -= static_cast<int64_t>(nr);
  }  // else perf warns "corrupted branch chain. skipping..." and uses the chain alone
  // check_calls: the recorded chain, markers switching the cpumode, user mode to begin with;
  // an unknown marker drops the whole cursor, branches included.
  uint8_t cpumode = kMiscUser;
  // Caller order: each entry takes the cpumode of the nearest marker before it
  // (find_prev_cpumode()), whether or not that marker is among the entries used.
  auto prev_marker = [&](size_t end) {
    for (size_t k = end; k-- > 0;) {
      if (chain[k] >= kContextMax) return context_cpumode(chain[k], cpumode);
    }
    return true;
  };
  if (!callee && !prev_marker(chain.size() - first_call)) {
    out.clear();
    return;
  }
  uint32_t entries = 0;
  for (int64_t i = static_cast<int64_t>(first_call); i < chain_nr && entries < options_.max_stack;
       ++i) {
    size_t j = callee ? static_cast<size_t>(i) : chain.size() - static_cast<size_t>(i) - 1;
    uint64_t ip = chain[j];
    if (ip >= kContextMax) {
      if (!(callee ? context_cpumode(ip, cpumode) : prev_marker(j))) {
        out.clear();
        return;
      }
      continue;
    }
    ++entries;
    out.push_back(resolve_addr(t, cpumode, ip));
  }
  // The cursor of caller order runs root first; ResolvedSample's chain is leaf first.
  if (!callee) std::reverse(out.begin(), out.end());
}

}  // namespace readperf
