/* A shared library whose hot loop calls through its PLT (-z ibtplt puts the entries perf 6.1
 * does not name in .plt.sec). */
int other_work(int x);
int other_more(int x);
int hot_loop(int n) {
  int acc = 0;
  for (int i = 0; i < n; ++i) acc += other_work(i) + other_more(i);
  return acc;
}
