int other_work(int x) { return x * 3 + 1; }
int other_more(int x) { return x ^ 0x55; }
