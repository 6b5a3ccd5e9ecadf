// What perf's scripting engines (trace-event-python.c, trace-event-perl.c) share about a
// tracepoint sample's fields: the flag values of its print format and the common fields the
// Perf-Trace-Util context functions read.
#pragma once

#include <cstddef>
#include <string>

struct tep_event;
struct tep_print_arg;

namespace readperf {

// trace-event-parse.c eval_flag(): a flag's value as the format file spells it, a number or
// one of the names perf knows.
unsigned long long eval_trace_flag(const char* flag);

// The tracepoint sample a handler is running for (perf's scripting_context): what the
// context functions scripts call with it read, Context.c common_pc(), common_flags() and
// common_lock_depth().
struct ScriptingContext {
  tep_event* event = nullptr;
  const void* raw = nullptr;
  size_t raw_size = 0;
  // A common field of the raw data (0 when the format has none, or the data is too short).
  int common_field(const char* name) const;
};

// What define_event_symbols() hands a script for an event's print format: its __print_flags()
// and __print_symbolic() tables (Core.py's and Core.pm's define_flag_field(), ...), and every
// atom of its expressions as a flag value 0 of the field named last.
class PrintFormatTables {
 public:
  virtual ~PrintFormatTables() = default;
  virtual void flag_field(const std::string& field, const char* delim) = 0;
  virtual void flag_value(const std::string& field, unsigned long long value, const char* str) = 0;
  virtual void symbolic_field(const std::string& field) = 0;
  virtual void symbolic_value(const std::string& field, unsigned long long value,
                              const char* str) = 0;
};

// The engines walk the print arguments alike but stop at different ones: Python's
// (trace-event-python.c) at a bstring, dynamic array, bitmask or function, Perl's
// (trace-event-perl.c) only at a function, saying "Unsupported print arg type" on stderr.
enum class PrintArgWalk { kPython, kPerl };
// `field` is the field named last (cur_field_name), kept from event to event as perf keeps it.
void define_event_symbols(tep_print_arg* args, PrintArgWalk walk, std::string& field,
                          PrintFormatTables& tables);

}  // namespace readperf
