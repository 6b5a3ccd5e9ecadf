#include "script_python_side_band.h"

#include <algorithm>

#include "readperf/reader/sample.h"
#include "readperf/reader/side_band.h"

namespace py = pybind11;

namespace readperf {

namespace {

// tuple_set_s32(): a signed 32-bit value (a u32 -1 is -1).
py::int_ s32(uint32_t v) { return py::int_(static_cast<int32_t>(v)); }

// A message as text (bytes that are not UTF-8 replaced, where perf's conversion would fail).
py::str text(std::string_view s) {
  PyObject* o = PyUnicode_DecodeUTF8(s.data(), static_cast<Py_ssize_t>(s.size()), "replace");
  if (!o) throw py::error_already_set();
  return py::reinterpret_steal<py::str>(o);
}

}  // namespace

py::tuple context_switch_args(const SwitchEvent& e, const Sample& s) {
  // machine->pid: the host's, HOST_KERNEL_ID; evsel__parse_sample() leaves a host sample's
  // machine_pid 0 and its vcpu -1.
  return py::make_tuple(py::int_(s.time), s32(s.cpu), s32(s.pid), s32(s.tid), s32(e.next_prev_pid),
                        s32(e.next_prev_tid), py::int_(-1), py::bool_(e.out),
                        py::bool_(e.out_preempt), py::int_(0), py::int_(-1));
}

py::tuple throttle_args(const ThrottleEvent& e, const Sample& s) {
  return py::make_tuple(py::int_(e.time), py::int_(e.id), py::int_(e.stream_id), s32(s.cpu),
                        s32(s.pid), s32(s.tid));
}

py::tuple auxtrace_error_args(const AuxtraceErrorEvent& e) {
  return py::make_tuple(py::int_(e.type), py::int_(e.code), s32(e.cpu), s32(e.pid), s32(e.tid),
                        py::int_(e.ip), py::int_(e.time), text(e.msg), py::int_(e.cpumode),
                        s32(e.machine_pid), s32(e.vcpu));
}

py::tuple stat_args(int32_t cpu, int32_t thread, uint64_t time, uint64_t val, uint64_t ena,
                    uint64_t run) {
  return py::make_tuple(py::int_(cpu), py::int_(thread), py::int_(time), py::int_(val),
                        py::int_(ena), py::int_(run));
}

std::string stat_handler_name(std::string_view event_name) {
  std::string name = "stat__";
  name += event_name;
  std::replace(name.begin(), name.end(), ':', '_');
  return name;
}

}  // namespace readperf
