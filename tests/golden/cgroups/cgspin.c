/* cgroups golden case of readperf: two children, each in its own cgroup v2 group, spin; the parent spins in its own. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define ROOT "/sys/fs/cgroup/unified/"

static volatile unsigned long sink;

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

__attribute__((noinline)) static unsigned long leaf(unsigned long x) {
  for (int i = 0; i < 1000; i++) x = x * 6364136223846793005ul + 1442695040888963407ul;
  return x;
}

__attribute__((noinline)) static void spin(double secs) {
  double end = now() + secs;
  unsigned long x = 1;
  while (now() < end) x = leaf(x);
  sink = x;
}

static void join(const char *group) {
  char path[256];
  snprintf(path, sizeof path, ROOT "%s/cgroup.procs", group);
  int fd = open(path, O_WRONLY);
  if (fd < 0) { perror(path); exit(1); }
  char pid[32];
  int n = snprintf(pid, sizeof pid, "%d\n", getpid());
  if (write(fd, pid, n) != n) { perror("write"); exit(1); }
  close(fd);
}

int main(int argc, char **argv) {
  double secs = argc > 1 ? atof(argv[1]) : 0.2;
  /* readperf-b is made while perf records: the kernel's own PERF_RECORD_CGROUP. */
  mkdir(ROOT "readperf-b", 0755);
  const char *groups[2] = {"readperf-a", "readperf-b"};
  pid_t kids[2];
  for (int i = 0; i < 2; i++) {
    kids[i] = fork();
    if (kids[i] == 0) {
      join(groups[i]);
      /* The second child gets a cgroup namespace of its own (a NAMESPACES record). */
      if (i == 1 && unshare(CLONE_NEWCGROUP) != 0) perror("unshare");
      spin(secs * (i + 1));
      _exit(0);
    }
  }
  spin(secs / 2);
  for (int i = 0; i < 2; i++) waitpid(kids[i], NULL, 0);
  return 0;
}
