// The Record type of `Recording.records()` (records.h): a small object over one row of a
// batch of records (output/record_stream.h), its attributes made when read, so that a loop
// reading two of them pays for two (perf's scripting builds a dict of every field, and a list
// of dicts for the call chain, for every sample). Written against Python's C API, not
// pybind11 classes: an attribute read is then a plain getset call, which is most of what a
// loop over records costs.
#pragma once

#include <Python.h>

#include <cstddef>
#include <memory>
#include <mutex>
#include <string_view>
#include <utility>
#include <vector>

#include "readperf/format/byte_cursor.h"
#include "readperf/output/record_stream.h"

namespace readperf {

// Batches done with, their memory kept for the reading thread's next ones
// (stream_records()).
class BatchPool {
 public:
  void give(RecordBatch&& b) {
    b.clear();
    std::lock_guard<std::mutex> lock(mu_);
    if (spare_.size() < kKept) spare_.push_back(std::move(b));
  }
  // Leaves a spare batch in `b` (emptied), if there is one.
  void take(RecordBatch& b) {
    std::lock_guard<std::mutex> lock(mu_);
    if (spare_.empty()) return;
    b = std::move(spare_.back());
    spare_.pop_back();
  }

 private:
  static constexpr size_t kKept = 8;
  std::mutex mu_;
  std::vector<RecordBatch> spare_;
};

// Shared by the batches of one iteration: the strings so far (a list, index = string id),
// the event names, the file's byte order.
struct RecordContext {
  PyObject* strings = nullptr;      // list of str
  PyObject* event_names = nullptr;  // tuple of str
  ByteOrder order = ByteOrder::kNative;
  std::shared_ptr<BatchPool> pool = std::make_shared<BatchPool>();
  ~RecordContext() {
    Py_XDECREF(strings);
    Py_XDECREF(event_names);
  }
};

// A batch of rows, kept alive by the Record objects over them.
struct BatchObject {
  PyObject_HEAD RecordBatch batch;
  std::shared_ptr<RecordContext> context;
};

// Makes the Record and RecordBatch types; false with a Python error set on failure.
bool init_record_types();
PyTypeObject* record_type();

BatchObject* new_batch(RecordBatch&& batch, std::shared_ptr<RecordContext> context);
// A Record over `batch`'s row `index` (a new reference).
PyObject* new_record(BatchObject* batch, size_t index);

// A heap type of `size`-byte objects with `slots` (ended by {0, nullptr}).
PyTypeObject* make_type(const char* name, size_t size, PyType_Slot* slots);
// tp_dealloc's end for an instance of a heap type (which holds a reference to its type).
void free_object(PyObject* self);
// `s` as a str (bytes that are not UTF-8 as surrogates).
PyObject* str_from(std::string_view s);
// d[key] = v, taking the reference to v; false (an exception set) on failure.
bool put(PyObject* d, const char* key, PyObject* v);

// A record's own fields by name (record_fields.cpp): a tracepoint sample's decoded fields,
// a side-band record's (MMAP2's filename, COMM's comm, ...); {} for others.
PyObject* record_fields(const RecordRow& row, const RecordBatch& batch, ByteOrder order);

}  // namespace readperf
