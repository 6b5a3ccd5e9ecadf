// Workload of the dwarf-inline-forks golden case (tests/golden/README.md): processes forked
// from one program (no exec: each child's maps are copies of its parent's, other `struct
// map`s to perf) run the same functions, whose hot code is inlined (always_inline helpers),
// profiled with `--call-graph dwarf`. perf 6.1's `report --children` moves an inline frame's
// entry to its function each time a sample of another process meets it (hist.c
// hists__findnew_entry() looks the symbol up again in the new map).
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

static inline __attribute__((always_inline)) unsigned mix(unsigned a, unsigned b) {
  a ^= b * 2654435761u;
  return (a << 7) | (a >> 25);
}

static inline __attribute__((always_inline)) unsigned round_of(unsigned h, unsigned i) {
  for (unsigned k = 0; k < 64; ++k) h = mix(h, i + k);
  return h;
}

__attribute__((noinline)) unsigned churn(unsigned seed, unsigned n) {
  unsigned h = seed;
  for (unsigned i = 0; i < n; ++i) h = round_of(h, i);
  return h;
}

__attribute__((noinline)) unsigned work(unsigned seed, unsigned n) {
  unsigned h = 0;
  for (int r = 0; r < 4; ++r) h += churn(seed + r, n);
  return h;
}

int main(int argc, char** argv) {
  unsigned n = argc > 1 ? (unsigned)atoi(argv[1]) : 100000;
  int procs = argc > 2 ? atoi(argv[2]) : 4;
  for (int p = 0; p < procs; ++p) {
    if (fork() == 0) {
      printf("%u\n", work((unsigned)p, n) & 1);
      return 0;
    }
  }
  unsigned h = work(99, n / 2);
  while (wait(NULL) > 0) {
  }
  printf("%u\n", h & 1);
  return 0;
}
