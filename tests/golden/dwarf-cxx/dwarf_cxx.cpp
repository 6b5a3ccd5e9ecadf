// Workload of the dwarf-cxx golden case (tests/golden/README.md): C++ built -O2 -g without
// frame pointers, profiled with `--call-graph dwarf`. It has what made readperf differ from
// perf on real C++ programs: members of a class in an anonymous namespace (DWARF gives them no
// linkage name, so addr2line names them from the symbol table, once), a virtual function
// inlined into itself, templates inlined into their callers, and recursion deeper than the
// recorded stack copy (past the copy's end, in the [stack] mapping, perf's unwinder reads a
// return address of 0), and a signal handler (frames through __restore_rt, whose CFI marks it
// a signal frame: libunwind decrements the ip returning into it and not the one after).
#include <algorithm>
#include <cstdio>
#include <csignal>
#include <cstdlib>
#include <vector>

namespace {

struct Shape {
  virtual ~Shape() = default;
  virtual double area(int depth) const = 0;
};

template <typename T>
inline T mix(T a, T b) {
  return a * static_cast<T>(31) + b;
}

struct Square final : Shape {
  explicit Square(double side) : side(side) {}
  double area(int depth) const override {
    if (depth > 0) {
      volatile char pad[112];
      pad[0] = static_cast<char>(depth);
      return area(depth - 1) + pad[0] * 1e-9;
    }
    double acc = 0;
    for (int i = 0; i < 4000; ++i) acc = mix(acc, side * i) * 1e-3;
    return acc;
  }
  double side;
};

struct Sorter {
  std::vector<unsigned> values;
  unsigned long run(unsigned seed) {
    for (unsigned& v : values) v = seed = mix(seed, 12345u);
    std::sort(values.begin(), values.end());
    return values[values.size() / 2];
  }
};

}  // namespace

__attribute__((noinline)) double shallow(const Shape& s) { return s.area(0); }
__attribute__((noinline)) double deep(const Shape& s, int depth) { return s.area(depth); }

__attribute__((noinline)) double descend(const Shape& s, int depth) {
  volatile char pad[64];
  pad[0] = static_cast<char>(depth);
  double r = depth > 0 ? descend(s, depth - 1) : shallow(s);
  return r + pad[0];
}

volatile double handled;

extern "C" void on_signal(int) {
  Square sq(2.5);
  const Shape& shape = sq;
  for (int i = 0; i < 20; ++i) handled = handled + shallow(shape);
}

int main(int argc, char** argv) {
  int rounds = argc > 1 ? std::atoi(argv[1]) : 200;
  Square sq(1.5);
  const Shape& shape = sq;
  Sorter sorter{std::vector<unsigned>(20000)};
  std::signal(SIGUSR1, on_signal);
  double total = 0;
  unsigned long median = 0;
  for (int r = 0; r < rounds; ++r) {
    for (int i = 0; i < 40; ++i) total += shallow(shape);
    for (int i = 0; i < 40; ++i) total += deep(shape, 6 + (i % 20));
    for (int i = 0; i < 40; ++i) total += descend(shape, 10 + (i % 20));
    median += sorter.run(static_cast<unsigned>(r));
    std::raise(SIGUSR1);
  }
  std::printf("%f %lu\n", total, median);
  return 0;
}
