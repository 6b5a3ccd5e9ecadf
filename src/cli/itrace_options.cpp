#include "itrace_options.h"

#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <cctype>
#include <cstdlib>
#include <string>

namespace readperf::cli {

namespace {

// itrace_synth_opts__set_default(opts, no_sample=false): what a bare --itrace asks for.
void set_defaults(ItraceOptions& o) {
  o.branches = o.transactions = o.ptwrites = o.pwr_events = o.other_events = true;
  o.intr_events = o.errors = o.flc = o.llc = o.tlb = o.mem = o.remote_access = true;
  o.instructions = true;
  o.period_type = 2;  // PERF_ITRACE_DEFAULT_PERIOD_TYPE: nanoseconds
  o.period = 100000;  // PERF_ITRACE_DEFAULT_PERIOD
  o.callchain_sz = ItraceOptions::kDefaultCallchainSize;
  o.last_branch_sz = ItraceOptions::kDefaultLastBranchSize;
  o.initial_skip = 0;
}

// auxtrace.c get_flag(): one letter after '+' or '-', spaces before it skipped.
bool get_flag(const char*& p, uint32_t& flags) {
  while (*p == ' ') ++p;
  if (*p < 'a' || *p > 'z') return false;
  flags |= 1u << (*p - 'a');
  ++p;
  return true;
}

// auxtrace.c get_flags(): "+x", "-y" and spaces, until anything else.
bool get_flags(const char*& p, uint32_t& plus, uint32_t& minus) {
  for (;;) {
    switch (*p) {
      case '+':
        ++p;
        if (!get_flag(p, plus)) return false;
        break;
      case '-':
        ++p;
        if (!get_flag(p, minus)) return false;
        break;
      case ' ':
        ++p;
        break;
      default:
        return true;
    }
  }
}

void skip_separators(const char*& p) {
  while (*p == ' ' || *p == ',') ++p;
}

// "g"/"G"/"l"/"L"'s optional size: 1 to `max`.
bool optional_size(const char*& p, uint32_t max, uint32_t& size) {
  skip_separators(p);
  if (!std::isdigit(static_cast<unsigned char>(*p))) return true;
  char* end = nullptr;
  unsigned long v = std::strtoul(p, &end, 10);
  p = end;
  if (v == 0 || v > max) return false;
  size = static_cast<uint32_t>(v);
  return true;
}

// The letters of itrace_do_parse_synth_opts(); false at what it refuses.
bool parse_letters(const char* p, ItraceOptions& o, bool& period_type_set, bool& period_set) {
  while (*p) {
    char c = *p++;
    switch (c) {
      case 'i':
        o.instructions = true;
        skip_separators(p);
        if (std::isdigit(static_cast<unsigned char>(*p))) {
          char* end = nullptr;
          o.period = std::strtoull(p, &end, 10);
          period_set = true;
          p = end;
          skip_separators(p);
          switch (*p++) {
            case 'i':
              o.period_type = 0;
              period_type_set = true;
              break;
            case 't':
              o.period_type = 1;
              period_type_set = true;
              break;
            case 'm':
              o.period *= 1000;
              [[fallthrough]];
            case 'u':
              o.period *= 1000;
              [[fallthrough]];
            case 'n':
              if (*p++ != 's') return false;
              o.period_type = 2;
              period_type_set = true;
              break;
            case '\0':
              return true;  // "goto out": past the end, the rest is not read
            default:
              return false;
          }
        }
        break;
      case 'b':
        o.branches = true;
        break;
      case 'x':
        o.transactions = true;
        break;
      case 'w':
        o.ptwrites = true;
        break;
      case 'p':
        o.pwr_events = true;
        break;
      case 'o':
        o.other_events = true;
        break;
      case 'I':
        o.intr_events = true;
        break;
      case 'e':
        o.errors = true;
        if (!get_flags(p, o.error_plus_flags, o.error_minus_flags)) return false;
        break;
      case 'd':
        o.log = true;
        if (!get_flags(p, o.log_plus_flags, o.log_minus_flags)) return false;
        break;
      case 'c':
        o.branches = o.calls = true;
        break;
      case 'r':
        o.branches = o.returns = true;
        break;
      case 'G':
      case 'g':
        (c == 'G' ? o.add_callchain : o.callchain) = true;
        o.callchain_sz = ItraceOptions::kDefaultCallchainSize;
        if (!optional_size(p, ItraceOptions::kMaxCallchainSize, o.callchain_sz)) return false;
        break;
      case 'L':
      case 'l':
        (c == 'L' ? o.add_last_branch : o.last_branch) = true;
        o.last_branch_sz = ItraceOptions::kDefaultLastBranchSize;
        if (!optional_size(p, ItraceOptions::kMaxLastBranchSize, o.last_branch_sz)) return false;
        break;
      case 's': {
        char* end = nullptr;
        o.initial_skip = std::strtoul(p, &end, 10);
        if (end == p) return false;
        p = end;
        break;
      }
      case 'f':
        o.flc = true;
        break;
      case 'm':
        o.llc = true;
        break;
      case 't':
        o.tlb = true;
        break;
      case 'a':
        o.remote_access = true;
        break;
      case 'M':
        o.mem = true;
        break;
      case 'q':
        ++o.quick;
        break;
      case 'A':
        o.approx_ipc = true;
        break;
      case 'Z':
        o.timeless_decoding = true;
        break;
      case ' ':
      case ',':
        break;
      default:
        return false;
    }
  }
  return true;
}

}  // namespace

Status parse_itrace(std::optional<std::string_view> opts, ItraceOptions& into) {
  into.set = true;
  if (!opts) {
    set_defaults(into);
    return {};
  }
  std::string text(*opts);  // NUL-terminated, read as perf reads its C string
  bool period_type_set = false, period_set = false;
  if (!parse_letters(text.c_str(), into, period_type_set, period_set)) {
    return make_error(fmt::format("Bad Instruction Tracing options '{}'", text));
  }
  if (into.instructions) {
    if (!period_type_set) into.period_type = 2;
    if (!period_set) into.period = 100000;
  }
  return {};
}

void add_itrace_options(CLI::App& cmd, ItraceOptions& into) {
  // The value as CLI11 hands it: empty for a bare --itrace (or --itrace=).
  auto letters = [](const std::string& v) {
    return v.empty() ? std::nullopt : std::optional<std::string_view>(v);
  };
  cmd.add_option_function<std::string>(
         "--itrace",
         [&into, letters](const std::string& v) { (void)parse_itrace(letters(v), into); },
         "Instruction Tracing options (i: instructions, b: branches, c: calls, r: returns, e: "
         "errors, g/G: call chains, l/L: last branch entries, ...)")
      ->expected(0, 1)
      ->trigger_on_parse()
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
      ->option_text("[=<opts>]")
      ->check(CLI::Validator(
          [letters](const std::string& v) {
            ItraceOptions scratch;
            Status st = parse_itrace(letters(v), scratch);
            return st ? std::string() : st.error().what();
          },
          "", "itrace"));
  cmd.add_flag_callback(
         "--no-itrace",
         [&into] {
           into.set = true;
           into.dont_decode = true;
         },
         "do not decode the instruction trace")
      ->trigger_on_parse();
}

}  // namespace readperf::cli
