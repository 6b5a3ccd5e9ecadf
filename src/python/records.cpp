// `Recording.records()`: the records come from stream_records() (output/record_stream.h),
// run in a thread of its own without the GIL, a few batches ahead of the Python loop, and
// are handed out as Record objects (record_object.h).
#include "records.h"

#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>

#include "readperf/analysis/symbol_prefetch.h"
#include "readperf/output/record_stream.h"
#include "readperf/reader/perf_data.h"
#include "record_object.h"

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

struct IterObject {
  PyObject_HEAD std::shared_ptr<Channel> channel;
  std::thread* reader;
  std::shared_ptr<RecordContext> context;
  BatchObject* batch;  // the batch being handed out, or null
  size_t next;
  PyObject* error;     // (message, what, offset) once the reading stopped on damage
  PyObject* on_error;  // called with `error`: raises ReadError, or returns (partial)
};

PyTypeObject* iter_type = nullptr;

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
  it->context.~shared_ptr<RecordContext>();
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
  return new_record(it->batch, it->next++);
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

}  // namespace

void add_record_types(py::module_& m) {
  static PyType_Slot iter_slots[] = {
      {Py_tp_dealloc, reinterpret_cast<void*>(iter_dealloc)},
      {Py_tp_doc, const_cast<char*>("The records of a recording, in perf's order.")},
      {Py_tp_getset, iter_getset},
      {Py_tp_methods, iter_methods},
      {Py_tp_iter, reinterpret_cast<void*>(PyObject_SelfIter)},
      {Py_tp_iternext, reinterpret_cast<void*>(iter_next)},
      {0, nullptr}};
  if (!init_record_types()) throw py::error_already_set();
  iter_type = make_type("readperf._readperf.RecordIterator", sizeof(IterObject), iter_slots);
  if (!iter_type) throw py::error_already_set();
  m.add_object("Record", reinterpret_cast<PyObject*>(record_type()));
  m.add_object("RecordIterator", reinterpret_cast<PyObject*>(iter_type));
}

py::object iterate_records(const std::string& path, const SymbolConfig& symbols, uint32_t max_stack,
                           std::vector<std::string> event_names, std::vector<uint32_t> types,
                           std::vector<uint32_t> events, bool callchains, py::object on_error) {
  auto context = std::make_shared<RecordContext>();
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
  new (&it->context) std::shared_ptr<RecordContext>(std::move(context));
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
  std::shared_ptr<BatchPool> pool = it->context->pool;
  it->reader = new std::thread([ch, pool, cfg = std::move(cfg), path] {
    Status st;
    Result<std::unique_ptr<PerfData>> data = PerfData::open(path);
    if (!data) {
      st = tl::unexpected(data.error());
    } else {
      {
        std::lock_guard<std::mutex> lock(ch->mu);
        ch->order = (*data)->order();
      }
      // The kernel's table parsed beside the first records, as the command line does.
      prefetch_symbols(**data, cfg.symbols);
      st = stream_records(**data, cfg, [&](RecordBatch& b) {
        {
          std::unique_lock<std::mutex> lock(ch->mu);
          ch->cv.wait(lock, [&] { return ch->ready.size() < Channel::kAhead || ch->cancelled; });
          if (ch->cancelled) return false;
          ch->ready.push_back(std::move(b));
          ch->cv.notify_all();
        }
        pool->take(b);
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
