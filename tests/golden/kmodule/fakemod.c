/* A stand-in kernel module for readperf's tests: functions in .text, a cold one in
   .text.unlikely, data objects; built as a relocatable object like a .ko. */
int fm_counter;
int fm_table[64];

__attribute__((noinline)) int fm_alpha(int x) {
  int s = 0;
  for (int i = 0; i < x; ++i) s += fm_table[i & 63] * i;
  return s;
}

__attribute__((noinline)) int fm_beta(int x) {
  int s = 1;
  for (int i = 0; i < x; ++i) s = s * 3 + fm_table[(i * 7) & 63];
  return s;
}

__attribute__((noinline, cold)) int fm_cold(int x) { return x * 17 + fm_counter; }

static __attribute__((noinline)) int fm_local(int x) { return fm_alpha(x) ^ fm_beta(x + 1); }

int fm_gamma(int x) {
  fm_counter += x;
  if (x < 0) return fm_cold(x);
  return fm_local(x) + fm_alpha(x / 2);
}
