# `script -s` test: the handlers perf 6.1's Python engine calls besides the samples'
# (trace-event-python.c python_do_process_switch(), python_process_throttle(),
# python_process_auxtrace_error(), process_stat(), python_process_stat_interval()).
# A stat handler is named after its event, ':' as '_' ("stat__cycles_u"), so most names are
# not Python identifiers: they are set in the globals.


def make_stat(name):
    def stat(cpu, thread, time, val, ena, run):
        print(f"{name} cpu {cpu} thread {thread} time {time} val {val} ena {ena} run {run}")
    return stat


for _event in ("task-clock", "context-switches", "cs", "cycles", "page-faults",
               "instructions", "cycles:u", "cpu-clock"):
    globals()["stat__" + _event.replace(":", "_")] = make_stat(_event)

not_a_handler = 1
stat__page_faults = "a string is not a handler"


def stat__interval(time):
    print(f"interval {time}")


def context_switch(ts, cpu, pid, tid, np_pid, np_tid, machine_pid, out, out_preempt,
                   sample_machine_pid, sample_vcpu):
    print(f"switch {ts} cpu {cpu} {pid}/{tid} np {np_pid}/{np_tid} machine {machine_pid} "
          f"out {out!r} preempt {out_preempt!r} {sample_machine_pid} {sample_vcpu}")


def throttle(*args):
    print(f"throttle {args}")


def unthrottle(*args):
    print(f"unthrottle {args}")


def auxtrace_error(typ, code, cpu, pid, tid, ip, ts, msg, cpumode, machine_pid, vcpu):
    # A record of format 0 or 1 ends before machine_pid and vcpu: perf 6.1 reads them past its
    # end; readperf gives 0. auxtrace-error's record of format 2 has type 7.
    print(f"auxtrace_error {(typ, code, cpu, pid, tid, ip, ts, msg, cpumode)}")
    if typ == 7:
        print(f"  machine_pid {machine_pid} vcpu {vcpu}")


def process_event(param_dict):
    print(f"sample {param_dict['sample']['time']} {param_dict['ev_name']}")


def trace_end():
    print("trace_end")
