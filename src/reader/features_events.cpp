// Features about the events and what they saw: EVENT_DESC, BUILD_ID, GROUP_DESC, AUXTRACE,
// BPF_PROG_INFO and BPF_BTF, each mirroring the util/header.c function named beside it.
#include <fmt/format.h>

#include <array>
#include <cstring>

#include "feature_parsers.h"
#include "readperf/format/perf_abi.h"

namespace readperf {

using namespace feature_detail;

namespace {

// perf 6.1's limits (perf_event.h): PERF_SAMPLE_MAX, PERF_FORMAT_MAX, PERF_SAMPLE_BRANCH_MAX.
constexpr uint64_t kSampleMax = 1ull << 25;
constexpr uint64_t kFormatMax = 1ull << 5;
constexpr uint64_t kBranchMax = 1ull << 19;
// Bits of the attr's flags word past `sigtrap` (perf 6.1's __reserved_1).
constexpr int kFirstReservedFlag = 38;

// header.c perf_attr_check(): what perf 6.1 refuses in an EVENT_DESC attr.
std::optional<std::string> attr_check(const EventAttr& a) {
  if ((a.flags >> kFirstReservedFlag) || a.reserved_2 || a.reserved_3) {
    return "reserved bits are set";
  }
  if (a.sample_type & ~(kSampleMax - 1)) {
    return fmt::format("unknown sample type {:#x}", a.sample_type);
  }
  if (a.read_format & ~(kFormatMax - 1)) {
    return fmt::format("unknown read format {:#x}", a.read_format);
  }
  if ((a.sample_type & kSampleBranchStack) && (a.branch_sample_type & ~(kBranchMax - 1))) {
    return fmt::format("unknown branch sample type {:#x}", a.branch_sample_type);
  }
  return std::nullopt;
}

}  // namespace

Result<std::vector<EventDesc>> parse_event_desc(ByteCursor c) {
  constexpr uint32_t kFeat = kFeatEventDesc;
  uint32_t nre = c.u32();
  uint32_t sz = c.u32();
  if (!c.ok()) return tl::unexpected(truncated(c, kFeat));
  std::vector<EventDesc> events;
  for (uint32_t i = 0; i < nre; ++i) {
    uint64_t at = c.file_offset();
    // Every attr takes `sz` bytes, whatever its own size field says; perf copies at most its
    // own struct's size and zeroes the rest of a shorter one.
    Bytes attr_bytes = c.bytes(sz);
    if (!c.ok()) return tl::unexpected(truncated(c, kFeat));
    std::array<std::byte, kAttrSizeVer0> padded{};
    ByteCursor ac(attr_bytes, c.order(), at);
    if (sz < kAttrSizeVer0) {
      std::memcpy(padded.data(), attr_bytes.data(), sz);
      ac = ByteCursor(Bytes(padded), c.order(), at);
    }
    ASSIGN_OR_RETURN(EventAttr attr, parse_event_attr(ac, ac.size()));
    if (sz < kAttrSizeVer0) {
      // Past the recorded bytes, an attr is all zero.
      attr.size = sz >= 8 ? attr.size : 0;
    }
    if (auto why = attr_check(attr)) {
      return make_error(fmt::format("EVENT_DESC feature: event {}: {}", i, *why), at);
    }
    EventDesc d;
    d.attr = attr;
    uint32_t nr = c.u32();
    auto name = c.ok() ? read_string(c) : std::nullopt;
    if (!name) return tl::unexpected(truncated(c, kFeat));
    d.name = std::move(*name);
    for (uint32_t j = 0; j < nr && c.ok(); ++j) d.ids.push_back(c.u64());
    if (!c.ok()) return tl::unexpected(truncated(c, kFeat));
    events.push_back(std::move(d));
  }
  return events;
}

namespace feature_detail {

namespace {
constexpr uint16_t kMiscBuildIdSize = 1 << 15;  // PERF_RECORD_MISC_BUILD_ID_SIZE
constexpr size_t kBuildIdMax = 20;              // BUILD_ID_SIZE

// One entry of perf_header__read_build_ids(), or, with `old_abi`, of
// perf_header__read_build_ids_abi_quirk(): files from before perf 2.6.35 have no pid field.
std::optional<BuildIdRecord> read_build_id(ByteCursor& c, bool old_abi) {
  const size_t fixed = old_abi ? 8 + 24 : 8 + 4 + 24;
  BuildIdRecord b;
  c.u32();  // type
  b.misc = c.u16();
  uint16_t size = c.u16();
  if (!c.ok() || size < fixed) return std::nullopt;
  // perf_header__read_build_ids() swaps only the header: the pid is read as it is.
  uint32_t pid = old_abi ? ~0u : c.u32();
  b.pid = static_cast<int32_t>(c.swapped() ? bswap(pid) : pid);
  if (old_abi && (b.misc == kMiscGuestUser || b.misc == kMiscGuestKernel)) b.pid = 0;
  Bytes id = c.bytes(24);
  std::string_view name = as_string_view(c.bytes(size - fixed));
  if (!c.ok()) return std::nullopt;
  size_t n = kBuildIdMax;
  if (b.misc & kMiscBuildIdSize) n = std::min<size_t>(std::to_integer<size_t>(id[20]), n);
  for (size_t i = 0; i < n; ++i) b.build_id.push_back(std::to_integer<uint8_t>(id[i]));
  b.filename = std::string(name.substr(0, name.find('\0')));
  return b;
}
}  // namespace

// perf_header__read_build_ids(): records until the section ends. The kernel's record comes
// first; if its name reads "nel.kallsyms]", the "[ker" went into a pid field the writer did
// not have, and the section is read again in the old layout.
Status parse_build_ids(ByteCursor& c, Features& out) {
  out.build_ids.clear();
  ByteCursor start = c;
  bool old_abi = false;
  while (!c.at_end()) {
    auto b = read_build_id(c, old_abi);
    if (!b) return tl::unexpected(truncated(c, kFeatBuildId));
    if (!old_abi && b->filename.rfind("nel.kallsyms]", 0) == 0) {
      old_abi = true;
      out.build_ids.clear();
      c = start;
      continue;
    }
    out.build_ids.push_back(std::move(*b));
  }
  return {};
}

// process_group_desc(): a u32 count, then (name, leader index, member count) per group; the
// groups must cover the events in order, as perf checks while it sets each event's leader.
Status parse_group_desc(ByteCursor& c, const FeatureContext& ctx, Features& out) {
  constexpr uint32_t kFeat = kFeatGroupDesc;
  out.group_desc.reset();
  uint32_t nr_groups = c.u32();
  if (!c.ok()) return tl::unexpected(truncated(c, kFeat));
  std::vector<GroupDesc> groups;
  for (uint32_t i = 0; i < nr_groups; ++i) {
    GroupDesc g;
    auto name = read_string(c);
    if (!name) return tl::unexpected(truncated(c, kFeat));
    g.name = std::move(*name);
    g.leader_idx = c.u32();
    g.nr_members = c.u32();
    if (!c.ok()) return tl::unexpected(truncated(c, kFeat));
    groups.push_back(std::move(g));
  }
  if (nr_groups == 0) {
    out.group_desc = std::move(groups);
    return {};
  }
  uint32_t i = 0, nr = 0;
  for (size_t idx = 0; idx < ctx.nr_events; ++idx) {
    if (i < nr_groups && idx == groups[i].leader_idx) {
      if (nr > 0) return tl::unexpected(invalid(c, kFeat, "groups overlap"));
      nr = groups[i].nr_members - 1;
      ++i;
    } else if (nr) {
      --nr;
    }
  }
  if (i != nr_groups || nr != 0) {
    return tl::unexpected(invalid(c, kFeat, "groups do not match the events"));
  }
  out.group_desc = std::move(groups);
  return {};
}

// auxtrace.c auxtrace_index__process(): a u64 count, then (file offset, size) pairs.
Status parse_auxtrace(ByteCursor& c, Features& out) {
  constexpr uint32_t kFeat = kFeatAuxtrace;
  out.auxtrace_index.reset();
  uint64_t nr = c.u64();
  if (!c.ok()) return tl::unexpected(truncated(c, kFeat));
  if (nr > (c.size() - 8) / 16) {
    return tl::unexpected(invalid(c, kFeat, fmt::format("{} entries do not fit", nr)));
  }
  std::vector<AuxtraceIndexEntry> entries;
  for (uint64_t i = 0; i < nr; ++i) {
    AuxtraceIndexEntry e;
    e.file_offset = c.u64();
    e.size = c.u64();
    entries.push_back(e);
  }
  if (!c.ok()) return tl::unexpected(truncated(c, kFeat));
  out.auxtrace_index = std::move(entries);
  return {};
}

namespace {
constexpr uint32_t kBpfProgInfoSize = 232;  // sizeof(struct bpf_prog_info) in Linux 6.1
}  // namespace

// process_bpf_prog_info(): a u32 count, then per program the sizes of its bpf_prog_info and
// of its data, the mask of arrays present, the info, the data. perf cannot swap these and
// skips the feature in a file of the other byte order.
Status parse_bpf_prog_info(ByteCursor& c, const FeatureContext& ctx, Features& out) {
  constexpr uint32_t kFeat = kFeatBpfProgInfo;
  if (ctx.swapped) return {};
  uint32_t count = c.u32();
  if (!c.ok()) return tl::unexpected(truncated(c, kFeat));
  for (uint32_t i = 0; i < count; ++i) {
    uint32_t info_len = c.u32();
    uint32_t data_len = c.u32();
    if (!c.ok()) return tl::unexpected(truncated(c, kFeat));
    if (info_len > kBpfProgInfoSize) {
      return tl::unexpected(invalid(c, kFeat, fmt::format("bpf_prog_info of {} bytes", info_len)));
    }
    BpfProgInfo p;
    p.arrays = c.u64();
    Bytes info = c.bytes(info_len);
    Bytes data = c.bytes(data_len);
    if (!c.ok()) return tl::unexpected(truncated(c, kFeat));
    p.info.assign(info.begin(), info.end());
    p.info.resize(kBpfProgInfoSize);
    p.data.assign(data.begin(), data.end());
    ByteCursor ic(Bytes(p.info), c.order());
    ic.u32();  // type
    uint32_t id = ic.u32();
    out.bpf_progs.emplace(id, std::move(p));
  }
  return {};
}

// process_bpf_btf(): a u32 count, then (id, size, data) per BTF object.
Status parse_bpf_btf(ByteCursor& c, const FeatureContext& ctx, Features& out) {
  constexpr uint32_t kFeat = kFeatBpfBtf;
  if (ctx.swapped) return {};
  uint32_t count = c.u32();
  if (!c.ok()) return tl::unexpected(truncated(c, kFeat));
  for (uint32_t i = 0; i < count; ++i) {
    BpfBtf b;
    b.id = c.u32();
    uint32_t size = c.u32();
    Bytes data = c.bytes(size);
    if (!c.ok()) return tl::unexpected(truncated(c, kFeat));
    b.data.assign(data.begin(), data.end());
    out.bpf_btfs.emplace(b.id, std::move(b));
  }
  return {};
}

}  // namespace feature_detail
}  // namespace readperf
