# `script -s` test: a sample's branch stack as perf 6.1's Python engine hands it over
# (python_process_brstack(), python_process_brstacksym()).


def process_event(param_dict):
    s = param_dict["sample"]
    print(param_dict["ev_name"], s["pid"], s["tid"], hex(s["ip"]), param_dict.get("symbol"),
          len(param_dict["brstack"]))
    for b, bs in zip(param_dict["brstack"], param_dict["brstacksym"]):
        print("   ", hex(b["from"]), hex(b["to"]), b["mispred"], b["predicted"], b["in_tx"],
              b["abort"], b["cycles"], b["from_dsoname"], b["to_dsoname"], bs["from"], bs["to"],
              bs["pred"], bs["in_tx"], bs["abort"])
