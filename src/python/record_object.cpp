// The Record type (record_object.h).
#include "record_object.h"

#include <structmember.h>

#include <string>
#include <vector>

#include "readperf/format/perf_abi.h"

namespace readperf {

namespace {

struct RecordObject {
  PyObject_HEAD BatchObject* batch;  // strong reference
  const RecordRow* row;
};

PyTypeObject* batch_type_ = nullptr;
PyTypeObject* record_type_ = nullptr;
PyObject* type_names[256] = {};  // interned record type names

PyObject* type_name(uint32_t type) {
  if (type >= 256) return PyUnicode_FromString(std::string(record_type_name(type)).c_str());
  if (!type_names[type]) {
    type_names[type] = PyUnicode_InternFromString(std::string(record_type_name(type)).c_str());
  }
  Py_INCREF(type_names[type]);
  return type_names[type];
}

PyObject* string_of(const RecordContext& c, uint32_t id) {
  PyObject* s = PyList_GET_ITEM(c.strings, id);
  Py_INCREF(s);
  return s;
}

// ---- Batch ----

void batch_dealloc(PyObject* self) {
  auto* b = reinterpret_cast<BatchObject*>(self);
  b->context->pool->give(std::move(b->batch));
  b->batch.~RecordBatch();
  b->context.~shared_ptr<RecordContext>();
  free_object(self);
}

// ---- Record ----

const RecordRow& row_of(PyObject* self) { return *reinterpret_cast<RecordObject*>(self)->row; }
const RecordContext& context_of(PyObject* self) {
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
  const RecordContext& c = context_of(self);
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

// python_process_callchain(): a list of dicts, leaf first: ip, and with a symbol sym
// {start, end, binding, name} and sym_off, and with a map dso.
PyObject* get_callchain(PyObject* self, void*) {
  const RecordRow& r = row_of(self);
  const RecordBatch& b = batch_of(self);
  const RecordContext& c = context_of(self);
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

PyObject* get_fields(PyObject* self, void*) {
  return record_fields(row_of(self), batch_of(self), context_of(self).order);
}

PyObject* get_raw(PyObject* self, void*) {
  const RecordRow& r = row_of(self);
  const RecordBatch& b = batch_of(self);
  return PyBytes_FromStringAndSize(reinterpret_cast<const char*>(b.bytes.data() + r.bytes_begin),
                                   r.bytes_size);
}

// A side-band record's own fields (perf_event.h), for the types perf's tools read.
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
        "the record's own fields by name: a tracepoint sample's decoded fields (common_pid, "
        "prev_comm, ...); a side-band record's (MMAP/MMAP2, COMM, FORK/EXIT, LOST, "
        "LOST_SAMPLES, THROTTLE, SWITCH, KSYMBOL); {} for others"),
    GET(sample, "perf's sample dict (pid, tid, cpu, ip, time, period, ...), None for others"),
    {nullptr, nullptr, nullptr, nullptr, nullptr}};
#undef GET

PyMethodDef record_methods[] = {
    {"as_dict", as_dict, METH_NOARGS,
     "The dict perf's process_event(param_dict) gets for this sample (ev_name, sample, "
     "raw_buf, comm, dso, symbol, symoff, dso_map_start, dso_map_end, callchain)."},
    {nullptr, nullptr, 0, nullptr}};

}  // namespace

PyObject* str_from(std::string_view s) {
  return PyUnicode_DecodeUTF8(s.data(), static_cast<Py_ssize_t>(s.size()), "surrogateescape");
}

bool put(PyObject* d, const char* key, PyObject* v) {
  if (!v) return false;
  int rc = PyDict_SetItemString(d, key, v);
  Py_DECREF(v);
  return rc == 0;
}

void free_object(PyObject* self) {
  PyTypeObject* type = Py_TYPE(self);
  PyObject_Free(self);
  Py_DECREF(type);
}

PyTypeObject* make_type(const char* name, size_t size, PyType_Slot* slots) {
  PyType_Spec spec{name, static_cast<int>(size), 0, Py_TPFLAGS_DEFAULT, slots};
  return reinterpret_cast<PyTypeObject*>(PyType_FromSpec(&spec));
}

bool init_record_types() {
  static PyType_Slot batch_slots[] = {
      {Py_tp_dealloc, reinterpret_cast<void*>(batch_dealloc)},
      {Py_tp_doc, const_cast<char*>("records shared by their Record objects")},
      {0, nullptr}};
  static PyType_Slot record_slots[] = {
      {Py_tp_dealloc, reinterpret_cast<void*>(record_dealloc)},
      {Py_tp_doc, const_cast<char*>("One record of a recording, its fields as attributes, made "
                                    "when read (Recording.records()).")},
      {Py_tp_getset, record_getset},
      {Py_tp_methods, record_methods},
      {Py_tp_repr, reinterpret_cast<void*>(record_repr)},
      {0, nullptr}};
  batch_type_ = make_type("readperf._readperf.RecordBatch", sizeof(BatchObject), batch_slots);
  record_type_ = make_type("readperf._readperf.Record", sizeof(RecordObject), record_slots);
  return batch_type_ && record_type_;
}

PyTypeObject* record_type() { return record_type_; }

BatchObject* new_batch(RecordBatch&& batch, std::shared_ptr<RecordContext> context) {
  auto* b = PyObject_New(BatchObject, batch_type_);
  if (!b) return nullptr;
  new (&b->batch) RecordBatch(std::move(batch));
  new (&b->context) std::shared_ptr<RecordContext>(std::move(context));
  return b;
}

PyObject* new_record(BatchObject* batch, size_t index) {
  auto* rec = PyObject_New(RecordObject, record_type_);
  if (!rec) return nullptr;
  Py_INCREF(batch);
  rec->batch = batch;
  rec->row = &batch->batch.rows[index];
  return reinterpret_cast<PyObject*>(rec);
}

}  // namespace readperf
