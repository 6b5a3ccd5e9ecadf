# `script -s` test: perf 6.1's db-export mode (db-export.c through trace-event-python.c's
# python_export_*()): every table handler's rows, in the order perf calls them.
perf_db_export_mode = True
perf_db_export_calls = False
perf_db_export_callchains = True


def make_table(name):
    def table(*args):
        print(f"{name}{args}")
    return table


for _name in ("evsel", "machine", "thread", "comm", "comm_thread", "dso", "symbol",
              "branch_type", "sample", "call_path", "context_switch"):
    globals()[_name + "_table"] = make_table(_name)


def trace_end():
    print("trace_end")
