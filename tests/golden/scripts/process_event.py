# `script -s` test: everything perf 6.1's Python engine hands process_event() for each sample
# (get_perf_sample_dict()), and sys.argv, trace_begin() and trace_end().
import sys

from perf_trace_context import *

seen = 0


def trace_begin():
    print("trace_begin", sys.argv[1:])


def user_map_end(param_dict):
    """The map's end, but for the kernel's: perf fixes that up from the kallsyms it finds,
    the running kernel's where it is the recorded one."""
    dso = param_dict.get("dso")
    return None if dso is None or dso.startswith("[") else param_dict.get("dso_map_end")


def process_event(param_dict):
    global seen
    seen += 1
    s = param_dict["sample"]
    print(param_dict["ev_name"], param_dict["comm"], s["pid"], s["tid"], s["cpu"], s["time"],
          s["period"], hex(s["ip"]), hex(s["addr"]), s["phys_addr"], s["weight"],
          s["transaction"], s["cpumode"], s["values"], s.get("time_enabled"),
          s.get("time_running"), hex(s["datasrc"]), s["datasrc_decode"],
          param_dict.get("dso"), param_dict.get("dso_bid"), param_dict.get("dso_map_start"),
          user_map_end(param_dict), param_dict.get("symbol"), param_dict.get("symoff"),
          len(param_dict["attr"]), param_dict["attr"][:16].hex(), len(param_dict["raw_buf"]),
          repr(param_dict["iregs"]), repr(param_dict["uregs"]), param_dict["brstack"],
          param_dict["brstacksym"])
    for c in param_dict["callchain"]:
        sym = c.get("sym")
        print("   ", hex(c["ip"]), sym and (hex(sym["start"]), hex(sym["end"]), sym["binding"],
                                             sym["name"]),
              c.get("sym_off"), c.get("sym_srcline"), c.get("dso"))


def trace_end():
    print("trace_end", seen)
