# `script -s` test: db-export mode with perf_db_export_calls (export-to-sqlite.py's `calls`):
# perf 6.1's call/return processor, whose thread stacks only samples with a resolved addr feed
# (page faults, and branch samples synthesized from AUX data); on other samples the rows are
# db_export.py's, with no call_return rows.
perf_db_export_mode = True
perf_db_export_calls = True
perf_db_export_callchains = True


def make_table(name):
    def table(*args):
        print(f"{name}{args}")
    return table


for _name in ("evsel", "machine", "thread", "comm", "comm_thread", "dso", "symbol",
              "branch_type", "sample", "call_path", "context_switch", "call_return"):
    globals()[_name + "_table"] = make_table(_name)


def trace_end():
    print("trace_end")
