/* The a2l-limit golden case: a static PIE whose first samples are all in the kernel (one long
   read of /dev/zero by a raw syscall), each with a user call chain through this binary; then
   time in its own code. perf 6.1's `report --children --sort srcline` asks addr2line about
   every chain entry's recorded address (no answer) before the first sample of its own: after
   123 it asks no more (srcline.c A2L_FAIL_LIMIT). Freestanding (-nostdlib): no libc, whose
   symbols and lines would depend on the machine's debug packages. */
static char zeros[256 << 20];

__attribute__((noinline)) static long sys3(long nr, long a, long b, long c) {
  long ret;
  __asm__ volatile("syscall"
                   : "=a"(ret)
                   : "a"(nr), "D"(a), "S"(b), "d"(c)
                   : "rcx", "r11", "memory");
  return ret;
}

__attribute__((noinline)) static long read_zeros(void) {
  long fd = sys3(2, (long)"/dev/zero", 0, 0);      /* open */
  long n = sys3(0, fd, (long)zeros, sizeof zeros); /* read */
  sys3(3, fd, 0, 0);                               /* close */
  return n;
}

__attribute__((noinline)) static long spin(long n) {
  volatile long x = 0;
  for (long i = 0; i < n; ++i) x += i * 3;
  return x;
}

__attribute__((noinline)) static int run(void) {
  long s = read_zeros();
  return (int)((s + spin(400000000)) & 1);
}

__attribute__((noreturn)) void entry(void) {
  long code = run();
  __asm__ volatile("syscall" : : "a"(231L), "D"(code)); /* exit_group */
  __builtin_unreachable();
}

/* The frame pointer chain ends here: rbp 0, the stack aligned as for a call. */
__asm__(".globl _start\n_start:\n  xor %ebp, %ebp\n  and $-16, %rsp\n  call entry\n");
