// `Recording.records()`: the records come from stream_records() (output/record_stream.h),
// run in a thread of its own without the GIL, a few batches ahead of the Python loop. A
// Record is a small object over its batch's row: its attributes are made when asked for, so
// a loop that reads two of them pays for two (perf's scripting builds a dict of every field,
// and a list of dicts for the call chain, for every sample).
//
// The types are written against Python's C API (not pybind11 classes): an attribute read is
// then a plain getset call, which is most of what a loop over records costs.
#include "records.h"

#include <Python.h>
#include <structmember.h>

#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>

#include "readperf/format/perf_abi.h"
#include "readperf/output/record_stream.h"
#include "readperf/reader/perf_data.h"
#include "readperf/session/events.h"

namespace py = pybind11;

namespace readperf {

namespace {

// What the reading thread hands the Python side.
struct Channel {
  static constexpr size_t kAhead = 4;  // batches read ahead of the loop
  std::mutex mu;
  std::condition_variable cv;
  std::deque<RecordBatch> ready;
  bool finished = false;
  bool cancelled = false;
  Status status;
  ByteOrder order = ByteOrder::kNative;
};

// Shared by the batches of one iteration: the strings so far (a list, index = string id),
// the event names, the file's byte order.
struct Context {
  PyObject* strings = nullptr;      // list of str
  PyObject* event_names = nullptr;  // tuple of str
  ByteOrder order = ByteOrder::kNative;
  ~Context() {
    Py_XDECREF(strings);
    Py_XDECREF(event_names);
  }
};

struct BatchObject {
  PyObject_HEAD RecordBatch batch;
  std::shared_ptr<Context> context;
};

struct RecordObject {
  PyObject_HEAD BatchObject* batch;  // strong reference
  const RecordRow* row;
};

struct IterObject {
  PyObject_HEAD std::shared_ptr<Channel> channel;
  std::thread* reader;
  std::shared_ptr<Context> context;
  BatchObject* batch;  // the batch being handed out, or null
  size_t next;
  PyObject* error;     // (message, what, offset) once the reading stopped on damage
  PyObject* on_error;  // called with `error`: raises ReadError, or returns (partial)
};

PyTypeObject* batch_type = nullptr;
PyTypeObject* record_type = nullptr;
PyTypeObject* iter_type = nullptr;
PyObject* type_names[256] = {};  // interned record type names

PyObject* type_name(uint32_t type) {
  if (type >= 256) return PyUnicode_FromString(std::string(record_type_name(type)).c_str());
  if (!type_names[type]) {
    type_names[type] = PyUnicode_InternFromString(std::string(record_type_name(type)).c_str());
  }
  Py_INCREF(type_names[type]);
  return type_names[type];
}

PyObject* string_of(const Context& c, uint32_t id) {
  PyObject* s = PyList_GET_ITEM(c.strings, id);
  Py_INCREF(s);
  return s;
}

PyObject* str_from(std::string_view s) {
  return PyUnicode_DecodeUTF8(s.data(), static_cast<Py_ssize_t>(s.size()), "surrogateescape");
}

// ---- Batch ----

// Instances of heap types hold a reference to their type.
void free_object(PyObject* self) {
  PyTypeObject* type = Py_TYPE(self);
  PyObject_Free(self);
  Py_DECREF(type);
}

void batch_dealloc(PyObject* self) {
  auto* b = reinterpret_cast<BatchObject*>(self);
  b->batch.~RecordBatch();
  b->context.~shared_ptr<Context>();
  free_object(self);
}

BatchObject* new_batch(RecordBatch&& batch, std::shared_ptr<Context> context) {
  auto* b = PyObject_New(BatchObject, batch_type);
  if (!b) return nullptr;
  new (&b->batch) RecordBatch(std::move(batch));
  new (&b->context) std::shared_ptr<Context>(std::move(context));
  return b;
}

// ---- Record ----

const RecordRow& row_of(PyObject* self) { return *reinterpret_cast<RecordObject*>(self)->row; }
const Context& context_of(PyObject* self) {
  return *reinterpret_cast<RecordObject*>(self)->batch->context;
}
const RecordBatch& batch_of(PyObject* self) {
  return reinterpret_cast<RecordObject*>(self)->batch->batch;
}
bool is_sample(const RecordRow& r) { return r.type == kRecordSample; }

void record_dealloc(PyObject* self) {
  Py_XDECREF(reinterpret_cast<RecordObject*>(self)->batch);
  free_object(self);
}

#define U64_GETTER(name, expr)                  \
  PyObject* get_##name(PyObject* self, void*) { \
    const RecordRow& r = row_of(self);          \
    return PyLong_FromUnsignedLongLong(expr);   \
  }
#define S64_GETTER(name, expr)                  \
  PyObject* get_##name(PyObject* self, void*) { \
    const RecordRow& r = row_of(self);          \
    return PyLong_FromLongLong(expr);           \
  }
