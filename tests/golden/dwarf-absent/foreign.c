/* Workload of the golden case `dwarf-absent`: user time in a few functions and kernel time in
 * write(2), so that samples have both user and kernel frames. */
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

static volatile unsigned long sink;

__attribute__((noinline)) static unsigned long mix(unsigned long x) {
  for (int i = 0; i < 2000; ++i) x = x * 6364136223846793005UL + 1442695040888963407UL;
  return x;
}

__attribute__((noinline)) static void compute(int rounds) {
  unsigned long x = 1;
  for (int r = 0; r < rounds; ++r) x = mix(x);
  sink = x;
}

__attribute__((noinline)) static void write_out(int fd, int rounds) {
  static char buffer[4096];
  for (int r = 0; r < rounds; ++r) (void)!write(fd, buffer, sizeof buffer);
}

int main(int argc, char **argv) {
  int rounds = argc > 1 ? atoi(argv[1]) : 100;
  int fd = open("/dev/null", O_WRONLY);
  for (int i = 0; i < rounds; ++i) {
    compute(1000);
    write_out(fd, 1000);
  }
  close(fd);
  return 0;
}
