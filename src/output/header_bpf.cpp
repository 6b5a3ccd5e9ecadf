// BPF_PROG_INFO's lines: util/bpf-event.c __bpf_event__print_bpf_prog_info() and
// synthesize_bpf_prog_name(), which names each (sub)program after its BTF function when the
// program's BTF (BPF_BTF) loads, the way libbpf's btf__new() checks it.
#include <fmt/format.h>

#include <cstdint>

#include "header_print.h"
#include "readperf/format/perf_abi.h"

namespace readperf::header_detail {

namespace {

// A BTF object as far as finding a type's name needs (tools/lib/bpf/btf.c btf_new()).
class Btf {
 public:
  static std::optional<Btf> parse(Bytes data);
  // btf__type_by_id() then btf__name_by_offset(): nullopt where libbpf gives NULL.
  std::optional<std::string> type_name(uint32_t type_id) const;

 private:
  Bytes data_;
  ByteOrder order_ = ByteOrder::kNative;
  Bytes strs_;
  std::vector<uint32_t> name_offs_;  // name_off of types 1..n
};

std::optional<Btf> Btf::parse(Bytes data) {
  constexpr uint16_t kMagic = 0xeB9F;
  constexpr size_t kHeaderSize = 24;
  if (data.size() < kHeaderSize) return std::nullopt;
  Btf b;
  ByteCursor c(data, ByteOrder::kNative);
  uint16_t magic = c.u16();
  if (magic == bswap(kMagic)) {
    b.order_ = ByteOrder::kSwapped;
  } else if (magic != kMagic) {
    return std::nullopt;
  }
  c = ByteCursor(data, b.order_);
  c.skip(4);  // magic, version, flags
  uint32_t hdr_len = c.u32(), type_off = c.u32(), type_len = c.u32(), str_off = c.u32(),
           str_len = c.u32();
  if (b.order_ == ByteOrder::kSwapped && hdr_len != kHeaderSize) return std::nullopt;
  if (data.size() < hdr_len) return std::nullopt;
  uint64_t meta_left = data.size() - hdr_len;
  if (meta_left < uint64_t{str_off} + str_len) return std::nullopt;
  if (uint64_t{type_off} + type_len > str_off) return std::nullopt;
  if (type_off % 4) return std::nullopt;
  // btf_parse_str_sec(): a NUL-terminated table starting with the empty string.
  b.strs_ = data.subspan(hdr_len + str_off, str_len);
  if (str_len == 0 || str_len - 1 > 0x7fffffff || b.strs_[str_len - 1] != std::byte{0} ||
      b.strs_[0] != std::byte{0}) {
    return std::nullopt;
  }
  // btf_parse_type_sec(): every type's size follows from its kind and vlen.
  ByteCursor t(data.subspan(hdr_len + type_off, type_len), b.order_);
  while (t.remaining() >= 12) {
    uint32_t name_off = t.u32();
    uint32_t info = t.u32();
    t.u32();  // size or type
    uint32_t kind = (info >> 24) & 0x1f;
    uint64_t vlen = info & 0xffff;
    uint64_t extra;
    switch (kind) {
      case 2:
      case 7:
      case 8:
      case 9:
      case 10:
      case 11:
      case 12:
      case 16:
      case 18:
        extra = 0;  // PTR FWD TYPEDEF VOLATILE CONST RESTRICT FUNC FLOAT TYPE_TAG
        break;
      case 1:
      case 14:
      case 17:
        extra = 4;  // INT, VAR, DECL_TAG
        break;
      case 6:
      case 13:
        extra = vlen * 8;  // ENUM, FUNC_PROTO
        break;
      case 19:
      case 3:
      case 4:
      case 5:
      case 15:
        extra = kind == 3 ? 12 : vlen * 12;  // ENUM64, ARRAY, STRUCT, UNION, DATASEC
        break;
      default:
        return std::nullopt;
    }
    if (extra > t.remaining()) return std::nullopt;
    t.skip(extra);
    b.name_offs_.push_back(name_off);
  }
  if (!t.at_end()) return std::nullopt;
  b.data_ = data;
  return b;
}

std::optional<std::string> Btf::type_name(uint32_t type_id) const {
  uint32_t name_off = 0;  // type 0 is void, without a name
  if (type_id > name_offs_.size()) return std::nullopt;
  if (type_id) name_off = name_offs_[type_id - 1];
  if (name_off >= strs_.size()) return std::nullopt;
  std::string_view s = as_string_view(strs_.subspan(name_off));
  return std::string(s.substr(0, s.find('\0')));
}

// Offsets in struct bpf_prog_info of Linux 6.1 (include/uapi/linux/bpf.h).
constexpr size_t kId = 4, kName = 64, kNrJitedKsyms = 104, kNrJitedFuncLens = 108,
                 kJitedKsyms = 112, kJitedFuncLens = 120, kBtfId = 128, kFuncInfoRecSize = 132,
                 kFuncInfo = 136, kNrProgTags = 180, kProgTags = 184;
// util/bpf-utils.h enum perf_bpil_array.
constexpr int kBpilJitedKsyms = 3, kBpilJitedFuncLens = 4, kBpilFuncInfo = 5, kBpilProgTags = 8;

class ProgInfo {
 public:
  explicit ProgInfo(const BpfProgInfo& p) : p_(p) {}
  uint32_t u32(size_t off) const { return read<uint32_t>(Bytes(p_.info), off); }
  uint64_t u64(size_t off) const { return read<uint64_t>(Bytes(p_.info), off); }
  // The T at byte `offset` of element `i` of the array whose data offset is at `field`,
  // present per `arrays`.
  template <class T>
  std::optional<T> elem(int array, size_t field, uint64_t i, uint64_t stride = sizeof(T),
                        uint64_t offset = 0) const {
    if (!(p_.arrays & (1ull << array))) return std::nullopt;
    uint64_t at = u64(field);
    if (at > UINT64_MAX - offset) return std::nullopt;
    if (stride && i > (UINT64_MAX - at - offset) / stride) return std::nullopt;
    at += i * stride + offset;
    if (!fits(at, sizeof(T), p_.data.size())) return std::nullopt;
    return read<T>(Bytes(p_.data), at);
  }
  Bytes tag(uint64_t i) const {
    if (!(p_.arrays & (1ull << kBpilProgTags))) return {};
    uint64_t at = u64(kProgTags);
    if (i > (UINT64_MAX - at) / 8 || !fits(at + i * 8, 8, p_.data.size())) return {};
    return Bytes(p_.data).subspan(at + i * 8, 8);
  }
  std::string name() const {
    std::string_view s = as_string_view(Bytes(p_.info).subspan(kName, 16));
    return std::string(s.substr(0, s.find('\0')));
  }