U64_GETTER(time, r.time)
U64_GETTER(ip, r.ip)
U64_GETTER(addr, r.addr)
U64_GETTER(period, r.period)
U64_GETTER(phys_addr, r.phys_addr)
U64_GETTER(weight, r.weight)
U64_GETTER(transaction, r.transaction)
U64_GETTER(cpu, r.cpu)
U64_GETTER(misc, r.misc)
U64_GETTER(cpumode, r.cpumode)
U64_GETTER(file_offset, r.file_offset)
U64_GETTER(type_id, r.type)
S64_GETTER(pid, r.pid)
S64_GETTER(tid, r.tid)
S64_GETTER(event_index, r.event)
#undef U64_GETTER
#undef S64_GETTER

PyObject* get_type(PyObject* self, void*) { return type_name(row_of(self).type); }

PyObject* get_event(PyObject* self, void*) {
  const RecordRow& r = row_of(self);
  const Context& c = context_of(self);
  if (r.event < 0 || r.event >= PyTuple_GET_SIZE(c.event_names)) Py_RETURN_NONE;
  PyObject* s = PyTuple_GET_ITEM(c.event_names, r.event);
  Py_INCREF(s);
  return s;
}

PyObject* get_comm(PyObject* self, void*) {
  const RecordRow& r = row_of(self);
  if (!is_sample(r)) Py_RETURN_NONE;
  return string_of(context_of(self), r.comm);
}

PyObject* get_dso(PyObject* self, void*) {
  const RecordRow& r = row_of(self);
  if (!r.has_map) Py_RETURN_NONE;
  return string_of(context_of(self), r.dso);
}

PyObject* get_symbol(PyObject* self, void*) {
  const RecordRow& r = row_of(self);
  if (!r.has_symbol) Py_RETURN_NONE;
  return string_of(context_of(self), r.symbol);
}

PyObject* get_symoff(PyObject* self, void*) {
  const RecordRow& r = row_of(self);
  if (!r.has_symbol) Py_RETURN_NONE;
  return PyLong_FromUnsignedLongLong(r.symoff);
}

PyObject* get_dso_map_start(PyObject* self, void*) {
  const RecordRow& r = row_of(self);
  if (!r.has_map) Py_RETURN_NONE;
  return PyLong_FromUnsignedLongLong(r.map_start);
}

PyObject* get_dso_map_end(PyObject* self, void*) {
  const RecordRow& r = row_of(self);
  if (!r.has_map) Py_RETURN_NONE;
  return PyLong_FromUnsignedLongLong(r.map_end);
}

// Sets d[key] = v, taking the reference to v; false (an exception set) on failure.
bool put(PyObject* d, const char* key, PyObject* v) {
  if (!v) return false;
  int rc = PyDict_SetItemString(d, key, v);
  Py_DECREF(v);
  return rc == 0;
}

