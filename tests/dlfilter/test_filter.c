/* readperf's tests: a `script --dlfilter` shared object that calls every function of perf
 * 6.1's dlfilter interface (include/perf/perf_dlfilter.h) and prints what it gets, so that
 * perf 6.1 and readperf can be compared on it. Its structures are declared here, as the
 * interface lays them out, so that it builds without perf's header.
 *
 *   cc -shared -fPIC -o test_filter.so test_filter.c
 *   readperf script --dlfilter ./test_filter.so --dlarg a --dlarg b -i perf.data
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

struct perf_dlfilter_sample {
  uint32_t size;
  uint16_t ins_lat;
  uint16_t p_stage_cyc;
  uint64_t ip;
  int32_t pid;
  int32_t tid;
  uint64_t time, addr, id, stream_id, period, weight, transaction, insn_cnt, cyc_cnt;
  int32_t cpu;
  uint32_t flags;
  uint64_t data_src, phys_addr, data_page_size, code_page_size, cgroup;
  uint8_t cpumode;
  uint8_t addr_correlates_sym;
  uint16_t misc;
  uint32_t raw_size;
  const void *raw_data;
  uint64_t brstack_nr;
  const void *brstack;
  uint64_t raw_callchain_nr;
  const uint64_t *raw_callchain;
  const char *event;
  int32_t machine_pid;
  int32_t vcpu;
};

struct perf_dlfilter_al {
  uint32_t size;
  uint32_t symoff;
  const char *sym;
  uint64_t addr;
  uint64_t sym_start;
  uint64_t sym_end;
  const char *dso;
  uint8_t sym_binding;
  uint8_t is_64_bit;
  uint8_t is_kernel_ip;
  uint32_t buildid_size;
  uint8_t *buildid;
  uint8_t filtered;
  const char *comm;
};

struct perf_dlfilter_fns {
  const struct perf_dlfilter_al *(*resolve_ip)(void *ctx);
  const struct perf_dlfilter_al *(*resolve_addr)(void *ctx);
  char **(*args)(void *ctx, int *dlargc);
  int32_t (*resolve_address)(void *ctx, uint64_t address, struct perf_dlfilter_al *al);
  const uint8_t *(*insn)(void *ctx, uint32_t *length);
  const char *(*srcline)(void *ctx, uint32_t *line_number);
  void *(*attr)(void *ctx);
  int32_t (*object_code)(void *ctx, uint64_t ip, void *buf, uint32_t len);
  void *(*reserved[120])(void *);
};

struct perf_dlfilter_fns perf_dlfilter_fns;

static int early_calls, late_calls, dropped;

static void print_al(const char *what, const struct perf_dlfilter_al *al) {
  if (!al) {
    printf("  %s: none\n", what);
    return;
  }
  printf(
      "  %s: sym=%s symoff=%#x addr=%#llx start=%#llx end=%#llx dso=%s binding=%u 64=%u "
      "kernel=%u buildid=%u\n",
      what, al->sym ? al->sym : "(null)", al->symoff, (unsigned long long)al->addr,
      (unsigned long long)al->sym_start, (unsigned long long)al->sym_end,
      al->dso ? al->dso : "(null)", al->sym_binding, al->is_64_bit, al->is_kernel_ip,
      al->buildid_size);
}

int start(void **data, void *ctx) {
  int argc = 0;
  char **argv = perf_dlfilter_fns.args(ctx, &argc);
  printf("start:");
  for (int i = 0; i < argc; i++) printf(" %s", argv[i]);
  printf("\n");
  *data = &late_calls;
  return 0;
}

int stop(void *data, void *ctx) {
  (void)ctx;
  printf("stop: early %d late %d dropped %d data %s\n", early_calls, *(int *)data, dropped,
         data == &late_calls ? "ok" : "lost");
  return 0;
}

int filter_event_early(void *data, const struct perf_dlfilter_sample *s, void *ctx) {
  (void)data;
  (void)ctx;
  /* Every fifth sample goes before script's own filters. */
  if (++early_calls % 5 == 0) {
    dropped++;
    return 1;
  }
  return 0;
}

int filter_event(void *data, const struct perf_dlfilter_sample *s, void *ctx) {
  int n = ++*(int *)data;
  printf(
      "sample %d: size=%u event=%s ip=%#llx pid=%d tid=%d time=%llu cpu=%d period=%llu "
      "cpumode=%u misc=%u raw=%u brstack=%llu chain=%llu addr=%#llx correlates=%u "
      "data_src=%#llx weight=%llu vcpu=%d\n",
      n, s->size, s->event, (unsigned long long)s->ip, s->pid, s->tid, (unsigned long long)s->time,
      s->cpu, (unsigned long long)s->period, s->cpumode, s->misc, s->raw_size,
      (unsigned long long)s->brstack_nr, (unsigned long long)s->raw_callchain_nr,
      (unsigned long long)s->addr, s->addr_correlates_sym, (unsigned long long)s->data_src,
      (unsigned long long)s->weight, s->vcpu);
  if (s->raw_callchain_nr) printf("  chain[0]=%#llx\n", (unsigned long long)s->raw_callchain[0]);
  const struct perf_dlfilter_al *ip = perf_dlfilter_fns.resolve_ip(ctx);
  print_al("ip", ip);
  if (ip) printf("  comm=%s filtered=%u\n", ip->comm, ip->filtered);
  if (s->addr_correlates_sym) print_al("addr", perf_dlfilter_fns.resolve_addr(ctx));
  struct perf_dlfilter_al al;
  memset(&al, 0, sizeof(al));
  al.size = sizeof(al);
  if (perf_dlfilter_fns.resolve_address(ctx, s->ip, &al) == 0) print_al("address", &al);
  /* The source lines of the system's libraries come from its debug packages (libc6-dbg),
   * which the machines running the tests may not have: asked for the others only. */
  if (!ip || !ip->dso || strncmp(ip->dso, "/usr/lib/", 9) != 0) {
    uint32_t line = 0;
    const char *file = perf_dlfilter_fns.srcline(ctx, &line);
    printf("  srcline=%s:%u\n", file ? file : "(null)", line);
  }
  const uint32_t *attr = perf_dlfilter_fns.attr(ctx);
  if (attr) printf("  attr type=%u size=%u\n", attr[0], attr[1]);
  uint32_t len = 0;
  const uint8_t *insn = perf_dlfilter_fns.insn(ctx, &len);
  printf("  insn len=%u", len);
  for (uint32_t i = 0; insn && i < len; i++) printf(" %02x", insn[i]);
  unsigned char code[4];
  int32_t got = perf_dlfilter_fns.object_code(ctx, s->ip, code, sizeof(code));
  printf(" object_code=%d", got);
  for (int32_t i = 0; i < got; i++) printf(" %02x", code[i]);
  printf("\n");
  /* Every third sample is dropped after script's filters. */
  if (n % 3 == 0) {
    dropped++;
    return 1;
  }
  return 0;
}

const char *filter_description(const char **long_description) {
  *long_description = "Prints what perf's dlfilter interface hands it\nand drops some samples";
  return "readperf's dlfilter interface test";
}
