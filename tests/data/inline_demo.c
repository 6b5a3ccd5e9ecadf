// A tiny program for the inline-frame and line-table tests (see README-inline_demo.md).
// square() and scale() are always inlined into compute(), which is kept out of line.
static inline __attribute__((always_inline)) int square(int x) {
  return x * x;
}

static inline __attribute__((always_inline)) int scale(int x) {
  return square(x) + 3;
}

__attribute__((noinline)) int compute(int x) {
  int s = 0;
  for (int i = 0; i < x; ++i) s += scale(i ^ x);
  return s;
}

int main(int argc, char** argv) {
  (void)argv;
  return compute(argc * 1000) & 0x7f;
}
