#include "script_fields.h"

#include <fmt/format.h>

#include "readperf/format/perf_abi.h"
#include "readperf/reader/event_name.h"

namespace readperf::script {

namespace {

struct FieldName {
  std::string_view str;
  uint64_t field;
};

// builtin-script.c all_output_options[], in its order.
constexpr FieldName kFieldNames[] = {
    {"comm", kComm},
    {"tid", kTid},
    {"pid", kPid},
    {"time", kTime},
    {"cpu", kCpu},
    {"event", kEvname},
    {"trace", kTrace},
    {"ip", kIp},
    {"sym", kSym},
    {"dso", kDso},
    {"addr", kAddr},
    {"symoff", kSymoffset},
    {"srcline", kSrcline},
    {"period", kPeriod},
    {"iregs", kIregs},
    {"uregs", kUregs},
    {"brstack", kBrstack},
    {"brstacksym", kBrstacksym},
    {"data_src", kDataSrc},
    {"weight", kWeight},
    {"bpf-output", kBpfOutput},
    {"callindent", kCallindent},
    {"insn", kInsn},
    {"insnlen", kInsnlen},
    {"brstackinsn", kBrstackinsn},
    {"brstackoff", kBrstackoff},
    {"synth", kSynth},
    {"phys_addr", kPhysAddr},
    {"metric", kMetric},
    {"misc", kMisc},
    {"srccode", kSrccode},
    {"ipc", kIpc},
    {"tod", kTod},
    {"data_page_size", kDataPageSize},
    {"code_page_size", kCodePageSize},
    {"ins_lat", kInsLat},
    {"brstackinsnlen", kBrstackinsnlen},
    {"machine_pid", kMachinePid},
    {"vcpu", kVcpu},
};

constexpr uint64_t kCommon = kComm | kTid | kCpu | kTime | kEvname;
constexpr uint64_t kSymbolic = kIp | kSym | kSymoffset | kDso;

constexpr uint64_t kSwCountDummy = 9;  // perf_event.h PERF_COUNT_SW_DUMMY

}  // namespace

int output_type(uint32_t attr_type) {
  constexpr uint32_t kPerfTypeSynth = 0x80000000u;  // event.h PERF_TYPE_SYNTH (INT_MAX + 1)
  if (attr_type == kPerfTypeSynth) return kTypeSynthOut;
  if (attr_type < 6) return static_cast<int>(attr_type);
  return kTypeOtherOut;
}

const Evsel& first_of_output_type(const EventList& events, const Evsel& evsel) {
  const int type = output_type(evsel.attr.type);
  for (size_t i = 0; i < events.size(); ++i) {
    const EventAttr& a = events[i].attr;
    if (a.type == kTypeSoftware && a.config == kSwCountDummy) continue;
    if (output_type(a.type) == type) return events[i];
  }
  return evsel;
}

std::string_view field_name(uint64_t field) {
  for (const FieldName& f : kFieldNames) {
    if (f.field == field) return f.str;
  }
  return "";
}

std::string_view output_type_name(int type) {
  // parse-events.c event_type().
  switch (type) {
    case kTypeHardware:
      return "hardware";
    case kTypeSoftware:
      return "software";
    case kTypeTracepoint:
      return "tracepoint";
    case kTypeHwCache:
      return "hardware-cache";
    default:
      return "unknown";
  }
}

OutputTable::OutputTable() {
  // builtin-script.c output[]: perf's default fields per event type.
  out_[kTypeHardware].fields = kCommon | kSymbolic | kPeriod;
  out_[kTypeHardware].invalid_fields = kTrace | kBpfOutput;
  out_[kTypeSoftware].fields = kCommon | kSymbolic | kPeriod | kBpfOutput;
  out_[kTypeSoftware].invalid_fields = kTrace;
  out_[kTypeTracepoint].fields = kCommon | kTrace;
  out_[kTypeHwCache].fields = kCommon | kSymbolic | kPeriod;
  out_[kTypeHwCache].invalid_fields = kTrace | kBpfOutput;
  out_[kTypeRaw].fields = kCommon | kSymbolic | kPeriod | kAddr | kDataSrc | kWeight |
                          kPhysAddr | kDataPageSize | kCodePageSize | kInsLat;
  out_[kTypeRaw].invalid_fields = kTrace | kBpfOutput;
  out_[kTypeBreakpoint].fields = kCommon | kSymbolic | kPeriod;
  out_[kTypeBreakpoint].invalid_fields = kTrace | kBpfOutput;
  out_[kTypeSynthOut].fields = kCommon | kSymbolic | kSynth;
  out_[kTypeSynthOut].invalid_fields = kTrace | kBpfOutput;
  out_[kTypeOtherOut].fields = kCommon | kSymbolic | kPeriod;
  out_[kTypeOtherOut].invalid_fields = kTrace | kBpfOutput;
}

bool OutputTable::set_by_user() const {
  for (const TypeOutput& o : out_) {
    if (o.user_set) return true;
  }
  return false;
}

Status OutputTable::parse(std::string_view arg, std::string& warnings) {
  // builtin-script.c parse_output_fields(): an optional "type:" prefix, then a list that
  // either replaces the fields or (with +/-) edits perf's defaults; the two do not mix.
  int type = -1;
  std::string_view list = arg;
  bool edits = arg.find_first_of("+-") != std::string_view::npos;
  if (size_t colon = arg.find(':'); colon != std::string_view::npos) {
    std::string_view t = arg.substr(0, colon);
    list = arg.substr(colon + 1);
    edits = list.find_first_of("+-") != std::string_view::npos;
    if (t == "hw") {
      type = kTypeHardware;
    } else if (t == "sw") {
      type = kTypeSoftware;
    } else if (t == "trace") {
      type = kTypeTracepoint;
    } else if (t == "raw") {
      type = kTypeRaw;
    } else if (t == "break") {
      type = kTypeBreakpoint;
    } else if (t == "synth") {
      type = kTypeSynthOut;
    } else {
      return make_error("Invalid event type in field string.");
    }
    if (out_[type].user_set) {
      warnings += fmt::format("Overriding previous field request for {} events.\n",
                              output_type_name(type));
    }
    if (!edits) {
      out_[type].fields = 0;
      out_[type].user_set = true;
      out_[type].wildcard_set = false;
    }
  } else {
    if (arg.empty()) return make_error("Cannot set fields to 'none' for all event types.");
    if (!edits) {
      if (set_by_user()) warnings += "Overriding previous field request for all events.\n";
      for (TypeOutput& o : out_) {
        o.fields = 0;
        o.user_set = true;
        o.wildcard_set = true;
      }
    }
  }

  enum { kDefault, kSet, kAdd, kRemove } change = kDefault;
  size_t pos = 0;
  while (pos <= list.size()) {
    size_t comma = list.find(',', pos);
    if (comma == std::string_view::npos) comma = list.size();
    std::string_view tok = list.substr(pos, comma - pos);
    pos = comma + 1;
    if (tok.empty()) continue;  // strtok_r skips empty tokens
    if (tok[0] == '+' || tok[0] == '-') {
      if (change == kSet) return make_error("Cannot mix +-field with overridden fields");
      change = tok[0] == '+' ? kAdd : kRemove;
      tok.remove_prefix(1);
    } else {
      if (change != kSet && change != kDefault)
        return make_error("Cannot mix +-field with overridden fields");
      change = kSet;
    }
    uint64_t field = 0;
    for (const FieldName& f : kFieldNames) {
      if (f.str == tok) field = f.field;
    }
    if (!field && tok == "flags") {
      print_flags_ = change != kRemove;
      continue;
    }
    if (!field) return make_error("Invalid field requested.");

    if (type == -1) {
      for (int j = 0; j < kOutputTypes; ++j) {
        TypeOutput& o = out_[j];
        if (o.invalid_fields & field) {
          warnings += fmt::format("'{}' not valid for {} events. Ignoring.\n", tok,
                                  output_type_name(j));
          continue;
        }
        if (change == kRemove) {
          o.fields &= ~field;
          o.user_set_fields &= ~field;
          o.user_unset_fields |= field;
        } else {
          o.fields |= field;
          o.user_set_fields |= field;
          o.user_unset_fields &= ~field;
        }
        o.user_set = true;
        o.wildcard_set = true;
      }
    } else {
      TypeOutput& o = out_[type];
      if (o.invalid_fields & field) {
        return make_error(fmt::format("'{}' not valid for {} events.", tok, output_type_name(type)));
      }
      if (change == kRemove) {
        o.fields &= ~field;
      } else {
        o.fields |= field;
      }
      o.user_set = true;
      o.wildcard_set = true;
    }
  }
  return {};
}

Status OutputTable::check_attr(const Evsel& evsel, bool has_stat, bool has_auxtrace,
                               uint64_t combined_branch_type) {
  const EventAttr& attr = evsel.attr;
  if (attr.type == kTypeSoftware && attr.config == kSwCountDummy) return {};
  if (has_stat) return {};
  TypeOutput& o = out_[output_type(attr.type)];
  bool allow_user_set = has_auxtrace;

  // evsel__do_check_stype(): a field the event did not sample is dropped from perf's
  // defaults, and refused when the user asked for it (unless `allow`).
  auto check = [&](uint64_t stype, std::string_view msg, uint64_t field, bool allow) -> Status {
    if (attr.sample_type & stype) return {};
    if (o.user_set_fields & field) {
      if (allow) return {};
      return make_error(fmt::format(
          "Samples for '{}' event do not have {} attribute set. Cannot print '{}' field.",
          event_name(evsel), msg, field_name(field)));
    }
    o.fields &= ~field;
    return {};
  };
  auto print = [&](uint64_t f) { return (o.fields & f) != 0; };

  if (print(kIp)) RETURN_IF_ERROR(check(kSampleIp, "IP", kIp, false));
  if (print(kAddr)) RETURN_IF_ERROR(check(kSampleAddr, "ADDR", kAddr, allow_user_set));
  if (print(kDataSrc))
    RETURN_IF_ERROR(check(kSampleDataSrc, "DATA_SRC", kDataSrc, allow_user_set));
  if (print(kWeight))
    RETURN_IF_ERROR(check(kSampleWeightType, "WEIGHT", kWeight, allow_user_set));
  if (print(kSym) && !(attr.sample_type & (kSampleIp | kSampleAddr))) {
    return make_error(
        "Display of symbols requested but neither sample IP nor sample address\navailable. "
        "Hence, no addresses to convert to symbols.");
  }
  if (print(kSymoffset) && !print(kSym)) {
    return make_error("Display of offsets requested but symbol is notselected.");
  }
  if (print(kDso) && !(attr.sample_type & (kSampleIp | kSampleAddr))) {
    return make_error("Display of DSO requested but no address to convert.");
  }
  if ((print(kSrcline) || print(kSrccode)) && !print(kIp)) {
    return make_error(
        "Display of source line number requested but sample IP is not\nselected. Hence, no "
        "address to lookup the source line number.");
  }
  if (print(kBrstackinsn) || print(kBrstackinsnlen)) {
    // The code between the branches is walked only for a recording of every branch.
    if (!allow_user_set && !(combined_branch_type & kBranchSampleAny)) {
      return make_error(
          "Display of branch stack assembler requested, but non all-branch filter set\nHint: "
          "run 'perf record -b ...'");
    }
  }
  if (print(kPid) || print(kTid))
    RETURN_IF_ERROR(check(kSampleTid, "TID", kTid | kPid, false));
  if (print(kTime)) RETURN_IF_ERROR(check(kSampleTime, "TIME", kTime, false));
  if (print(kCpu)) RETURN_IF_ERROR(check(kSampleCpu, "CPU", kCpu, allow_user_set));
  if (print(kIregs)) RETURN_IF_ERROR(check(kSampleRegsIntr, "IREGS", kIregs, allow_user_set));
  if (print(kUregs)) RETURN_IF_ERROR(check(kSampleRegsUser, "UREGS", kUregs, false));
  if (print(kPhysAddr))
    RETURN_IF_ERROR(check(kSamplePhysAddr, "PHYS_ADDR", kPhysAddr, allow_user_set));
  if (print(kDataPageSize))
    RETURN_IF_ERROR(check(kSampleDataPageSize, "DATA_PAGE_SIZE", kDataPageSize, false));
  if (print(kCodePageSize))
    RETURN_IF_ERROR(check(kSampleCodePageSize, "CODE_PAGE_SIZE", kCodePageSize, false));
  if (print(kInsLat))
    RETURN_IF_ERROR(check(kSampleWeightStruct, "WEIGHT_STRUCT", kInsLat, false));
  return {};
}

void OutputTable::set_print_ip_opts(const EventAttr& attr) {
  TypeOutput& o = out_[output_type(attr.type)];
  o.print_ip_opts = 0;
  if (o.fields & kIp) o.print_ip_opts |= kPrintIp;
  if (o.fields & kSym) o.print_ip_opts |= kPrintSym;
  if (o.fields & kDso) o.print_ip_opts |= kPrintDso;
  if (o.fields & kSymoffset) o.print_ip_opts |= kPrintSymoffset;
  if (o.fields & kSrcline) o.print_ip_opts |= kPrintSrcline;
}

}  // namespace readperf::script
