// The Intel PT packet listing perf's report -D prints for the AUX data after an AUXTRACE
// record (intel-pt.c intel_pt_dump(), packets named and described as
// intel-pt-decoder/intel-pt-pkt-decoder.c does): one line per packet, its bytes, then its
// description. Packets are decoded per the Intel SDM, vol. 3C, "Intel Processor Trace",
// with perf's conventions: zero bytes after a packet are shown with it (up to 8 bytes in all),
// and a byte that starts no valid (or complete) packet is shown alone as "Bad packet!".
#include <cstring>

#include "dump_internal.h"

namespace readperf {

namespace {

// Block Begin Packets set how the following Block Item Packets are sized.
enum class BlockCtx { kNone, kBip4, kBip8 };

struct Packet {
  size_t len = 0;  // 0: bad or incomplete
  std::string desc;
  bool ends_block = true;  // leaves the block context (all but a few timing packets)
  BlockCtx new_ctx = BlockCtx::kNone;
  bool sets_ctx = false;
};

uint64_t le(const unsigned char* p, size_t n) {
  uint64_t v = 0;
  for (size_t i = 0; i < n; ++i) v |= uint64_t{p[i]} << (8 * i);
  return v;
}

std::string tnt_desc(uint64_t bits, int count) {
  // Bits are taken from the top: the first branch is bit 63.
  std::string s = "TNT ";
  for (int i = 0; i < count; ++i) {
    s += (bits >> 63) ? 'T' : 'N';
    bits <<= 1;
  }
  return s + fmt::format(" ({})", count);
}

// A target-IP packet (TIP, TIP.PGE, TIP.PGD, FUP): the top 3 bits say how many IP bytes.
Packet ip_packet(const char* name, const unsigned char* b, size_t len, bool keeps_ctx) {
  Packet p;
  unsigned kind = b[0] >> 5;
  size_t ip_len;
  switch (kind) {
    case 0:
      ip_len = 0;
      break;
    case 1:
      ip_len = 2;
      break;
    case 2:
      ip_len = 4;
      break;
    case 3:
    case 4:
      ip_len = 6;
      break;
    case 6:
      ip_len = 8;
      break;
    default:
      return p;
  }
  if (len < ip_len + 1) return p;
  p.len = ip_len + 1;
  p.desc =
      kind == 0 ? fmt::format("{} no ip", name) : fmt::format("{} 0x{:x}", name, le(b + 1, ip_len));
  p.ends_block = !keeps_ctx;
  return p;
}

// Packets starting 0x02 (the extended opcodes).
Packet ext_packet(const unsigned char* b, size_t len) {
  Packet p;
  if (len < 2) return p;
  auto need = [&](size_t n) { return len >= n; };
  if ((b[1] & 0x1f) == 0x12) {  // PTWRITE
    unsigned size = (b[1] >> 5) & 3;
    bool ip = b[1] & 0x80;
    size_t n = size == 0 ? 4 : size == 1 ? 8 : 0;
    if (!n || !need(n + 2)) return p;
    p.len = n + 2;
    p.desc = fmt::format("PTWRITE 0x{:x} IP:{}", le(b + 2, n), ip ? 1 : 0);
    return p;
  }
  switch (b[1]) {
    case 0xa3: {  // long TNT: up to 47 branches below a stop bit
      if (!need(8)) return p;
      uint64_t v = le(b, 8);
      int count = 47;
      for (; count; --count) {
        if (v >> 63) break;
        v <<= 1;
      }
      p.len = 8;
      p.desc = tnt_desc(v << 1, count);
      return p;
    }
    case 0x43:  // PIP
      if (!need(8)) return p;
      p.len = 8;
      {
        uint64_t v = le(b + 2, 6);
        p.desc = fmt::format("PIP 0x{:x} (NR={})", (v & ~uint64_t{1}) >> 1, (v & 1) ? 1 : 0);
      }
      return p;
    case 0x83:
      p.len = 2;
      p.desc = "TraceSTOP";
      return p;
    case 0x03:  // CBR
      if (!need(4)) return p;
      p.len = 4;
      p.desc = fmt::format("CBR 0x{:x}", le(b + 2, 2));
      p.ends_block = false;
      return p;
    case 0xc8:  // VMCS: a 5-byte payload
      if (!need(7)) return p;
      p.len = 7;
      p.desc = fmt::format("VMCS 0x{:x}", le(b + 2, 5));
      return p;
    case 0xf3:
      p.len = 2;
      p.desc = "OVF";
      return p;
    case 0x82:  // PSB: 02 82 eight times
      if (!need(16)) return p;
      for (int i = 2; i < 16; i += 2) {
        if (b[i] != 2 || b[i + 1] != 0x82) return p;
      }
      p.len = 16;
      p.desc = "PSB";
      return p;
    case 0x23:
      p.len = 2;
      p.desc = "PSBEND";
      return p;
    case 0x73:  // TMA
      if (!need(7)) return p;
      p.len = 7;
      p.desc =
          fmt::format("TMA CTC 0x{:x} FC 0x{:x}", b[2] | (b[3] << 8), b[5] | ((b[6] & 1) << 8));
      p.ends_block = false;
      return p;
    case 0xc3:  // 3-byte opcodes: only MNT
      if (!need(3) || b[2] != 0x88) return p;
      if (!need(11)) return p;
      p.len = 11;
      p.desc = fmt::format("MNT 0x{:x}", le(b + 3, 8));
      p.ends_block = false;
      return p;
    case 0x62:
    case 0xe2:
      p.len = 2;
      p.desc = fmt::format("EXSTOP IP:{}", b[1] == 0xe2 ? 1 : 0);
      p.ends_block = false;
      return p;
    case 0xc2: {  // MWAIT
      if (!need(10)) return p;
      uint64_t v = le(b + 2, 8);
      p.len = 10;
      p.desc =
          fmt::format("MWAIT 0x{:x} Hints 0x{:x} Extensions 0x{:x}", v, v & 0xff, (v >> 32) & 3);
      return p;
    }
    case 0x22: {  // PWRE
      if (!need(4)) return p;
      uint64_t v = le(b + 2, 2);
      p.len = 4;
      p.desc = fmt::format("PWRE 0x{:x} HW:{} CState:{} Sub-CState:{}", v, (v & 0x80) ? 1 : 0,
                           (v >> 12) & 0xf, (v >> 8) & 0xf);
      p.ends_block = false;
      return p;
    }
    case 0xa2: {  // PWRX
      if (!need(7)) return p;
      uint64_t v = le(b + 2, 5);
      p.len = 7;
      p.desc = fmt::format("PWRX 0x{:x} Last CState:{} Deepest CState:{} Wake Reason 0x{:x}", v,
                           (v >> 4) & 0xf, v & 0xf, (v >> 8) & 0xf);
      p.ends_block = false;
      return p;
    }
    case 0x63: {  // BBP
      if (!need(3)) return p;
      bool four = b[2] >> 7;
      p.len = 3;
      p.desc = fmt::format("BBP SZ {}-byte Type 0x{:x}", four ? "4" : "8", b[2] & 0x1f);
      p.sets_ctx = true;
      p.new_ctx = four ? BlockCtx::kBip4 : BlockCtx::kBip8;
      return p;
    }
    case 0x33:
    case 0xb3:
      p.len = 2;
      p.desc = fmt::format("BEP IP:{}", b[1] == 0xb3 ? 1 : 0);
      return p;
    case 0x13: {  // CFE
      if (!need(4)) return p;
      p.len = 4;
      p.desc = fmt::format("CFE IP:{} Type 0x{:02x} Vector 0x{:x}", (b[2] & 0x80) ? 1 : 0,
                           b[2] & 0x1f, b[3]);
      return p;
    }
    case 0x53: {  // EVD
      if (!need(11)) return p;
      p.len = 11;
      p.desc = fmt::format("EVD Type 0x{:02x} Payload 0x{:x}", b[2] & 0x3f, le(b + 3, 8));
      return p;
    }
    default:
      return p;
  }
}

Packet next_packet(const unsigned char* b, size_t len, BlockCtx ctx) {
  Packet p;
  unsigned byte = b[0];
  if (ctx != BlockCtx::kNone && (byte & 7) == 4) {  // BIP
    size_t n = ctx == BlockCtx::kBip4 ? 4 : 8;
    if (len < n + 1) return p;
    p.len = n + 1;
    p.desc = fmt::format("BIP ID 0x{:02x} Value 0x{:x}", byte >> 3, le(b + 1, n));
    p.ends_block = false;
    return p;
  }
  if (!(byte & 1)) {
    if (byte == 0) {
      p.len = 1;
      p.desc = "PAD";
      p.ends_block = false;
      return p;
    }
    if (byte == 2) return ext_packet(b, len);
    // Short TNT: up to 6 branches below a stop bit.
    int count = 6;
    for (; count; --count) {
      if (byte & 0x80) break;
      byte <<= 1;
    }
    p.len = 1;
    p.desc = tnt_desc(uint64_t{byte} << 57, count);
    return p;
  }
  if (byte & 2) {  // CYC: a variable-length cycle count
    uint64_t v = byte >> 3;
    size_t at = 1;
    unsigned shift = 5;
    for (unsigned cur = byte >> 2; cur & 1; shift += 7) {
      if (at > 9 || len - 1 < at) return p;
      cur = b[at++];
      v |= uint64_t{cur >> 1} << shift;
    }
    p.len = at;
    p.desc = fmt::format("CYC 0x{:x}", v);
    p.ends_block = false;
    return p;
  }
  switch (byte & 0x1f) {
    case 0x0d:
      return ip_packet("TIP", b, len, false);
    case 0x11:
      return ip_packet("TIP.PGE", b, len, false);
    case 0x01:
      return ip_packet("TIP.PGD", b, len, false);
    case 0x1d:
      return ip_packet("FUP", b, len, true);
    default:
      break;
  }
  if (byte == 0x99) {  // MODE
    if (len < 2) return p;
    unsigned m = b[1];
    if ((m >> 5) == 0) {
      static constexpr int kBits[] = {16, 64, 32, -1};
      if (kBits[m & 3] < 0) return p;
      p.len = 2;
      p.desc = fmt::format("MODE.Exec IF:{} {}", (m & 4) ? 1 : 0, kBits[m & 3]);
    } else if ((m >> 5) == 1) {
      if ((m & 3) == 3) return p;
      p.len = 2;
      p.desc = fmt::format("MODE.TSX TXAbort:{} InTX:{}", (m >> 1) & 1, m & 1);
    }
    return p;
  }
  if (byte == 0x19) {  // TSC
    if (len < 8) return p;
    p.len = 8;
    p.desc = fmt::format("TSC 0x{:x}", le(b + 1, 7));
    p.ends_block = false;
    return p;
  }
  if (byte == 0x59) {  // MTC
    if (len < 2) return p;
    p.len = 2;
    p.desc = fmt::format("MTC 0x{:x}", b[1]);
    p.ends_block = false;
    return p;
  }
  return p;
}

}  // namespace

void print_intel_pt_data(OutBuffer& out, Bytes data) {
  out.print(".\n. ... Intel Processor Trace data: size {} bytes\n", data.size());
  const auto* b = reinterpret_cast<const unsigned char*>(data.data());
  size_t len = data.size();
  size_t pos = 0;
  BlockCtx ctx = BlockCtx::kNone;
  while (len) {
    Packet p = next_packet(b, len, ctx);
    size_t n = 1;
    if (p.len) {
      n = p.len;
      while (n < 8 && len > n && !b[n]) ++n;  // trailing padding goes with the packet
      if (p.sets_ctx) {
        ctx = p.new_ctx;
      } else if (p.ends_block) {
        ctx = BlockCtx::kNone;
      }
    }
    fmt::memory_buffer& buf = out.buffer();
    fmt::format_to(fmt::appender(buf), ".  {:08x}: ", pos);
    for (size_t i = 0; i < n; ++i) fmt::format_to(fmt::appender(buf), " {:02x}", b[i]);
    for (size_t i = n; i < 16; ++i) buf.append(std::string_view("   "));
    if (p.len) {
      fmt::format_to(fmt::appender(buf), " {}\n", p.desc);
    } else {
      buf.append(std::string_view(" Bad packet!\n"));
    }
    out.maybe_flush();
    pos += n;
    b += n;
    len -= n;
  }
}

}  // namespace readperf
