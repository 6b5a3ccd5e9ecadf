// Pieces of the `script` printer shared by its script_*.cpp files (not a public API).
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <unordered_map>
#include <vector>

#include "readperf/analysis/sample_selection.h"
#include "readperf/format/error.h"
#include "readperf/output/out_buffer.h"
#include "readperf/output/script_printer.h"
#include "readperf/reader/perf_data.h"
#include "readperf/session/thread.h"
#include "stat_counts.h"

namespace readperf {

class Resolver;
class ScriptEngine;
struct Frame;
struct AuxtraceErrorEvent;

// auxtrace.c perf_event__fprintf_auxtrace_error().
void print_auxtrace_error(OutBuffer& out, const AuxtraceErrorEvent& e);

// The sample filters of builtin-script.c process_sample_event() and machine__resolve():
// the sample selection (--time, --cpu, --comms/--pids/--tids, --dsos, -S) and the `tod`
// field's clock.
class ScriptFilters {
 public:
  // Parses the options against the recording; the errors are perf's.
  Status setup(const ScriptConfig& cfg, const PerfData& data);

  bool skip_time(uint64_t time) const { return selection_.skip_time(time); }
  // builtin-script.c filter_cpu().
  bool skip_cpu(uint32_t cpu) const { return selection_.skip_cpu(cpu); }
  // thread.h thread__is_filtered().
  bool skip_thread(const Thread& t) const { return selection_.thread_bits(t) != 0; }
  // event.c machine__resolve(): --dsos by the sample's DSO (short or long name), -S by its
  // symbol's name, or by hexadecimal addresses (--addr-range wide).
  bool skip_address(const Frame& self) const { return selection_.frame_bits(self) != 0; }
  // builtin-script.c tod_scnprintf() and its trailing space.
  std::string tod(uint64_t time) const;

 private:
  SampleSelection selection_;
  bool clock_ = false;
  uint64_t tod_ns_ = 0;
  uint64_t clockid_ns_ = 0;
  bool nanosecs_ = false;
};

// `perf stat record` files: the counts perf script prints at each STAT_ROUND
// (builtin-script.c process_stat_round_event, __process_stat).
class ScriptStat {
 public:
  // With a script engine the counts go to its stat handlers instead of being printed.
  ScriptStat(const PerfData& pd, OutBuffer& out, ScriptEngine* engine)
      : pd_(pd), out_(out), engine_(engine) {}
  void on_user_record(const RecordView& r);

 private:
  void round(uint64_t time);
  void print_counter(const Evsel& evsel, StatCounter& c, uint64_t time);
  void script_counter(const Evsel& evsel, StatCounter& c, uint64_t time);
  StatCounts& counts(size_t evsel, size_t cpu_idx, size_t thread_idx);

  const PerfData& pd_;
  OutBuffer& out_;
  ScriptEngine* engine_;
  std::vector<int32_t> threads_;   // THREAD_MAP pids
  std::vector<int> cpus_;          // CPU_MAP
  bool scale_ = true;              // STAT_CONFIG's scale
  int aggr_mode_ = 1;              // STAT_CONFIG's aggr_mode (AGGR_GLOBAL)
  std::vector<StatCounter> counters_;  // by evsel
  bool header_printed_ = false;
};

// builtin-script.c perf_sample__fprintf_start(): what begins each line, for samples and for
// the side-band records --show-*-events prints. Keeps --reltime's first time and
// --deltatime's previous one.
class ScriptLineStart {
 public:
  ScriptLineStart(const ScriptConfig& cfg, const ScriptFilters& filters)
      : cfg_(cfg), filters_(filters) {}
  // `fields`: the event type's; `comm_unpadded`: the comm is printed as is (a call chain
  // follows); `record_type`: the record's, for the misc flags of side-band lines.
  void print(OutBuffer& out, const Sample& s, std::string_view comm, uint64_t fields,
             bool comm_unpadded, uint32_t record_type);

 private:
  const ScriptConfig& cfg_;
  const ScriptFilters& filters_;
  uint64_t initial_time_ = 0;
  uint64_t previous_time_ = 0;
};

// event.c perf_event__fprintf(): "PERF_RECORD_<NAME>" and what perf says of the record.
void print_record_text(OutBuffer& out, const RecordView& r, ByteOrder order, const Sample& s);

// builtin-script.c perf_sample__fprintf_flags(): the branch flags column ("  %-21s ").
void print_sample_flags(OutBuffer& out, uint32_t flags);

// builtin-script.c map__fprintf_srccode() with srccode.c's file cache: "|LINE     source"
// for a sample's own address, not again while a thread stays on the same line.
class ScriptSourceLines {
 public:
  // Prints the line (without its newline); false when there was nothing to print.
  bool print(OutBuffer& out, Resolver& resolver, const Frame& self, const void* thread);

 private:
  struct File {
    bool missing = false;
    std::string text;
    std::vector<size_t> starts;  // where each line begins
  };
  struct Last {
    std::string file;
    uint32_t line = 0;
  };
  const File* file(const std::string& path);
  std::unordered_map<std::string, File> files_;
  std::unordered_map<const void*, Last> last_;  // per thread (thread->srccode_state)
};

// builtin-script.c perf_sample__fprintf_brstack(), _brstacksym() and _brstackoff(): the
// sample's branch stack, one " FROM/TO/FLAGS " group per entry, as `fields` asks (kBrstack,
// else kBrstacksym, else kBrstackoff; kDso adds each end's DSO). `dso_name` is the printer's
// map__fprintf_dsoname().
void print_branch_stack(OutBuffer& out, Resolver& resolver, const Thread& thread, const Sample& s,
                        uint64_t fields, std::string_view (*dso_name)(const Frame&, const void*),
                        const void* dso_name_arg);

// Where `script -F srccode` prints the source lines of brstackinsn's instructions: the
// sample's source-line state, and standard output.
struct BlockSource {
  ScriptSourceLines* lines = nullptr;
  OutBuffer* out = nullptr;
};

// builtin-script.c perf_sample__fprintf_brstackinsn(): the instructions of each basic block
// between the branch stack's entries, read from the binaries (x86), with the branches' flags,
// cycles and IPC; kBrstackinsnlen adds each instruction's length, kSrcline the source line of
// each symbol's first instruction, kSrccode (to `source`) each new source line.
void print_branch_stack_insns(OutBuffer& out, Resolver& resolver, const Thread& thread,
                              const Sample& s, uint64_t fields, int max_blocks, BlockSource source);

// -v: every binary looked for, where, and what came of it (on `err`).
// print_symbol_sources(): readperf/output/symbol_sources.h

}  // namespace readperf
