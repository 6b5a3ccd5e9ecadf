/* A program whose local functions are named only in its .gnu_debugdata (MiniDebugInfo). */
#include <stdio.h>

static __attribute__((noinline)) unsigned hidden_mix(unsigned x) {
  return x * 2654435761u ^ (x >> 13);
}

static __attribute__((noinline)) unsigned hidden_loop(unsigned n) {
  unsigned h = 0;
  for (unsigned i = 0; i < n; ++i) h = hidden_mix(h + i);
  return h;
}

__attribute__((noinline)) unsigned exported_entry(unsigned n) { return hidden_loop(n); }

int main(int argc, char** argv) {
  (void)argv;
  printf("%u\n", exported_entry(1000u * (unsigned)argc));
  return 0;
}
