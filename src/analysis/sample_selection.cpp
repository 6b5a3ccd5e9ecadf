#include "readperf/analysis/sample_selection.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>

#include "readperf/analysis/resolver.h"
#include "readperf/format/perf_abi.h"
#include "readperf/session/thread.h"

namespace readperf {

namespace {

template <typename T, typename V>
bool listed(const std::vector<T>& list, const V& v) {
  return std::find(list.begin(), list.end(), v) != list.end();
}

}  // namespace

Result<SampleSelection> SampleSelection::parse(const SampleSelectionOptions& options,
                                               const PerfData& data) {
  SampleSelection sel;
  Result<SampleFilter> samples = SampleFilter::parse(
      {.time = options.time, .cpu_list = options.cpu_list, .reltime = options.reltime}, data);
  if (!samples) return tl::unexpected(samples.error());
  sel.samples_ = std::move(*samples);
  sel.comms_ = options.comms;
  sel.pids_ = options.pids;
  sel.tids_ = options.tids;
  sel.dsos_ = options.dsos;
  sel.has_symbols_ = !options.symbols.empty();
  sel.addr_range_ = options.addr_range;
  // symbol.c setup_addrlist(): entries that read whole as hexadecimal numbers (strtoul's
  // leading spaces and "0x" allowed, trailing spaces too) leave the list of names for the
  // list of addresses: a function called `add` or `face` cannot be named (perf 6.1).
  for (const std::string& sym : options.symbols) {
    char* end = nullptr;
    errno = 0;
    unsigned long v = std::strtoul(sym.c_str(), &end, 16);
    bool number = errno == 0 && end != sym.c_str();
    for (const char* p = end; number && *p; ++p)
      number = std::isspace(static_cast<unsigned char>(*p));
    if (number) {
      sel.addrs_.push_back(v);
    } else {
      sel.symbol_names_.push_back(sym);
    }
  }
  return sel;
}

uint8_t SampleSelection::thread_bits(const Thread& t) const {
  if (!comms_.empty() && !listed(comms_, std::string_view(t.comm_str()))) return kHistFilterThread;
  if (!pids_.empty() && !listed(pids_, t.pid)) return kHistFilterThread;
  if (!tids_.empty() && !listed(tids_, t.tid)) return kHistFilterThread;
  return 0;
}

uint8_t SampleSelection::dso_bits(bool has_map, const Dso* dso) const {
  if (dsos_.empty()) return 0;
  if (!has_map || !dso) return kHistFilterDso;
  // machine__resolve(): the short name or the long one (a vmlinux's path once read).
  if (listed(dsos_, dso->short_name) || listed(dsos_, dso->perf_long_name())) return 0;
  return kHistFilterDso;
}

uint8_t SampleSelection::symbol_bits(bool has_map, const Symbol* sym, uint64_t ip) const {
  if (!has_symbols_) return 0;
  // machine__resolve() also looks up the symbol's start as "0x%lx" among the names; such a
  // string always reads as a number, which setup_addrlist() took out of the names: it never
  // matches, and is not formatted here for every sample.
  if (sym && listed(symbol_names_, sym->name)) return 0;
  if (has_map) {
    for (uint64_t a : addrs_) {
      if (ip == a) return 0;
      if (addr_range_ && ip >= a && ip < a + static_cast<uint64_t>(addr_range_)) return 0;
    }
  }
  return kHistFilterSymbol;
}

uint8_t SampleSelection::guest_bits(uint8_t cpumode) {
  return cpumode == kMiscGuestKernel || cpumode == kMiscGuestUser ? kHistFilterGuest : 0;
}

uint8_t SampleSelection::frame_bits(const Frame& self) const {
  return dso_bits(self.map != nullptr, self.dso) |
         symbol_bits(self.map != nullptr, self.sym, self.ip) | guest_bits(self.cpumode);
}

}  // namespace readperf