// python_process_callchain(): a list of dicts, leaf first: ip, and with a symbol sym
// {start, end, binding, name} and sym_off, and with a map dso.
PyObject* get_callchain(PyObject* self, void*) {
  const RecordRow& r = row_of(self);
  const RecordBatch& b = batch_of(self);
  const Context& c = context_of(self);
  PyObject* list = PyList_New(r.frames_count);
  if (!list) return nullptr;
  for (uint32_t i = 0; i < r.frames_count; ++i) {
    const RecordFrame& f = b.frames[r.frames_begin + i];
    PyObject* d = PyDict_New();
    if (!d) {
      Py_DECREF(list);
      return nullptr;
    }
    PyList_SET_ITEM(list, i, d);
    bool ok = put(d, "ip", PyLong_FromUnsignedLongLong(f.ip));
    if (ok && f.has_symbol) {
      PyObject* sym = PyDict_New();
      ok = sym && put(sym, "start", PyLong_FromUnsignedLongLong(f.sym_start)) &&
           put(sym, "end", PyLong_FromUnsignedLongLong(f.sym_end)) &&
           put(sym, "binding", PyLong_FromLong(f.binding)) &&
           put(sym, "name", string_of(c, f.symbol));
      ok = put(d, "sym", sym) && ok;
      ok = ok && put(d, "sym_off", PyLong_FromUnsignedLongLong(f.symoff));
    }
    if (ok && f.has_map) ok = put(d, "dso", string_of(c, f.dso));
    if (!ok) {
      Py_DECREF(list);
      return nullptr;
    }
  }
  return list;
}

PyObject* get_raw(PyObject* self, void*) {
  const RecordRow& r = row_of(self);
  const RecordBatch& b = batch_of(self);
  return PyBytes_FromStringAndSize(reinterpret_cast<const char*>(b.bytes.data() + r.bytes_begin),
                                   r.bytes_size);
}

// A side-band record's own fields (perf_event.h), for the types perf's tools read.
PyObject* get_fields(PyObject* self, void*) {
  const RecordRow& r = row_of(self);
  const RecordBatch& b = batch_of(self);
  PyObject* d = PyDict_New();
  if (!d || is_sample(r)) return d;
  ByteOrder order = context_of(self).order;
  RecordView view;
  view.type = r.type;
  view.misc = r.misc;
  view.size = static_cast<uint16_t>(r.bytes_size);
  view.bytes = Bytes(b.bytes.data() + r.bytes_begin, r.bytes_size);
  view.decompressed = true;  // no offsets needed
  bool ok = true;
  auto u64 = [&](const char* k, uint64_t v) {
    ok = ok && put(d, k, PyLong_FromUnsignedLongLong(v));
  };
  auto s64 = [&](const char* k, int64_t v) { ok = ok && put(d, k, PyLong_FromLongLong(v)); };
  auto str = [&](const char* k, std::string_view v) { ok = ok && put(d, k, str_from(v)); };
  switch (r.type) {
    case kRecordMmap:
    case kRecordMmap2: {
      MmapEvent e;
      if (!parse_mmap(view, order, e)) break;
      s64("pid", e.pid);
      s64("tid", e.tid);
      u64("start", e.start);
      u64("len", e.len);
      u64("pgoff", e.pgoff);
      if (e.is_mmap2) {
        if (e.has_build_id) {
          std::string hex;
          static const char kDigits[] = "0123456789abcdef";
          for (std::byte x : e.build_id) {
            hex += kDigits[std::to_integer<int>(x) >> 4];
            hex += kDigits[std::to_integer<int>(x) & 15];
          }
          str("build_id", hex);
        } else {
          u64("maj", e.maj);
          u64("min", e.min);
          u64("ino", e.ino);
          u64("ino_generation", e.ino_generation);
        }
        u64("prot", e.prot);
        u64("flags", e.flags);
      }
      str("filename", e.filename);
      break;
    }
    case kRecordComm: {
      CommEvent e;
      if (!parse_comm(view, order, e)) break;
      s64("pid", e.pid);
      s64("tid", e.tid);
      str("comm", e.comm);
      ok = ok && put(d, "exec", PyBool_FromLong(e.exec));
      break;
    }
    case kRecordFork:
    case kRecordExit: {
      TaskEvent e;
      if (!parse_task(view, order, e)) break;
      s64("pid", e.pid);
      s64("ppid", e.ppid);
      s64("tid", e.tid);
      s64("ptid", e.ptid);
      u64("time", e.time);
      break;
    }
    case kRecordLost: {
      ByteCursor c = view.body(order);
      u64("id", c.u64());
      u64("lost", c.u64());
      break;
    }
    case kRecordLostSamples: {
      ByteCursor c = view.body(order);
      u64("lost", c.u64());
      break;
    }
    case kRecordThrottle:
    case kRecordUnthrottle: {
      ByteCursor c = view.body(order);
      u64("time", c.u64());
      u64("id", c.u64());
      u64("stream_id", c.u64());
      break;
    }
    case kRecordSwitch:
    case kRecordSwitchCpuWide: {
      ok = ok && put(d, "out", PyBool_FromLong((r.misc & kMiscSwitchOut) != 0));
      ok = ok && put(d, "preempt", PyBool_FromLong((r.misc & kMiscSwitchOutPreempt) != 0));
      if (r.type == kRecordSwitchCpuWide) {
        ByteCursor c = view.body(order);
        s64("next_prev_pid", c.s32());
        s64("next_prev_tid", c.s32());
      }
      break;
    }
    case kRecordKsymbol: {
      KsymbolEvent e;
      if (!parse_ksymbol(view, order, e)) break;
      u64("addr", e.addr);
      u64("len", e.len);
      u64("ksym_type", e.ksym_type);
      u64("flags", e.flags);
      str("name", e.name);
      break;
    }
    default:
      break;
  }
  if (!ok) {
    Py_DECREF(d);
    return nullptr;
  }
  return d;
}

