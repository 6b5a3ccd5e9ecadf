// The "# event : ..." lines: header.c print_event_desc() and perf 6.1's
// util/perf_event_attr_fprintf.c perf_event_attr__fprintf(), which prints every non-zero
// attr field as ", name = value".
#include <fmt/format.h>

#include "header_print.h"
#include "readperf/format/event_attr.h"
#include "readperf/format/perf_abi.h"

namespace readperf::header_detail {

namespace {

struct BitName {
  uint64_t bit;
  const char* name;
};

// perf_event_attr_fprintf.c __p_sample_type(): its own order, without TRANSACTION.
constexpr BitName kSampleTypeNames[] = {
    {kSampleIp, "IP"},
    {kSampleTid, "TID"},
    {kSampleTime, "TIME"},
    {kSampleAddr, "ADDR"},
    {kSampleRead, "READ"},
    {kSampleCallchain, "CALLCHAIN"},
    {kSampleId, "ID"},
    {kSampleCpu, "CPU"},
    {kSamplePeriod, "PERIOD"},
    {kSampleStreamId, "STREAM_ID"},
    {kSampleRaw, "RAW"},
    {kSampleBranchStack, "BRANCH_STACK"},
    {kSampleRegsUser, "REGS_USER"},
    {kSampleStackUser, "STACK_USER"},
    {kSampleIdentifier, "IDENTIFIER"},
    {kSampleRegsIntr, "REGS_INTR"},
    {kSampleDataSrc, "DATA_SRC"},
    {kSampleWeight, "WEIGHT"},
    {kSamplePhysAddr, "PHYS_ADDR"},
    {kSampleAux, "AUX"},
    {kSampleCgroup, "CGROUP"},
    {kSampleDataPageSize, "DATA_PAGE_SIZE"},
    {kSampleCodePageSize, "CODE_PAGE_SIZE"},
    {kSampleWeightStruct, "WEIGHT_STRUCT"},
};

// __p_branch_sample_type(): PERF_SAMPLE_BRANCH_* bits 0 to 18.
constexpr const char* kBranchNames[] = {
    "USER",     "KERNEL",    "HV",        "ANY",      "ANY_CALL",   "ANY_RETURN", "IND_CALL",
    "ABORT_TX", "IN_TX",     "NO_TX",     "COND",     "CALL_STACK", "IND_JUMP",   "CALL",
    "NO_FLAGS", "NO_CYCLES", "TYPE_SAVE", "HW_INDEX", "PRIV_SAVE"};

// __p_read_format().
constexpr const char* kReadFormatNames[] = {"TOTAL_TIME_ENABLED", "TOTAL_TIME_RUNNING", "ID",
                                            "GROUP", "LOST"};

// perf formats every value into one buffer; a bit set whose bits have no name writes nothing
// and leaves the previous value in it, which is then printed again.
class AttrPrinter {
 public:
  explicit AttrPrinter(OutBuffer& out) : out_(out) {}

  void unsigned_(const char* name, uint64_t v) {
    if (v) emit(name, fmt::format("{}", v));
  }
  void signed_(const char* name, int64_t v) {
    if (v) emit(name, fmt::format("{}", v));
  }
  void hex(const char* name, uint64_t v) {
    if (v) emit(name, fmt::format("{:#x}", v));
  }
  template <class Names>
  void bits(const char* name, uint64_t v, const Names& names) {
    if (!v) return;
    std::string s;
    bool any = false;
    for (const auto& [bit, bit_name] : names) {
      if (!(v & bit)) continue;
      if (any) s += '|';
      s += bit_name;
      any = true;
    }
    if (any) buf_ = std::move(s);
    out_.print(", {} = {}", name, buf_);
  }

 private:
  void emit(const char* name, std::string value) {
    buf_ = std::move(value);
    out_.print(", {} = {}", name, buf_);
  }
  OutBuffer& out_;
  std::string buf_;
};

template <size_t N>
std::vector<BitName> indexed(const char* const (&names)[N]) {
  std::vector<BitName> v;
  for (size_t i = 0; i < N; ++i) v.push_back({1ull << i, names[i]});
  return v;
}

void print_attr(const EventAttr& a, OutBuffer& out) {
  static const std::vector<BitName> kBranch = indexed(kBranchNames);
  static const std::vector<BitName> kReadFormat = indexed(kReadFormatNames);
  AttrPrinter p(out);
  p.unsigned_("type", a.type);
  p.unsigned_("size", a.size);
  p.hex("config", a.config);
  p.unsigned_("{ sample_period, sample_freq }", a.sample_period);
  p.bits("sample_type", a.sample_type, kSampleTypeNames);
  p.bits("read_format", a.read_format, kReadFormat);
  // The bit-fields in declaration order; precise_ip (bits 15 and 16) is printed once.
  for (size_t bit = 0; bit < std::size(kAttrFlagNames); ++bit) {
    if (bit == 16) continue;
    uint64_t v = bit == 15 ? a.precise_ip() : (a.flags >> bit) & 1;
    p.unsigned_(kAttrFlagNames[bit], v);
  }
  p.unsigned_("{ wakeup_events, wakeup_watermark }", a.wakeup_events);
  p.unsigned_("bp_type", a.bp_type);
  p.hex("{ bp_addr, config1 }", a.config1);
  p.hex("{ bp_len, config2 }", a.config2);
  p.bits("branch_sample_type", a.branch_sample_type, kBranch);
  p.hex("sample_regs_user", a.sample_regs_user);
  p.unsigned_("sample_stack_user", a.sample_stack_user);
  p.signed_("clockid", a.clockid);
  p.hex("sample_regs_intr", a.sample_regs_intr);
  p.unsigned_("aux_watermark", a.aux_watermark);
  p.unsigned_("sample_max_stack", a.sample_max_stack);
  p.unsigned_("aux_sample_size", a.aux_sample_size);
  p.unsigned_("sig_data", a.sig_data);
}

}  // namespace

void print_event_desc(const PrintContext& ctx, OutBuffer& out) {
  std::optional<std::vector<EventDesc>> events;
  if (ctx.file_mode) {
    auto it = ctx.env.raw.find(kFeatEventDesc);
    if (it != ctx.env.raw.end()) {
      auto desc = parse_event_desc(ByteCursor(Bytes(it->second), ctx.order));
      if (desc) events = std::move(*desc);
    }
  } else {
    events = ctx.env.event_desc;
  }
  if (!events) {
    out.write("# event desc: not available or unable to read\n");
    return;
  }
  for (const EventDesc& e : *events) {
    // perf's list of events ends at the first attr whose size is 0.
    if (e.attr.size == 0) break;
    out.print("# event : name = {}, ", e.name);
    if (!e.ids.empty()) {
      out.write(", id = {");
      for (size_t j = 0; j < e.ids.size(); ++j) {
        if (j) out.put(',');
        out.print(" {}", e.ids[j]);
      }
      out.write(" }");
    }
    print_attr(e.attr, out);
    out.put('\n');
  }
}

}  // namespace readperf::header_detail
