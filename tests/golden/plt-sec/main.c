#include <stdio.h>
#include <stdlib.h>
int hot_loop(int n);
int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 100000000;
  printf("%d\n", hot_loop(n));
  return 0;
}
