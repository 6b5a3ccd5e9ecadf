// Record.fields: a record's own fields by name, decoded from its bytes.
#include <string>

#include "readperf/format/perf_abi.h"
#include "readperf/output/tracepoint_values.h"
#include "readperf/session/events.h"
#include "readperf/symbols/build_id.h"
#include "record_object.h"

namespace readperf {

namespace {

PyObject* number(const TracepointValue& v, uint64_t x) {
  return v.is_signed ? PyLong_FromLongLong(static_cast<int64_t>(x))
                     : PyLong_FromUnsignedLongLong(x);
}

PyObject* tracepoint_value(const tep_format_field& f, const TracepointValue& v) {
  switch (v.kind) {
    case TracepointValue::Kind::kNumber:
      return number(v, v.number);
    case TracepointValue::Kind::kString:
      return str_from(v.text);
    case TracepointValue::Kind::kBytes:
      return PyBytes_FromStringAndSize(reinterpret_cast<const char*>(v.bytes.data()),
                                       static_cast<Py_ssize_t>(v.bytes.size()));
    case TracepointValue::Kind::kNumberArray: {
      PyObject* list = PyList_New(v.items);
      if (!list) return nullptr;
      for (uint32_t i = 0; i < v.items; ++i) {
        PyObject* x = number(v, tracepoint_array_item(f, v, i));
        if (!x) {
          Py_DECREF(list);
          return nullptr;
        }
        PyList_SET_ITEM(list, i, x);
      }
      return list;
    }
  }
  return nullptr;
}

// A tracepoint sample's fields, common_* first, as perf's python_process_tracepoint() hands
// them to a handler (tracepoint_values.h says where they differ).
PyObject* tracepoint_dict(const RecordRow& r, const RecordBatch& b) {
  PyObject* d = PyDict_New();
  if (!d) return nullptr;
  Bytes raw(b.bytes.data() + r.bytes_begin, r.bytes_size);
  for (const tep_format_field* f : tracepoint_fields(*r.format)) {
    std::string name(tracepoint_field_name(*f));
    if (!put(d, name.c_str(), tracepoint_value(*f, read_tracepoint_field(*f, raw)))) {
      Py_DECREF(d);
      return nullptr;
    }
  }
  return d;
}

PyObject* side_band_fields(const RecordRow& r, const RecordBatch& b, ByteOrder order) {
  PyObject* d = PyDict_New();
  if (!d) return nullptr;
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
          auto id =
              std::span(reinterpret_cast<const uint8_t*>(e.build_id.data()), e.build_id.size());
          str("build_id", BuildId::from_bytes(id).hex());
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

}  // namespace

PyObject* record_fields(const RecordRow& row, const RecordBatch& batch, ByteOrder order) {
  if (row.type == kRecordSample) return row.format ? tracepoint_dict(row, batch) : PyDict_New();
  return side_band_fields(row, batch, order);
}

}  // namespace readperf