 private:
  template <class T>
  static T read(Bytes b, size_t off) {
    ByteCursor c(b.subspan(off), ByteOrder::kNative);
    return c.read<T>();
  }
  const BpfProgInfo& p_;
};

// synthesize_bpf_prog_name(): "bpf_prog_<tag>" and "_<function>" from BTF, or "_<name>" for a
// program without subprograms, or "_F".
std::string prog_name(const ProgInfo& info, const Btf* btf, uint32_t sub_id, uint32_t count) {
  std::string s = "bpf_prog_";
  for (std::byte b : info.tag(sub_id)) s += fmt::format("{:02x}", std::to_integer<unsigned>(b));
  std::optional<std::string> short_name;
  if (btf) {
    uint32_t rec_size = info.u32(kFuncInfoRecSize);
    // struct bpf_func_info { u32 insn_off; u32 type_id; }
    auto id = info.elem<uint32_t>(kBpilFuncInfo, kFuncInfo, sub_id, rec_size, 4);
    short_name = id ? btf->type_name(*id) : std::nullopt;
    if (!short_name) short_name = "(null)";
  } else if (sub_id == 0 && count == 1) {
    std::string name = info.name();
    if (!name.empty()) short_name = name;
  } else {
    short_name = "F";
  }
  if (short_name) s += "_" + *short_name;
  if (s.size() > 511) s.resize(511);  // KSYM_NAME_LEN
  return s;
}

}  // namespace

void print_bpf_prog_info(const PrintContext& ctx, OutBuffer& out) {
  for (const auto& [id, prog] : ctx.env.bpf_progs) {
    ProgInfo info(prog);
    uint32_t count = info.u32(kNrJitedKsyms);
    if (count != info.u32(kNrProgTags) || count != info.u32(kNrJitedFuncLens)) continue;
    std::optional<Btf> btf;
    if (uint32_t btf_id = info.u32(kBtfId)) {
      auto it = ctx.env.bpf_btfs.find(btf_id);
      if (it != ctx.env.bpf_btfs.end()) btf = Btf::parse(Bytes(it->second.data));
    }
    const Btf* b = btf ? &*btf : nullptr;
    auto addr = [&](uint32_t i) {
      return info.elem<uint64_t>(kBpilJitedKsyms, kJitedKsyms, i).value_or(0);
    };
    auto len = [&](uint32_t i) {
      return info.elem<uint32_t>(kBpilJitedFuncLens, kJitedFuncLens, i).value_or(0);
    };
    if (count == 1) {
      out.print("# bpf_prog_info {}: {} addr {:#x} size {}\n", info.u32(kId),
                prog_name(info, b, 0, count), addr(0), len(0));
      continue;
    }
    out.print("# bpf_prog_info {}:\n", info.u32(kId));
    for (uint32_t i = 0; i < count; ++i) {
      out.print("# \tsub_prog {}: {} addr {:#x} size {}\n", i, prog_name(info, b, i, count),
                addr(i), len(i));
    }
  }
}

}  // namespace readperf::header_detail
