#include "report_block_view.h"

#include <fmt/format.h>

#include <array>
#include <string>

#include "readperf/session/dso.h"

namespace readperf {

namespace {

struct BlockColumn {
  std::string_view name;
  int width;
};

// block-info.c block_columns[], in builtin-report.c's block_hpps[] order.
constexpr std::array<BlockColumn, 6> kColumns = {{{"Sampled Cycles%", 15},
                                                  {"Sampled Cycles", 14},
                                                  {"Avg Cycles%", 11},
                                                  {"Avg Cycles", 10},
                                                  {"[Program Block Range]", 70},
                                                  {"Shared Object", 20}}};

// block-info.c cycles_string().
std::string cycles_string(uint64_t cycles) {
  if (cycles >= 1000000) return fmt::format("{:.1f}M", static_cast<double>(cycles) / 1000000.0);
  if (cycles >= 1000) return fmt::format("{:.1f}K", static_cast<double>(cycles) / 1000.0);
  // "%1d" of a u64: its low 32 bits as an int.
  return fmt::format("{}", static_cast<int>(static_cast<uint32_t>(cycles)));
}

// "%*.2f%%" at width - 1.
std::string pct(double v, int width) { return fmt::format("{:>{}.2f}%", v, width - 1); }

bool unknown_srcline(std::string_view s) { return s.starts_with("??:0"); }

}  // namespace

void print_block_table(const BlockReport& r, OutBuffer& out) {
  out.write("# ");
  for (size_t i = 0; i < kColumns.size(); ++i) {
    if (i) out.write("  ");
    out.print("{:>{}}", kColumns[i].name, kColumns[i].width);
  }
  out.write("\n# ");
  for (size_t i = 0; i < kColumns.size(); ++i) {
    if (i) out.write("  ");
    out.write(std::string(static_cast<size_t>(kColumns[i].width), '.'));
  }
  out.write("\n#\n");
  for (const BlockReport::Entry& e : r.entries) {
    double total_pct = r.total_cycles ? 100.0 * static_cast<double>(e.cycles_aggr) /
                                            static_cast<double>(r.total_cycles)
                                      : 0.0;
    const uint64_t avg = e.cycles_aggr / e.num_aggr;
    double avg_pct = r.block_cycles
                         ? 100.0 * static_cast<double>(avg) / static_cast<double>(r.block_cycles)
                         : 0.0;
    // block_range_entry(): the two ends' srclines, else their offsets ("[%7lx -> %7lx]"), in
    // a 128-byte buffer.
    std::string range = !unknown_srcline(e.start_line) && !unknown_srcline(e.end_line)
                            ? fmt::format("[{} -> {}]", e.start_line, e.end_line)
                            : fmt::format("[{:>7x} -> {:>7x}]", e.start, e.end);
    if (range.size() > 127) range.resize(127);
    out.write("  ");
    out.write(pct(total_pct, kColumns[0].width));
    out.print("  {:>{}}", cycles_string(e.cycles_aggr), kColumns[1].width);
    out.write("  ");
    out.write(pct(avg_pct, kColumns[2].width));
    out.print("  {:>{}}", cycles_string(avg), kColumns[3].width);
    out.print("  {:>{}}", range, kColumns[4].width);
    out.print("  {:>{}}\n", e.dso ? std::string_view(e.dso->short_name) : "[unknown]",
              kColumns[5].width);
  }
}

}  // namespace readperf
