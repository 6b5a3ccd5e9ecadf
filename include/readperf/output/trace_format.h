// Tracepoint sample data printed as perf 6.1 prints it (trace-event-parse.c
// event_format__fprintf): libtraceevent, given the recording's own format files, formats each
// raw sample with the event's "print fmt".
//
//   auto tf = TraceFormatter::create(*data.tracing_data());
//   std::string line;
//   (*tf)->format(evsel.attr.config, sample.cpu, sample.raw, line);
//
// perf loads no libtraceevent plugins for script's default output here (none are installed
// with perf 6.1 on Debian), and neither does this.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "readperf/format/byte_cursor.h"
#include "readperf/format/error.h"
#include "readperf/reader/tracing_data.h"

struct tep_handle;
struct tep_event;

namespace readperf {

class TraceFormatter {
 public:
  // A kernel symbol for an address (perf's machine__resolve_kernel_addr, which libtraceevent
  // calls for %pS and friends): its name, start address and module (empty for vmlinux).
  struct KernelSymbol {
    std::string name;
    std::string module;
    uint64_t start = 0;
  };
  using KernelResolver = std::function<std::optional<KernelSymbol>(uint64_t addr)>;

  // Builds the libtraceevent handle as trace-event-read.c trace_report() does.
  static Result<std::unique_ptr<TraceFormatter>> create(const TracingData& td);
  ~TraceFormatter();
  TraceFormatter(const TraceFormatter&) = delete;
  TraceFormatter& operator=(const TraceFormatter&) = delete;

  // Whether the data has a format for the tracepoint id (attr.config).
  bool has_event(uint64_t id) const;
  // libtraceevent's parsed format of the tracepoint id (its fields), or null.
  tep_event* find_event(uint64_t id) const;
  // The libtraceevent handle (every event the tracing data has).
  tep_handle* handle() const { return tep_; }
  // "sys:name" of the tracepoint id, or empty.
  std::string event_name(uint64_t id) const;
  // The event's own fields (format.fields, not the common ones), in the format's order.
  std::vector<TracepointField> fields(uint64_t id) const;
  // perf 6.1's tep_print_field() of one field in a sample's raw data.
  static void print_field(const TracepointField& field, std::string_view raw, std::string& out);
  // tep_find_any_field(): a field by name, the common ones too; false when there is none.
  bool find_any_field(uint64_t id, std::string_view name, TracepointField* out) const;
  // Appends the formatted fields of one sample's raw data (tep_print_event "%s" of
  // TEP_PRINT_INFO); nothing when the id has no format.
  void format(uint64_t id, int cpu, Bytes raw, std::string& out) const;
  // Appends every field as "name=value" with raw numbers (tep_print_fields(), what report's
  // --raw-trace prints); nothing when the id has no format.
  void format_fields(uint64_t id, Bytes raw, std::string& out) const;
  // Replaces libtraceevent's kallsyms lookup (perf script sets machine__resolve_kernel_addr).
  void set_kernel_resolver(KernelResolver r);

 private:
  TraceFormatter() = default;
  static char* resolve(void* priv, unsigned long long* addrp, char** modp);

  tep_handle* tep_ = nullptr;
  KernelResolver resolver_;
  KernelSymbol last_;  // owns the strings handed to libtraceevent
};

}  // namespace readperf
