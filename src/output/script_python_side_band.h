// The arguments perf 6.1's Python engine hands a script's side-band and counter handlers
// (trace-event-python.c python_do_process_switch(), python_process_throttle(),
// python_process_auxtrace_error(), process_stat()). Private to the Python engine.
#pragma once

#include <pybind11/pybind11.h>

#include <cstdint>
#include <string>
#include <string_view>

namespace readperf {

struct Sample;
struct SwitchEvent;
struct ThrottleEvent;
struct AuxtraceErrorEvent;

// context_switch(ts, cpu, pid, tid, np_pid, np_tid, machine_pid, out, out_preempt,
// sample_machine_pid, sample_vcpu).
pybind11::tuple context_switch_args(const SwitchEvent& e, const Sample& s);
// throttle/unthrottle(time, id, stream_id, cpu, pid, tid).
pybind11::tuple throttle_args(const ThrottleEvent& e, const Sample& s);
// auxtrace_error(typ, code, cpu, pid, tid, ip, ts, msg, cpumode, machine_pid, vcpu).
pybind11::tuple auxtrace_error_args(const AuxtraceErrorEvent& e);
// stat__EVENT(cpu, thread, time, val, ena, run).
pybind11::tuple stat_args(int32_t cpu, int32_t thread, uint64_t time, uint64_t val, uint64_t ena,
                          uint64_t run);
// get_handler_name(): "stat__" and the event's name, its ':'s as '_'s ("stat__cycles_u").
std::string stat_handler_name(std::string_view event_name);

}  // namespace readperf
