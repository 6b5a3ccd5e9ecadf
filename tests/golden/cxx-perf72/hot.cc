// A C++ workload for perf 6.4+'s demangling: parameters, templates, a clone, a const method.
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace work {

template <typename T>
__attribute__((noinline)) T accumulate(const std::vector<T>& v, T start) {
  T sum = start;
  for (const T& x : v) sum = sum * 3 + x;
  return sum;
}

class Spinner {
 public:
  explicit Spinner(long n) : n_(n) {}
  __attribute__((noinline)) long spin(long rounds) const {
    long acc = 0;
    for (long i = 0; i < rounds * n_; ++i) acc += i ^ (acc >> 3);
    return acc;
  }

 private:
  long n_;
};

// Called with a constant: GCC makes a .constprop clone.
static __attribute__((noinline)) double scale(double x, int factor) {
  double r = x;
  for (int i = 0; i < 2000; ++i) r = r * 1.0000001 + factor;
  return r;
}

}  // namespace work

int main(int argc, char** argv) {
  long rounds = argc > 1 ? std::atol(argv[1]) : 3000;
  std::vector<long> v(4000, 7);
  std::vector<double> d(4000, 1.5);
  work::Spinner s(1000);
  long total = 0;
  double dt = 0;
  for (long r = 0; r < rounds; ++r) {
    total += work::accumulate(v, r);
    dt += work::accumulate(d, 0.5);
    total += s.spin(3);
    dt += work::scale(dt, 3);
  }
  std::printf("%ld %f\n", total, dt);
  return 0;
}
