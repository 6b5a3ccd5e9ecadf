// util/mem-events.c's decoders of union perf_mem_data_src, with the buffer arithmetic of
// their scnprintf()/strcat() calls: the text a field gets depends on the room perf gave it.
#include "readperf/output/mem_info.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <string_view>

namespace readperf {
namespace {

// The bit-fields of union perf_mem_data_src (little-endian layout; the value is the u64 the
// sample carries, already in host order).
struct DataSrc {
  explicit DataSrc(uint64_t v) : v(v) {}
  uint64_t bits(int shift, int width) const { return (v >> shift) & ((uint64_t{1} << width) - 1); }
  uint64_t op() const { return bits(0, 5); }
  uint64_t lvl() const { return bits(5, 14); }
  uint64_t snoop() const { return bits(19, 5); }
  uint64_t lock() const { return bits(24, 2); }
  uint64_t dtlb() const { return bits(26, 7); }
  uint64_t lvl_num() const { return bits(33, 4); }
  uint64_t remote() const { return bits(37, 1); }
  uint64_t snoopx() const { return bits(38, 2); }
  uint64_t blk() const { return bits(40, 3); }
  uint64_t hops() const { return bits(43, 3); }
  uint64_t v;
};

// A C string being filled as perf fills it: text() is the string, `size_` what perf's
// scnprintf(out + l, size - l, ...) calls measure the room from (a size_t: once the text is
// past it, the room wraps around to "unlimited", as in C).
class CText {
 public:
  explicit CText(size_t size) : size_(size) {}
  // scnprintf(out + strlen(out), size - strlen(out), "%s", s).
  void scn(std::string_view s) {
    size_t room = size_ - text_.size();
    if (room == 0) return;
    text_.append(s.substr(0, std::min(s.size(), room - 1)));
  }
  void cat(std::string_view s) { text_.append(s); }  // strcat()
  bool empty() const { return text_.empty(); }
  std::string take() { return std::move(text_); }

