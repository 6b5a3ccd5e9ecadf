// The print_* functions of perf 6.1's util/header.c, one per feature, byte for byte.
#include <fmt/format.h>

#include <ctime>
#include <string_view>

#include "header_print.h"
#include "readperf/format/perf_abi.h"
#include "readperf/reader/event_name.h"

namespace readperf::header_detail {

namespace {

// glibc's printf prints a NULL string as "(null)"; perf's env keeps NULL for a string feature
// it could not read.
std::string_view or_null(const std::optional<std::string>& s) {
  return s ? std::string_view(*s) : std::string_view("(null)");
}

void print_cmdline(const Features& env, OutBuffer& out) {
  out.write("# cmdline : ");
  if (env.cmdline) {
    for (const std::string& arg : *env.cmdline) {
      // A quote is written as \' so that the line can be pasted back into a shell.
      for (char ch : arg) {
        if (ch == '\'')
          out.write("\\'");
        else
          out.put(ch);
      }
      out.put(' ');
    }
  }
  out.put('\n');
}

void print_cpu_topology(const Features& env, OutBuffer& out) {
  static const CpuTopology kNone;
  const CpuTopology& t = env.cpu_topology ? *env.cpu_topology : kNone;
  for (const auto& s : t.sibling_cores) out.print("# sibling sockets : {}\n", s);
  for (const auto& s : t.sibling_dies) out.print("# sibling dies    : {}\n", s);
  for (const auto& s : t.sibling_threads) out.print("# sibling threads : {}\n", s);
  const bool dies = !t.sibling_dies.empty();
  if (!t.cpus) {
    out.write(dies ? "# Core ID, Die ID and Socket ID information is not available\n"
                   : "# Core ID and Socket ID information is not available\n");
    return;
  }
  // One line per available CPU (NRCPUS), as perf sized its table.
  const int32_t cpu_nr = static_cast<int32_t>(env.nr_cpus_avail);
  for (int32_t i = 0; i < cpu_nr && static_cast<size_t>(i) < t.cpus->size(); ++i) {
    const CpuTopology::Cpu& cpu = (*t.cpus)[i];
    if (dies) {
      out.print("# CPU {}: Core ID {}, Die ID {}, Socket ID {}\n", i, cpu.core_id, cpu.die_id,
                cpu.socket_id);
    } else {
      out.print("# CPU {}: Core ID {}, Socket ID {}\n", i, cpu.core_id, cpu.socket_id);
    }
  }
}

void print_numa_topology(const Features& env, OutBuffer& out) {
  if (!env.numa_nodes) return;
  for (const NumaNode& n : *env.numa_nodes) {
    out.print("# node{} meminfo  : total = {} kB, free = {} kB\n", n.node, n.mem_total, n.mem_free);
    out.print("# node{} cpu list : {}\n", n.node, cpu_list_string(n.cpus));
  }
}

void print_pmu_mappings(const Features& env, OutBuffer& out) {
  if (!env.pmu_mappings || env.pmu_mappings->empty()) {
    out.write("# pmu mappings: not available\n");
    return;
  }
  std::string_view delimiter = "# pmu mappings: ";
  for (const PmuMapping& m : *env.pmu_mappings) {
    out.print("{}{} = {}", delimiter, m.name, m.type);
    delimiter = ", ";
  }
  out.put('\n');
}

// print_group_desc(): the groups as process_group_desc() set the events' leaders, each
// "{leader,member,...}" with the group's name before it.
void print_group_desc(const PrintContext& ctx, OutBuffer& out) {
  if (!ctx.env.group_desc) return;
  const auto& groups = *ctx.env.group_desc;
  size_t g = 0;
  uint32_t nr = 0;
  for (size_t idx = 0; idx < ctx.events.size(); ++idx) {
    const Evsel& ev = ctx.events[idx];
    if (g < groups.size() && idx == groups[g].leader_idx) {
      const GroupDesc& d = groups[g++];
      if (d.nr_members > 1) {
        // "{anon_group}" is perf's placeholder for a group without a name.
        std::string_view name = d.name == "{anon_group}" ? "" : std::string_view(d.name);
        out.print("# group: {}{{{}", name, event_name(ev));
        nr = d.nr_members - 1;
      }
    } else if (nr) {
      out.print(",{}", event_name(ev));
      if (--nr == 0) out.write("}\n");
    }
  }
}

void print_cache(const Features& env, OutBuffer& out) {
  out.write("# CPU cache info:\n");
  if (!env.caches) return;
  for (const CacheLevel& c : *env.caches) {
    out.print("#  L{} {:<15} {:>8} [{}]\n", static_cast<int32_t>(c.level), c.type, c.size, c.map);
  }
}

// time-utils.c timestamp__scnprintf_usec().
std::string usec_string(uint64_t ns) {
  return fmt::format("{}.{:06}", ns / 1000000000, ns % 1000000000 / 1000);
}

void print_sample_time(const Features& env, OutBuffer& out) {
  auto [first, last] = env.sample_time.value_or(std::pair<uint64_t, uint64_t>{0, 0});
  out.print("# time of first sample : {}\n", usec_string(first));
  out.print("# time of last sample : {}\n", usec_string(last));
  out.print("# sample duration : {:10.3f} ms\n", static_cast<double>(last - first) / 1000000);
}

// units.c unit_number__scnprintf(): divide by 1024 while more than one unit is left.
std::string unit_number(uint64_t n) {
  const char unit[] = "BKMG";
  int i = 0;
  while (n / 1024 > 1 && i < 3) {
    n /= 1024;
    ++i;
  }
  return fmt::format("{}{}", n, unit[i]);
}

// tools/lib/bitmap.c bitmap_scnprintf() into perf's 100-byte buffer: "0-23,32-199".
std::string bitmap_string(const MemoryNode& n) {
  auto bit = [&](uint64_t i) {
    return i / 64 < n.bitmap.size() && (n.bitmap[i / 64] >> (i % 64)) & 1;
  };
  std::string s;
  uint64_t i = 0;
  while (i < n.nbits) {
    if (!bit(i)) {
      ++i;
      continue;
    }
    uint64_t start = i;
    while (i + 1 < n.nbits && bit(i + 1)) ++i;
    if (!s.empty()) s += ',';
    s += fmt::format("{}", static_cast<int32_t>(start));
    if (start < i) s += fmt::format("-{}", static_cast<int32_t>(i));
    ++i;
  }
  if (s.size() > 99) s.resize(99);
  return s;
}

void print_mem_topology(const Features& env, OutBuffer& out) {
  static const MemTopology kNone;
  const MemTopology& t = env.mem_topology ? *env.mem_topology : kNone;
  out.print("# memory nodes (nr {}, block size {:#x}):\n", static_cast<int32_t>(t.nodes.size()),
            t.block_size);
  for (const MemoryNode& n : t.nodes) {
    uint64_t weight = 0;
    for (uint64_t i = 0; i < n.nbits; ++i) weight += (n.bitmap[i / 64] >> (i % 64)) & 1;
    out.print("#  {:>3} [{}]: {}\n", n.node, unit_number(t.block_size * weight), bitmap_string(n));
  }
}

void print_clock_data(const Features& env, OutBuffer& out) {
  if (!env.clock_data) {
    out.write("# reference time disabled\n");
    return;
  }
  const ClockData& d = *env.clock_data;
  int64_t tod_sec = static_cast<int64_t>(d.tod_ns / 1000000000);
  int32_t tod_usec = static_cast<int32_t>(d.tod_ns % 1000000000 / 1000);
  int64_t clk_sec = static_cast<int64_t>(d.clockid_ns / 1000000000);
  int64_t clk_nsec = static_cast<int64_t>(d.clockid_ns % 1000000000);
  std::string tstr = "<error>";
  time_t t = static_cast<time_t>(tod_sec);
  struct tm tm;
  if (localtime_r(&t, &tm)) {
    char date[64];
    strftime(date, sizeof date, "%F %T", &tm);
    tstr = fmt::format("{}.{:06}", date, tod_usec);
  }
  std::string_view name = clockid_name(static_cast<int32_t>(d.clockid));
  out.print("# clockid: {} ({})\n", name, d.clockid);
  out.print("# reference time: {} = {}.{:06} (TOD) = {}.{:09} ({})\n", tstr, tod_sec, tod_usec,
            clk_sec, clk_nsec, name);
}

// header.c __print_pmu_caps().
void print_pmu_caps(const PmuCaps& p, OutBuffer& out) {
  if (p.caps.empty()) {
    out.print("# {} pmu capabilities: not available\n", p.pmu_name);
    return;
  }
  out.print("# {} pmu capabilities: ", p.pmu_name);
  std::string_view delimiter;
  for (const auto& [name, value] : p.caps) {
    out.print("{}{}={}", delimiter, name, value);
    delimiter = ", ";
  }
  out.put('\n');
}

bool full_only(uint32_t feature) {
  switch (feature) {
    case kFeatCpuTopology:
    case kFeatNumaTopology:
    case kFeatCache:
    case kFeatMemTopology:
    case kFeatHybridTopology:
      return true;
    default:
      return false;
  }
}

}  // namespace

std::string_view clockid_name(int32_t id) {
  switch (id) {
    case 1:
      return "monotonic";
    case 4:
      return "monotonic_raw";
    case 0:
      return "realtime";
    case 7:
      return "boottime";
    case 11:
      return "tai";
    default:
      return "(not found)";
  }
}

bool has_print(uint32_t feature) { return feature > kFeatBuildId && feature < kFeatLastFeature6_1; }

void print_feature(uint32_t feature, const PrintContext& ctx, OutBuffer& out) {
  const Features& env = ctx.env;
  if (!has_print(feature)) return;
  if (full_only(feature) && !ctx.full) {
    out.print("# {} info available, use -I to display\n", feature_name(feature));
    return;
  }
  switch (feature) {
    case kFeatHostname:
      out.print("# hostname : {}\n", or_null(env.hostname));
      break;
    case kFeatOsRelease:
      out.print("# os release : {}\n", or_null(env.os_release));
      break;
    case kFeatVersion:
      out.print("# perf version : {}\n", or_null(env.version));
      break;
    case kFeatArch:
      out.print("# arch : {}\n", or_null(env.arch));
      break;
    case kFeatNrCpus:
      out.print("# nrcpus online : {}\n# nrcpus avail : {}\n", env.nr_cpus_online,
                env.nr_cpus_avail);
      break;
    case kFeatCpuDesc:
      out.print("# cpudesc : {}\n", or_null(env.cpudesc));
      break;
    case kFeatCpuId:
      out.print("# cpuid : {}\n", or_null(env.cpuid));
      break;
    case kFeatTotalMem:
      out.print("# total memory : {} kB\n", env.total_mem.value_or(0));
      break;
    case kFeatCmdline:
      print_cmdline(env, out);
      break;
    case kFeatEventDesc:
      print_event_desc(ctx, out);
      break;
    case kFeatCpuTopology:
      print_cpu_topology(env, out);
      break;
    case kFeatNumaTopology:
      print_numa_topology(env, out);
      break;
    case kFeatBranchStack:
      out.write("# contains samples with branch stack\n");
      break;
    case kFeatPmuMappings:
      print_pmu_mappings(env, out);
      break;
    case kFeatGroupDesc:
      print_group_desc(ctx, out);
      break;
    case kFeatAuxtrace:
      out.write("# contains AUX area data (e.g. instruction trace)\n");
      break;
    case kFeatStat:
      out.write("# contains stat data\n");
      break;
    case kFeatCache:
      print_cache(env, out);
      break;
    case kFeatSampleTime:
      print_sample_time(env, out);
      break;
    case kFeatMemTopology:
      print_mem_topology(env, out);
      break;
    case kFeatClockid:
      // perf prints the clock's resolution in ns times 1000 as its "frequency".
      out.print("# clockid frequency: {} MHz\n", env.clockid_res_ns.value_or(0) * 1000);
      break;
    case kFeatDirFormat:
      out.print("# directory data version : {}\n", env.dir_format.value_or(0));
      break;
    case kFeatBpfProgInfo:
      print_bpf_prog_info(ctx, out);
      break;
    case kFeatBpfBtf:
      for (const auto& [id, btf] : env.bpf_btfs) out.print("# btf info of id {}\n", id);
      break;
    case kFeatCompressed: {
      Features::Compressed z = env.compressed.value_or(Features::Compressed{});
      out.print("# compressed : {}, level = {}, ratio = {}\n", z.type == 1 ? "Zstd" : "Unknown",
                static_cast<int32_t>(z.level), static_cast<int32_t>(z.ratio));
      break;
    }
    case kFeatCpuPmuCaps: {
      PmuCaps none;
      none.pmu_name = "cpu";
      print_pmu_caps(env.cpu_pmu_caps ? *env.cpu_pmu_caps : none, out);
      break;
    }
    case kFeatClockData:
      print_clock_data(env, out);
      break;
    case kFeatHybridTopology:
      out.write("# hybrid cpu system:\n");
      if (env.hybrid_nodes) {
        for (const HybridNode& n : *env.hybrid_nodes) {
          out.print("# {} cpu list : {}\n", n.pmu_name, n.cpus);
        }
      }
      break;
    case kFeatPmuCaps:
      if (env.pmu_caps) {
        for (const PmuCaps& p : *env.pmu_caps) print_pmu_caps(p, out);
      }
      break;
    default:
      break;
  }
}

std::string cpu_list_string(const std::vector<int>& cpus) {
  // libperf's map is sorted; runs of consecutive cpus print as "first-last".
  std::string s;
  size_t i = 0;
  while (i < cpus.size()) {
    size_t j = i;
    while (j + 1 < cpus.size() && cpus[j + 1] == cpus[j] + 1) ++j;
    if (!s.empty()) s += ',';
    s += j == i ? fmt::format("{}", cpus[i]) : fmt::format("{}-{}", cpus[i], cpus[j]);
    i = j + 1;
  }
  return s;
}

}  // namespace readperf::header_detail