// get_perf_sample_dict()'s "sample" dict.
PyObject* sample_dict(PyObject* self) {
  const RecordRow& r = row_of(self);
  PyObject* d = PyDict_New();
  if (!d) return nullptr;
  bool ok = put(d, "pid", PyLong_FromLong(r.pid)) && put(d, "tid", PyLong_FromLong(r.tid)) &&
            put(d, "cpu", PyLong_FromUnsignedLong(r.cpu)) &&
            put(d, "ip", PyLong_FromUnsignedLongLong(r.ip)) &&
            put(d, "time", PyLong_FromUnsignedLongLong(r.time)) &&
            put(d, "period", PyLong_FromUnsignedLongLong(r.period)) &&
            put(d, "phys_addr", PyLong_FromUnsignedLongLong(r.phys_addr)) &&
            put(d, "addr", PyLong_FromUnsignedLongLong(r.addr)) &&
            put(d, "weight", PyLong_FromUnsignedLongLong(r.weight)) &&
            put(d, "transaction", PyLong_FromUnsignedLongLong(r.transaction)) &&
            put(d, "cpumode", PyLong_FromLong(r.cpumode));
  if (!ok) {
    Py_DECREF(d);
    return nullptr;
  }
  return d;
}

PyObject* get_sample(PyObject* self, void*) {
  if (!is_sample(row_of(self))) Py_RETURN_NONE;
  return sample_dict(self);
}

// The param_dict perf's process_event() gets (trace-event-python.c get_perf_sample_dict()):
// ev_name, sample, raw_buf, comm, dso, symbol, symoff, dso_map_start, dso_map_end,
// callchain; dso and symbol keys only when known, as perf's.
PyObject* as_dict(PyObject* self, PyObject*) {
  const RecordRow& r = row_of(self);
  PyObject* d = PyDict_New();
  if (!d) return nullptr;
  bool ok = put(d, "ev_name", get_event(self, nullptr)) && put(d, "sample", sample_dict(self)) &&
            put(d, "raw_buf", get_raw(self, nullptr)) && put(d, "comm", get_comm(self, nullptr));
  if (ok && r.has_map) {
    ok = put(d, "dso", get_dso(self, nullptr)) &&
         put(d, "dso_map_start", get_dso_map_start(self, nullptr)) &&
         put(d, "dso_map_end", get_dso_map_end(self, nullptr));
  }
  if (ok && r.has_symbol) {
    ok = put(d, "symbol", get_symbol(self, nullptr)) && put(d, "symoff", get_symoff(self, nullptr));
  }
  ok = ok && put(d, "callchain", get_callchain(self, nullptr));
  if (!ok) {
    Py_DECREF(d);
    return nullptr;
  }
  return d;
}

