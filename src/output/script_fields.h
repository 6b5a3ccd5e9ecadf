// Which fields `script` prints for each event type, as builtin-script.c keeps them in its
// output[] table: perf's defaults per type, changed by -F (parse_output_fields), then trimmed
// to what each type's first event recorded (evsel__check_attr). Private to the script printer.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "readperf/format/error.h"
#include "readperf/reader/event_list.h"

namespace readperf::script {

// builtin-script.c enum perf_output_field (same bits).
enum Field : uint64_t {
  kComm = 1ull << 0,
  kTid = 1ull << 1,
  kPid = 1ull << 2,
  kTime = 1ull << 3,
  kCpu = 1ull << 4,
  kEvname = 1ull << 5,
  kTrace = 1ull << 6,
  kIp = 1ull << 7,
  kSym = 1ull << 8,
  kDso = 1ull << 9,
  kAddr = 1ull << 10,
  kSymoffset = 1ull << 11,
  kSrcline = 1ull << 12,
  kPeriod = 1ull << 13,
  kIregs = 1ull << 14,
  kBrstack = 1ull << 15,
  kBrstacksym = 1ull << 16,
  kDataSrc = 1ull << 17,
  kWeight = 1ull << 18,
  kBpfOutput = 1ull << 19,
  kCallindent = 1ull << 20,
  kInsn = 1ull << 21,
  kInsnlen = 1ull << 22,
  kBrstackinsn = 1ull << 23,
  kBrstackoff = 1ull << 24,
  kSynth = 1ull << 25,
  kPhysAddr = 1ull << 26,
  kUregs = 1ull << 27,
  kMetric = 1ull << 28,
  kMisc = 1ull << 29,
  kSrccode = 1ull << 30,
  kIpc = 1ull << 31,
  kTod = 1ull << 32,
  kDataPageSize = 1ull << 33,
  kCodePageSize = 1ull << 34,
  kInsLat = 1ull << 35,
  kBrstackinsnlen = 1ull << 36,
  kMachinePid = 1ull << 37,
  kVcpu = 1ull << 38,
};

// evsel_fprintf.h EVSEL__PRINT_*.
enum PrintOpt : unsigned {
  kPrintIp = 1u << 0,
  kPrintSym = 1u << 1,
  kPrintDso = 1u << 2,
  kPrintSymoffset = 1u << 3,
  kPrintOneline = 1u << 4,
  kPrintSrcline = 1u << 5,
  kPrintUnknownAsAddr = 1u << 6,
};

// PERF_TYPE_HARDWARE..BREAKPOINT, then OUTPUT_TYPE_SYNTH and OUTPUT_TYPE_OTHER.
constexpr int kTypeSynthOut = 6;
constexpr int kTypeOtherOut = 7;
constexpr int kOutputTypes = 8;

// builtin-script.c output_type().
int output_type(uint32_t attr_type);

// builtin-script.c find_first_output_type(): the first event of `evsel`'s output type, dummy
// events left out; `evsel` itself when there is none.
const Evsel& first_of_output_type(const EventList& events, const Evsel& evsel);

struct TypeOutput {
  bool user_set = false;
  bool wildcard_set = false;
  unsigned print_ip_opts = 0;
  uint64_t fields = 0;
  uint64_t invalid_fields = 0;
  uint64_t user_set_fields = 0;
  uint64_t user_unset_fields = 0;
};

class OutputTable {
 public:
  OutputTable();  // perf's defaults

  // parse_output_fields(): one -F argument ("comm,tid", "+addr", "sw:ip,sym", "-dso").
  // Warnings perf prints go to `warnings`, one a line.
  Status parse(std::string_view arg, std::string& warnings);

  // evsel__check_attr() for the first event of its type: fields the event did not record are
  // dropped unless the user asked for them (an error then). `has_stat`/`has_auxtrace`: the
  // file's HEADER_STAT / HEADER_AUXTRACE features.
  // `combined_branch_type`: every event's branch_sample_type, or'ed.
  Status check_attr(const Evsel& evsel, bool has_stat, bool has_auxtrace,
                    uint64_t combined_branch_type = 0);
  // set_print_ip_opts().
  void set_print_ip_opts(const EventAttr& attr);

  TypeOutput& operator[](int type) { return out_[type]; }
  const TypeOutput& operator[](int type) const { return out_[type]; }
  const TypeOutput& of(const EventAttr& attr) const { return out_[output_type(attr.type)]; }
  bool print_flags() const { return print_flags_; }

 private:
  bool set_by_user() const;
  std::array<TypeOutput, kOutputTypes> out_;
  bool print_flags_ = false;
};

// The -F name of one field ("comm"), as perf's all_output_options[] has it.
std::string_view field_name(uint64_t field);
// event_type(): "hardware", "software", "trace", "raw", "break", "synth", "unknown".
std::string_view output_type_name(int type);

}  // namespace readperf::script
