// Which samples a view or export looks at: perf's sample filters, parsed once against the
// recording and shared by report, script and every export, so that each is written once.
//
//  - --time and -C/--cpu (SampleFilter): a sample outside is dropped before anything counts
//    it (builtin-report.c process_sample_event(), builtin-script.c filter_cpu()).
//  - --comms/--pid/--tid (thread.h thread__is_filtered()), --dsos and --symbols (event.c
//    machine__resolve()): filter bits, HIST_FILTER__THREAD, __DSO and __SYMBOL. report keeps
//    such a sample in its totals and hides its entry; script and the exports drop it.
//
//   Result<SampleSelection> sel = SampleSelection::parse({.comms = {"make"}}, data);
//   if (sel->skip_sample(s.time, s.cpu) || sel->filter_bits(thread, rs.self)) continue;
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "readperf/analysis/sample_filter.h"
#include "readperf/format/error.h"

namespace readperf {

class PerfData;
struct Thread;
struct Frame;
struct Dso;
struct Symbol;

// HIST_FILTER__DSO, __THREAD and __SYMBOL (HistEntry::filtered): --dsos, --comms (--pid,
// --tid), --symbols.
inline constexpr uint8_t kHistFilterDso = 1 << 1;
inline constexpr uint8_t kHistFilterThread = 1 << 2;
inline constexpr uint8_t kHistFilterSymbol = 1 << 4;
// HIST_FILTER__GUEST: a sample of a guest (a perf kvm recording's guest kernel or user
// cpumode), which perf resolves only in guest machines (perf_guest, script's guest options);
// readperf has none, so it leaves them out as perf does without those options.
inline constexpr uint8_t kHistFilterGuest = 1 << 5;

struct SampleSelectionOptions {
  std::string_view time;      // --time; empty: none
  std::string_view cpu_list;  // -C/--cpu; empty: none
  bool reltime = false;       // script --reltime: --time counts from the first sample
  std::vector<std::string> comms;
  std::vector<int32_t> pids;
  std::vector<int32_t> tids;
  std::vector<std::string> dsos;
  // Names, or hexadecimal addresses (symbol.c setup_addrlist(): an entry that reads whole
  // as a number is an address only).
  std::vector<std::string> symbols;
  int addr_range = 0;  // script --addr-range: an address entry covers this many bytes
};

class SampleSelection {
 public:
  // The errors are perf's messages ("Invalid time string", "Invalid cpu_list", ...).
  static Result<SampleSelection> parse(const SampleSelectionOptions& options, const PerfData& data);

  // --time or -C drop the sample.
  bool skip_sample(uint64_t time, uint32_t cpu) const { return samples_.skip(time, cpu); }
  bool skip_time(uint64_t time) const { return samples_.skip_time(time); }
  bool skip_cpu(uint32_t cpu) const { return samples_.skip_cpu(cpu); }

  // kHistFilterThread when --comms, --pid or --tid leave the thread out.
  uint8_t thread_bits(const Thread& t) const;
  // kHistFilterDso when --dsos leave the sample's DSO (short or long name) out, or the
  // sample has no map.
  uint8_t dso_bits(bool has_map, const Dso* dso) const;
  // kHistFilterSymbol when --symbols leave the sample out: not its symbol's name, nor (with
  // a map) an address entry equal to `ip` (or within --addr-range of it).
  uint8_t symbol_bits(bool has_map, const Symbol* sym, uint64_t ip) const;
  // kHistFilterGuest for a guest cpumode (event.c thread__find_map()).
  static uint8_t guest_bits(uint8_t cpumode);
  // dso_bits() | symbol_bits() | guest_bits() of a resolved sample's own frame.
  uint8_t frame_bits(const Frame& self) const;
  // All three for a resolved sample's own frame.
  uint8_t filter_bits(const Thread& t, const Frame& self) const {
    return thread_bits(t) | frame_bits(self);
  }

  // Nothing is filtered out.
  bool empty() const {
    return !samples_.has_time() && !samples_.has_cpus() && comms_.empty() && pids_.empty() &&
           tids_.empty() && dsos_.empty() && !has_symbols_;
  }
  bool selects_threads() const { return !comms_.empty() || !pids_.empty() || !tids_.empty(); }
  bool selects_dsos() const { return !dsos_.empty(); }
  bool selects_symbols() const { return has_symbols_; }
  const std::vector<std::string>& comms() const { return comms_; }
  const std::vector<std::string>& dsos() const { return dsos_; }
  // The names --symbols left after the addresses were taken out (what sort__setup_elide()
  // counts).
  const std::vector<std::string>& symbols() const { return symbol_names_; }
  const SampleFilter& samples() const { return samples_; }

 private:
  SampleFilter samples_;  // --time, --cpu
  std::vector<std::string> comms_;
  std::vector<int32_t> pids_;
  std::vector<int32_t> tids_;
  std::vector<std::string> dsos_;
  bool has_symbols_ = false;
  std::vector<std::string> symbol_names_;  // the entries that are not numbers
  std::vector<uint64_t> addrs_;
  int addr_range_ = 0;
};

}  // namespace readperf