PyObject* record_repr(PyObject* self) {
  const RecordRow& r = row_of(self);
  std::string type(record_type_name(r.type));
  if (!is_sample(r)) {
    return PyUnicode_FromFormat("<readperf.Record %s time=%llu pid=%d tid=%d>", type.c_str(),
                                static_cast<unsigned long long>(r.time), r.pid, r.tid);
  }
  PyObject* sym = get_symbol(self, nullptr);
  PyObject* comm = get_comm(self, nullptr);
  PyObject* out =
      PyUnicode_FromFormat("<readperf.Record SAMPLE time=%llu %R %d/%d %R>",
                           static_cast<unsigned long long>(r.time), comm, r.pid, r.tid, sym);
  Py_XDECREF(sym);
  Py_XDECREF(comm);
  return out;
}

#define GET(name, doc) \
  { #name, get_##name, nullptr, const_cast < char*>(doc), nullptr }
PyGetSetDef record_getset[] = {
    GET(type, "the record type, perf's name: 'SAMPLE', 'MMAP2', 'COMM', 'FORK', ..."),
    GET(type_id, "the record type's number (PERF_RECORD_*)"),
    GET(event, "the event's name (perf's ev_name), None when the record names no event"),
    GET(event_index, "the event's index in Recording.events, -1 when none"),
    GET(time, "sample time (ns; 2**64-1 when not recorded)"),
    GET(pid, "process id (-1 when not recorded)"),
    GET(tid, "thread id (-1 when not recorded)"),
    GET(cpu, "cpu (2**32-1 when not recorded)"),
    GET(ip, "sample address"),
    GET(addr, "sample addr field"),
    GET(period, "sample period (a read-format sample's counter delta)"),
    GET(phys_addr, "sample physical address"),
    GET(weight, "sample weight"),
    GET(transaction, "sample transaction flags"),
    GET(cpumode, "PERF_RECORD_MISC_* cpu mode"),
    GET(misc, "the record header's misc bits"),
    GET(file_offset, "offset of the record in the file (of its COMPRESSED record)"),
    GET(comm, "the sample's thread's comm (None for other records)"),
    GET(dso, "the sample address's dso (perf's dso name: a path), None without a map"),
    GET(symbol, "the sample address's symbol, None without one"),
    GET(symoff, "offset of the address in its symbol, None without one"),
    GET(dso_map_start, "start of the sample's map, None without one"),
    GET(dso_map_end, "end of the sample's map, None without one"),
    GET(callchain,
        "the call chain, leaf first: dicts of ip, sym {start, end, binding, name}, "
        "sym_off, dso, as perf's scripting gives them"),
    GET(raw, "a sample's raw data (raw_buf: tracepoint fields), other records' whole bytes"),
    GET(fields,
        "a side-band record's fields (MMAP/MMAP2, COMM, FORK/EXIT, LOST, "
        "LOST_SAMPLES, THROTTLE, SWITCH, KSYMBOL), {} for others and samples"),
    GET(sample, "perf's sample dict (pid, tid, cpu, ip, time, period, ...), None for others"),
    {nullptr, nullptr, nullptr, nullptr, nullptr}};
#undef GET

PyMethodDef record_methods[] = {
    {"as_dict", as_dict, METH_NOARGS,
     "The dict perf's process_event(param_dict) gets for this sample (ev_name, sample, "
     "raw_buf, comm, dso, symbol, symoff, dso_map_start, dso_map_end, callchain)."},
    {nullptr, nullptr, 0, nullptr}};

// ---- Iterator ----

void stop_reader(IterObject* it) {
  if (!it->reader) return;
  {
    std::lock_guard<std::mutex> lock(it->channel->mu);
    it->channel->cancelled = true;
  }
  it->channel->cv.notify_all();
  PyThreadState* ts = PyEval_SaveThread();
  it->reader->join();
  PyEval_RestoreThread(ts);
  delete it->reader;
  it->reader = nullptr;
}

void iter_dealloc(PyObject* self) {
  auto* it = reinterpret_cast<IterObject*>(self);
  stop_reader(it);
  Py_XDECREF(it->batch);
  Py_XDECREF(it->error);
  Py_XDECREF(it->on_error);
  it->channel.~shared_ptr<Channel>();
  it->context.~shared_ptr<Context>();
  free_object(self);
}

// Waits for the next batch; false at the end (it->error set when the reading failed).
bool next_batch(IterObject* it) {
  Channel& ch = *it->channel;
  RecordBatch batch;
  bool got = false;
  PyThreadState* ts = PyEval_SaveThread();
  {
    std::unique_lock<std::mutex> lock(ch.mu);
    ch.cv.wait(lock, [&] { return !ch.ready.empty() || ch.finished; });
    if (!ch.ready.empty()) {
      batch = std::move(ch.ready.front());
      ch.ready.pop_front();
      got = true;
    }
  }
  PyEval_RestoreThread(ts);
  ch.cv.notify_all();
  if (!got) {
    if (!ch.status && !it->error) {
      const Error& e = ch.status.error();
      PyObject* offset = e.offset() == Error::kNoOffset ? (Py_INCREF(Py_None), Py_None)
                                                        : PyLong_FromUnsignedLongLong(e.offset());
      it->error = Py_BuildValue("(NsN)", str_from(e.message()), e.what().c_str(), offset);
    }
    return false;
  }
  it->context->order = ch.order;
  // The strings first used in this batch join the table.
  for (const std::string& s : batch.new_strings) {
    PyObject* o = str_from(s);
    if (!o || PyList_Append(it->context->strings, o) < 0) {
      Py_XDECREF(o);
      return false;
    }
    Py_DECREF(o);
  }
  batch.new_strings.clear();
  Py_XDECREF(it->batch);
  it->batch = new_batch(std::move(batch), it->context);
  it->next = 0;
  return it->batch != nullptr;
}

PyObject* iter_next(PyObject* self) {
  auto* it = reinterpret_cast<IterObject*>(self);
  while (!it->batch || it->next >= it->batch->batch.rows.size()) {
    if (!it->reader && !it->batch) return nullptr;
    if (!next_batch(it)) {
      Py_CLEAR(it->batch);
      if (PyErr_Occurred()) return nullptr;
      stop_reader(it);
      if (it->error && it->on_error) {
        // Once: the next call ends the iteration.
        PyObject* on_error = it->on_error;
        it->on_error = nullptr;
        PyObject* r = PyObject_CallOneArg(on_error, it->error);
        Py_DECREF(on_error);
        Py_XDECREF(r);
      }
      return nullptr;  // StopIteration, or the error on_error raised
    }
  }
  auto* rec = PyObject_New(RecordObject, record_type);
  if (!rec) return nullptr;
  Py_INCREF(it->batch);
  rec->batch = it->batch;
  rec->row = &it->batch->batch.rows[it->next++];
  return reinterpret_cast<PyObject*>(rec);
}

PyObject* get_error(PyObject* self, void*) {
  auto* it = reinterpret_cast<IterObject*>(self);
  if (!it->error) Py_RETURN_NONE;
  Py_INCREF(it->error);
  return it->error;
}

PyObject* iter_close(PyObject* self, PyObject*) {
  auto* it = reinterpret_cast<IterObject*>(self);
  stop_reader(it);
  Py_CLEAR(it->batch);
  Py_RETURN_NONE;
}

PyGetSetDef iter_getset[] = {
    {"error", get_error, nullptr,
     const_cast<char*>("(message, what, offset) of the damage that stopped the reading, or None"),
     nullptr},
    {nullptr, nullptr, nullptr, nullptr, nullptr}};

PyMethodDef iter_methods[] = {
    {"close", iter_close, METH_NOARGS, "Stops the reading (the rest is not read)."},
    {nullptr, nullptr, 0, nullptr}};

PyTypeObject* make_type(const char* name, size_t size, destructor dealloc, PyGetSetDef* getset,
                        PyMethodDef* methods, const char* doc) {
  std::vector<PyType_Slot> slots = {{Py_tp_dealloc, reinterpret_cast<void*>(dealloc)},
                                    {Py_tp_doc, const_cast<char*>(doc)}};
  if (getset) slots.push_back({Py_tp_getset, getset});
  if (methods) slots.push_back({Py_tp_methods, methods});
  if (std::string_view(name) == "readperf._readperf.Record") {
    slots.push_back({Py_tp_repr, reinterpret_cast<void*>(record_repr)});
  }
  if (std::string_view(name) == "readperf._readperf.RecordIterator") {
    slots.push_back({Py_tp_iter, reinterpret_cast<void*>(PyObject_SelfIter)});
    slots.push_back({Py_tp_iternext, reinterpret_cast<void*>(iter_next)});
  }
  slots.push_back({0, nullptr});
  PyType_Spec spec{name, static_cast<int>(size), 0, Py_TPFLAGS_DEFAULT, slots.data()};
  return reinterpret_cast<PyTypeObject*>(PyType_FromSpec(&spec));
}

}  // namespace

