#include "script_trace_args.h"

#include <traceevent/event-parse.h>

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <utility>

namespace readperf {

unsigned long long eval_trace_flag(const char* flag) {
  if (std::isdigit(static_cast<unsigned char>(flag[0]))) return std::strtoull(flag, nullptr, 0);
  static constexpr std::pair<const char*, unsigned long long> kFlags[] = {
      {"HI_SOFTIRQ", 0},      {"TIMER_SOFTIRQ", 1},     {"NET_TX_SOFTIRQ", 2},
      {"NET_RX_SOFTIRQ", 3},  {"BLOCK_SOFTIRQ", 4},     {"IRQ_POLL_SOFTIRQ", 5},
      {"TASKLET_SOFTIRQ", 6}, {"SCHED_SOFTIRQ", 7},     {"HRTIMER_SOFTIRQ", 8},
      {"RCU_SOFTIRQ", 9},     {"HRTIMER_NORESTART", 0}, {"HRTIMER_RESTART", 1},
  };
  for (const auto& [name, value] : kFlags) {
    if (!std::strcmp(name, flag)) return value;
  }
  return 0;
}

int ScriptingContext::common_field(const char* name) const {
  if (!event || !raw) return 0;
  tep_format_field* f = tep_find_common_field(event, name);
  if (!f || static_cast<size_t>(f->offset) + f->size > raw_size) return 0;
  unsigned long long v = 0;
  if (tep_read_number_field(f, raw, &v) != 0) return 0;
  return static_cast<int>(v);
}

void define_event_symbols(tep_print_arg* args, PrintArgWalk walk, std::string& field,
                          PrintFormatTables& tables) {
  // perf recurses into each argument and then its next one: an argument it stops at ends its
  // own list, and the walk goes on in the argument holding that list.
  auto visit = [&](tep_print_arg* a) { define_event_symbols(a, walk, field, tables); };
  for (; args; args = args->next) {
    switch (args->type) {
      case TEP_PRINT_NULL:
      case TEP_PRINT_STRING:
        break;
      case TEP_PRINT_ATOM:
        tables.flag_value(field, 0, args->atom.atom);
        break;
      case TEP_PRINT_FIELD:
        field = args->field.name ? args->field.name : "";
        break;
      case TEP_PRINT_FLAGS:
        visit(args->flags.field);
        tables.flag_field(field, args->flags.delim ? args->flags.delim : "");
        for (tep_print_flag_sym* f = args->flags.flags; f; f = f->next) {
          tables.flag_value(field, eval_trace_flag(f->value), f->str ? f->str : "");
        }
        break;
      case TEP_PRINT_SYMBOL:
        visit(args->symbol.field);
        tables.symbolic_field(field);
        for (tep_print_flag_sym* f = args->symbol.symbols; f; f = f->next) {
          tables.symbolic_value(field, eval_trace_flag(f->value), f->str ? f->str : "");
        }
        break;
      case TEP_PRINT_HEX:
      case TEP_PRINT_HEX_STR:
        visit(args->hex.field);
        visit(args->hex.size);
        break;
      case TEP_PRINT_INT_ARRAY:
        visit(args->int_array.field);
        visit(args->int_array.count);
        visit(args->int_array.el_size);
        break;
      case TEP_PRINT_TYPE:
        visit(args->typecast.item);
        break;
      case TEP_PRINT_OP:
        visit(args->op.left);
        visit(args->op.right);
        break;
      case TEP_PRINT_BSTRING:
      case TEP_PRINT_DYNAMIC_ARRAY:
      case TEP_PRINT_DYNAMIC_ARRAY_LEN:
      case TEP_PRINT_BITMASK:
        if (walk == PrintArgWalk::kPython) return;
        break;
      default:  // TEP_PRINT_FUNC
        if (walk == PrintArgWalk::kPerl) std::fprintf(stderr, "Unsupported print arg type\n");
        return;
    }
  }
}

}  // namespace readperf
