# `script -s` test: the print format's flag and symbol tables perf 6.1 hands a script before an
# event's first handler call (define_event_symbols(): define_flag_field(), define_flag_value(),
# define_symbolic_field(), define_symbolic_value(), what Core.py's flag_str() reads).


def define_flag_field(event_name, field_name, delim):
    print("define_flag_field", event_name, field_name, repr(delim))


def define_flag_value(event_name, field_name, value, field_str):
    # A number's atom in the print format's expressions (perf 6.1 calls this for every atom)
    # depends on the parser: Debian's libtraceevent 1.7 folds constant expressions that perf
    # 6.1's own copy keeps, so those calls are left out.
    if field_str[:1].isdigit():
        return
    print("define_flag_value", event_name, field_name, value, repr(field_str))


def define_symbolic_field(event_name, field_name):
    print("define_symbolic_field", event_name, field_name)


def define_symbolic_value(event_name, field_name, value, field_str):
    print("define_symbolic_value", event_name, field_name, value, repr(field_str))


def trace_unhandled(event_name, context, event_fields_dict):
    print("event", event_name)
