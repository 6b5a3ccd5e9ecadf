#include <time.h>
#include <stdlib.h>
int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 20000000;
  struct timespec ts; long s = 0;
  for (long i = 0; i < n; ++i) { clock_gettime(CLOCK_MONOTONIC, &ts); s += ts.tv_nsec; }
  return (int)(s & 1);
}
