# `script -s` test: a page fault's addr resolved as perf 6.1's get_perf_sample_dict() hands it
# (addr_correlates_sym, and set_sym_in_dict()'s addr_dso, addr_dso_bid, addr_dso_map_start,
# addr_dso_map_end, addr_symbol, addr_symoff when the addr has a map and a symbol).


def process_event(param_dict):
    s = param_dict["sample"]
    keys = sorted(k for k in s if k.startswith("addr_"))
    print(param_dict["ev_name"], hex(s["ip"]), param_dict.get("symbol"), hex(s["addr"]),
          [(k, s[k]) for k in keys])
