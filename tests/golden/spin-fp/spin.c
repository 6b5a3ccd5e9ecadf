/* A small static workload for readperf's golden tests: recursion, a leaf loop, a fork. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile unsigned long sink;

__attribute__((noinline)) static unsigned long leaf(unsigned long x) {
  for (int i = 0; i < 20000; ++i) x = x * 6364136223846793005ul + 1442695040888963407ul;
  return x;
}

__attribute__((noinline)) static unsigned long recurse(int depth, unsigned long x) {
  if (depth == 0) return leaf(x);
  return recurse(depth - 1, x + depth) ^ depth;
}

__attribute__((noinline)) static void touch_memory(void) {
  size_t n = 8u << 20;
  char* p = malloc(n);
  memset(p, 1, n);
  sink += p[n / 2];
  free(p);
}

int main(void) {
  pid_t child = fork();
  for (int round = 0; round < 3000; ++round) {
    sink += recurse(6, round);
    if (round % 500 == 0) touch_memory();
  }
  if (child == 0) return 0;
  waitpid(child, NULL, 0);
  printf("%lu\n", sink & 1);
  return 0;
}
