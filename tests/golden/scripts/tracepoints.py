# `script -s` test: tracepoint handlers as perf 6.1's Python engine calls them
# (python_process_tracepoint()): SYSTEM__EVENT(...) with the common values and the fields,
# with the perf_sample dict when the handler takes one argument more, trace_unhandled()
# for the others, and perf_trace_context's common_pc(), common_flags(), common_lock_depth().
from perf_trace_context import *

counts = {}


def sched__sched_switch(event_name, context, common_cpu, common_secs, common_nsecs,
                        common_pid, common_comm, common_callchain, prev_comm, prev_pid,
                        prev_prio, prev_state, next_comm, next_pid, next_prio):
    counts[event_name] = counts.get(event_name, 0) + 1
    print(event_name, common_cpu, common_secs, common_nsecs, common_pid, common_comm,
          [(hex(c["ip"]), c.get("sym", {}).get("name"), c.get("dso")) for c in common_callchain],
          repr(prev_comm), prev_pid, prev_prio, prev_state, repr(next_comm), next_pid,
          next_prio, common_pc(context), common_flags(context), common_lock_depth(context))


def sched__sched_process_fork(event_name, context, common_cpu, common_secs, common_nsecs,
                              common_pid, common_comm, common_callchain, parent_comm,
                              parent_pid, child_comm, child_pid, perf_sample_dict):
    counts[event_name] = counts.get(event_name, 0) + 1
    print(event_name, repr(parent_comm), parent_pid, repr(child_comm), child_pid,
          perf_sample_dict["sample"]["period"], perf_sample_dict["sample"]["cpu"],
          perf_sample_dict["ev_name"], perf_sample_dict["raw_buf"].hex())


def trace_unhandled(event_name, context, event_fields_dict):
    counts[event_name] = counts.get(event_name, 0) + 1
    print("unhandled", event_name,
          sorted((k, repr(v)) for k, v in event_fields_dict.items() if k != "common_callchain"))


def process_event(param_dict):
    counts[param_dict["ev_name"]] = counts.get(param_dict["ev_name"], 0) + 1


def trace_end():
    print(sorted(counts.items()))