void add_record_types(py::module_& m) {
  batch_type = make_type("readperf._readperf.RecordBatch", sizeof(BatchObject), batch_dealloc,
                         nullptr, nullptr, "records shared by their Record objects");
  record_type = make_type(
      "readperf._readperf.Record", sizeof(RecordObject), record_dealloc, record_getset,
      record_methods,
      "One record of a recording, its fields as attributes, made when read (Recording.records()).");
  iter_type = make_type("readperf._readperf.RecordIterator", sizeof(IterObject), iter_dealloc,
                        iter_getset, iter_methods, "The records of a recording, in perf's order.");
  if (!batch_type || !record_type || !iter_type) throw py::error_already_set();
  m.add_object("Record", reinterpret_cast<PyObject*>(record_type));
  m.add_object("RecordIterator", reinterpret_cast<PyObject*>(iter_type));
}

py::object iterate_records(const std::string& path, const SymbolConfig& symbols, uint32_t max_stack,
                           std::vector<std::string> event_names, std::vector<uint32_t> types,
                           std::vector<uint32_t> events, bool callchains, py::object on_error) {
  auto context = std::make_shared<Context>();
  context->strings = PyList_New(0);
  context->event_names = PyTuple_New(static_cast<Py_ssize_t>(event_names.size()));
  if (!context->strings || !context->event_names) throw py::error_already_set();
  for (size_t i = 0; i < event_names.size(); ++i) {
    PyObject* s = str_from(event_names[i]);
    if (!s) throw py::error_already_set();
    PyTuple_SET_ITEM(context->event_names, static_cast<Py_ssize_t>(i), s);
  }
  auto* it = PyObject_New(IterObject, iter_type);
  if (!it) throw py::error_already_set();
  new (&it->channel) std::shared_ptr<Channel>(std::make_shared<Channel>());
  new (&it->context) std::shared_ptr<Context>(std::move(context));
  it->batch = nullptr;
  it->next = 0;
  it->error = nullptr;
  it->on_error = on_error.release().ptr();
  RecordStreamConfig cfg;
  cfg.symbols = symbols;
  cfg.max_stack = max_stack;
  cfg.callchains = callchains;
  cfg.types = std::move(types);
  cfg.events = std::move(events);
  std::shared_ptr<Channel> ch = it->channel;
  it->reader = new std::thread([ch, cfg = std::move(cfg), path] {
    Status st;
    Result<std::unique_ptr<PerfData>> data = PerfData::open(path);
    if (!data) {
      st = tl::unexpected(data.error());
    } else {
      {
        std::lock_guard<std::mutex> lock(ch->mu);
        ch->order = (*data)->order();
      }
      st = stream_records(**data, cfg, [&](RecordBatch&& b) {
        std::unique_lock<std::mutex> lock(ch->mu);
        ch->cv.wait(lock, [&] { return ch->ready.size() < Channel::kAhead || ch->cancelled; });
        if (ch->cancelled) return false;
        ch->ready.push_back(std::move(b));
        ch->cv.notify_all();
        return true;
      });
    }
    std::lock_guard<std::mutex> lock(ch->mu);
    ch->status = std::move(st);
    ch->finished = true;
    ch->cv.notify_all();
  });
  return py::reinterpret_steal<py::object>(reinterpret_cast<PyObject*>(it));
}

}  // namespace readperf
