# `script -s` test: db-export mode with perf_db_export_calls (export-to-sqlite.py's `calls`):
# perf 6.1's call/return processor, whose thread stacks only samples with a resolved addr feed
# (page faults, and branch samples synthesized from AUX data); on other samples the rows are
# db_export.py's, with no call_return rows.
import os

with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "db_export.py")) as _f:
    exec(_f.read())
perf_db_export_calls = True
call_return_table = make_table("call_return")  # noqa: F821 (db_export.py's)