 private:
  size_t size_;
  std::string text_;
};

constexpr std::array<std::string_view, 7> kTlbAccess = {"N/A", "HIT",    "MISS", "L1",
                                                        "L2",  "Walker", "Fault"};
constexpr std::array<std::string_view, 14> kMemLvl = {
    "N/A",
    "HIT",
    "MISS",
    "L1",
    "LFB/MAB",
    "L2",
    "L3",
    "Local RAM",
    "Remote RAM (1 hop)",
    "Remote RAM (2 hops)",
    "Remote Cache (1 hop)",
    "Remote Cache (2 hops)",
    "I/O",
    "Uncached",
};
// mem_lvlnum[]: PERF_MEM_LVLNUM_CXL (9) to _NA (15); the others print as "L%d".
constexpr std::array<std::string_view, 16> kMemLvlNum = {
    "", "", "", "", "", "", "", "", "", "CXL", "I/O", "Any cache", "LFB/MAB", "RAM", "PMEM", "N/A"};
// mem_hops[] has 5 entries; perf reads past it for 5 to 7 (printed as nothing here).
constexpr std::array<std::string_view, 8> kMemHops = {
    "N/A", "core, same node", "node, same socket", "socket, same board", "board", "", "", ""};
constexpr std::array<std::string_view, 5> kSnoopAccess = {"N/A", "None", "Hit", "Miss", "HitM"};
constexpr std::array<std::string_view, 2> kSnoopxAccess = {"Fwd", "Peer"};

constexpr uint64_t kHit = 0x02, kMiss = 0x04;  // PERF_MEM_{LVL,TLB}_HIT / _MISS

// The names of the set bits of `m`, " or " before each but the first (the loops of
// mem-events.c). The lvl loop counts names (`printed++`); the others test the length
// written so far (`if (l)`): `printed` null.
template <size_t N>
void bit_names(CText& out, uint64_t m, const std::array<std::string_view, N>& names,
               bool* printed) {
  for (size_t i = 0; m && i < N; ++i, m >>= 1) {
    if (!(m & 1)) continue;
    if (printed ? *printed : !out.empty()) out.cat(" or ");
    if (printed) *printed = true;
    out.scn(names[i]);
  }
}

}  // namespace

std::string mem_op_text(uint64_t data_src, size_t sz) {
  uint64_t op = DataSrc(data_src).op();
  CText out(sz);
  if (op & 0x01) {
    out.scn("N/A");
  } else if (op & 0x02) {
    out.scn("LOAD");
  } else if (op & 0x04) {
    out.scn("STORE");
  } else if (op & 0x08) {
    out.scn("PFETCH");
  } else if (op & 0x10) {
    out.scn("EXEC");
  } else {
    out.scn("No");
  }
  return out.take();
}

std::string mem_lvl_text(uint64_t data_src, size_t sz) {
  DataSrc d(data_src);
  CText out(sz - 1);  // "-1 for null termination"
  uint64_t m = d.lvl();
  uint64_t hit = m & kHit, miss = m & kMiss;
  m &= ~(kHit | kMiss);
  bool printed = false;
  if (d.remote()) out.cat("Remote ");
  // With mem_hops set the PERF_MEM_LVL bits are not printed.
  if (d.hops()) {
    out.scn(fmt::format("{} ", kMemHops[d.hops()]));
  } else {
    bit_names(out, m, kMemLvl, &printed);
  }
  if (uint64_t num = d.lvl_num()) {
    if (printed) out.cat(" or ");
    printed = true;
    out.scn(kMemLvlNum[num].empty() ? fmt::format("L{}", num) : std::string(kMemLvlNum[num]));
  }
  if (out.empty()) out.scn("N/A");
  if (hit) out.scn(" hit");
  if (miss) out.scn(" miss");
  return out.take();
}

std::string mem_snp_text(uint64_t data_src, size_t sz) {
  DataSrc d(data_src);
  CText out(sz - 1);
  bit_names(out, d.snoop(), kSnoopAccess, nullptr);
  bit_names(out, d.snoopx(), kSnoopxAccess, nullptr);
  if (out.empty()) out.scn("N/A");
  return out.take();
}

std::string mem_tlb_text(uint64_t data_src, size_t sz) {
  CText out(sz - 1);
  uint64_t m = DataSrc(data_src).dtlb();
  uint64_t hit = m & kHit, miss = m & kMiss;
  m &= ~(kHit | kMiss);
  bit_names(out, m, kTlbAccess, nullptr);
  if (out.empty()) out.scn("N/A");
  if (hit) out.scn(" hit");
  if (miss) out.scn(" miss");
  return out.take();
}

std::string mem_lck_text(uint64_t data_src, size_t sz) {
  uint64_t mask = DataSrc(data_src).lock();
  CText out(sz);
  out.scn((mask & 0x01) ? "N/A" : (mask & 0x02) ? "Yes" : "No");
  return out.take();
}

std::string mem_blk_text(uint64_t data_src, size_t sz) {
  uint64_t mask = DataSrc(data_src).blk();
  CText out(sz - 1);
  if (!mask || (mask & 0x01)) {
    out.scn(" N/A");
  } else {
    if (mask & 0x02) out.scn(" Data");
    if (mask & 0x04) out.scn(" Addr");
  }
  return out.take();
}

std::string script_meminfo_text(uint64_t data_src) {
  constexpr size_t kSize = 100;  // data_src__fprintf()'s decode[100]
  std::string s;
  auto room = [&] { return kSize - s.size(); };  // sz - i, wrapping as size_t does
  auto scn = [&](std::string_view v) {
    CText t(room());
    t.scn(v);
    s += t.take();
  };
  scn("|OP ");
  s += mem_op_text(data_src, room());
  scn("|LVL ");
  s += mem_lvl_text(data_src, kSize);  // perf passes sz here, not sz - i
  scn("|SNP ");
  s += mem_snp_text(data_src, room());
  scn("|TLB ");
  s += mem_tlb_text(data_src, room());
  scn("|LCK ");
  s += mem_lck_text(data_src, room());
  scn("|BLK ");
  s += mem_blk_text(data_src, room());
  return s;
}

std::string script_data_src_text(uint64_t data_src) {
  std::string s = fmt::format("{:16x} {}", data_src, script_meminfo_text(data_src));
  if (s.size() > 99) s.resize(99);  // out[100]
  return s;
}

std::string page_size_name(uint64_t size) {
  if (!size) return "N/A";
  static constexpr char kUnits[] = "BKMGTPEZY";
  int i = 0;
  while (size / 1024 > 1 && i < 8) {
    size /= 1024;
    ++i;
  }
  return fmt::format("{}{}", size, kUnits[i]);
}

}  // namespace readperf
