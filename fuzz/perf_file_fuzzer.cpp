// A whole recording from memory through every printer that reads it all.
#include <unistd.h>

#include <cstring>
#include <string>
#include <vector>

#include "fuzz_targets.h"
#include "fuzz_util.h"
#include "readperf/output/dump_printer.h"
#include "readperf/output/header_printer.h"
#include "readperf/output/out_buffer.h"
#include "readperf/output/script_printer.h"
#include "readperf/output/stats_printer.h"
#include "readperf/reader/perf_data.h"

namespace readperf::fuzz {

namespace {

std::vector<std::byte> copy(const uint8_t* data, size_t size) {
  std::vector<std::byte> v(size);
  if (size) std::memcpy(v.data(), data, size);
  return v;
}

// Symbols are looked up where nothing exists: the input names the files, and reading the
// machine's binaries would make runs slow and depend on the host (fuzz_elf_symbols covers
// the ELF loader).
ScriptConfig script_config() {
  constexpr const char* kNowhere = "/nonexistent/readperf-fuzz";
  ScriptConfig cfg;
  cfg.symbols.buildid_dir = kNowhere;
  cfg.symbols.symfs = kNowhere;
  cfg.symbols.proc_kallsyms = kNowhere;
  cfg.symbols.proc_osrelease = kNowhere;
  cfg.symbols.sys_kernel_notes = kNowhere;
  return cfg;
}

}  // namespace

int fuzz_perf_file(const uint8_t* data, size_t size) {
  // Each printer reads the recording once, so each gets its own PerfData.
  auto open = [&] { return PerfData::open_bytes(copy(data, size), "perf.data"); };
  auto first = open();
  if (!first) return 0;
  OutBuffer out(null_file());
  (void)run_dump(**first, out);

  if (auto pd = open()) (void)run_header(**pd, /*show_info=*/true, out);

  if (auto pd = open()) {
    StatsCounter counts;
    counts.events = &(*pd)->events();
    counts.order = (*pd)->order();
    PerfData::ProcessOptions po;
    po.ordered = false;
    po.decode_samples = false;
    (void)(*pd)->process(counts, po);
    print_aggregated_stats(counts, **pd, out);
    print_event_stats(counts, **pd, out, (*pd)->kind() == ContainerKind::kPipe);
  }

  if (auto pd = open()) (void)run_script(**pd, script_config(), out, null_file());

  // The same bytes as a file on disk: records come through the reader's pread() window and
  // are copied into the ordered queue, which the in-memory image above does not do.
  int fd = memory_fd(data, size);
  if (fd >= 0) {
    if (auto pd = PerfData::open("/proc/self/fd/" + std::to_string(fd))) {
      (void)run_script(**pd, script_config(), out, null_file());
    }
    ::close(fd);
  }
  return 0;
}

}  // namespace readperf::fuzz
