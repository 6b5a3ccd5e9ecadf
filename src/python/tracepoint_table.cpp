// Recording.tracepoint_fields() (tracepoint_table.h): the samples of one tracepoint read by
// stream_records() without resolving symbols, their fields decoded into C++ columns with the
// GIL released, then handed to numpy.
#include "tracepoint_table.h"

#include <pybind11/numpy.h>

#include <cstring>
#include <string_view>
#include <unordered_map>

#include "readperf/format/perf_abi.h"
#include "readperf/output/record_stream.h"
#include "readperf/output/tracepoint_values.h"
#include "readperf/reader/perf_data.h"
#include "record_object.h"

namespace py = pybind11;

namespace readperf {

namespace {

// Strings by first appearance, for a Categorical's codes and categories.
class Names {
 public:
  int32_t code(std::string_view s) {
    auto it = codes_.find(std::string(s));
    if (it != codes_.end()) return it->second;
    int32_t c = static_cast<int32_t>(names_.size());
    names_.emplace_back(s);
    codes_.emplace(names_.back(), c);
    return c;
  }
  const std::vector<std::string>& names() const { return names_; }

 private:
  std::vector<std::string> names_;
  std::unordered_map<std::string, int32_t> codes_;
};

// One field's values. The kind is the field's (a number, a string, or another array); a value
// of another kind (a string field whose data is not printable) is kept as an object.
struct Column {
  std::string name;
  const tep_format_field* field = nullptr;
  enum class Kind { kSigned, kUnsigned, kString, kObject } kind = Kind::kSigned;
  std::vector<uint64_t> numbers;
  std::vector<int32_t> codes;
  Names names;
  std::vector<TracepointValue> objects;  // views into `raw_copies`
  std::vector<std::vector<std::byte>> raw_copies;
};

Column::Kind kind_of(const TracepointValue& v) {
  switch (v.kind) {
    case TracepointValue::Kind::kNumber:
      return v.is_signed ? Column::Kind::kSigned : Column::Kind::kUnsigned;
    case TracepointValue::Kind::kString:
      return Column::Kind::kString;
    default:
      return Column::Kind::kObject;
  }
}

// A string field's text; when its data is not printable, up to its NUL (perf hands out the
// bytes).
std::string_view text_of(const TracepointValue& v) {
  if (v.kind == TracepointValue::Kind::kString) return v.text;
  const char* p = reinterpret_cast<const char*>(v.bytes.data());
  return std::string_view(p, strnlen(p, v.bytes.size()));
}

struct Table {
  std::vector<uint64_t> time;
  std::vector<int32_t> pid, tid, cpu, comm;
  Names comms;
  const tep_event* format = nullptr;
  std::vector<Column> columns;

  void add(const RecordRow& row, const RecordBatch& batch) {
    if (!row.format) return;
    if (!format) start(*row.format, row, batch);
    if (row.format != format) return;
    time.push_back(row.time);
    pid.push_back(row.pid);
    tid.push_back(row.tid);
    cpu.push_back(static_cast<int32_t>(row.cpu));
    comm.push_back(comms.code(strings[row.comm]));
    Bytes raw(batch.bytes.data() + row.bytes_begin, row.bytes_size);
    for (Column& c : columns) {
      TracepointValue v = read_tracepoint_field(*c.field, raw);
      switch (c.kind) {
        case Column::Kind::kSigned:
        case Column::Kind::kUnsigned:
          c.numbers.push_back(v.number);
          break;
        case Column::Kind::kString:
          c.codes.push_back(c.names.code(text_of(v)));
          break;
        case Column::Kind::kObject: {
          auto& copy = c.raw_copies.emplace_back(v.bytes.begin(), v.bytes.end());
          v.bytes = Bytes(copy.data(), copy.size());
          c.objects.push_back(v);
          break;
        }
      }
    }
  }

  // The strings the batches brought (record_stream.h), by id.
  std::vector<std::string> strings;

  void start(const tep_event& f, const RecordRow& row, const RecordBatch& batch) {
    format = &f;
    Bytes raw(batch.bytes.data() + row.bytes_begin, row.bytes_size);
    for (const tep_format_field* field : tracepoint_fields(f)) {
      Column& c = columns.emplace_back();
      c.name = tracepoint_field_name(*field);
      c.field = field;
      c.kind = kind_of(read_tracepoint_field(*field, raw));
    }
  }
};

template <class T, class From>
py::array_t<T> numpy_of(const std::vector<From>& v) {
  py::array_t<T> a(static_cast<py::ssize_t>(v.size()));
  T* out = a.mutable_data();
  for (size_t i = 0; i < v.size(); ++i) out[i] = static_cast<T>(v[i]);
  return a;
}

py::tuple categorical(const std::vector<int32_t>& codes, const Names& names) {
  py::list categories;
  for (const std::string& s : names.names()) {
    categories.append(py::reinterpret_steal<py::object>(str_from(s)));
  }
  return py::make_tuple(numpy_of<int32_t>(codes), categories);
}

py::list objects(const Column& c) {
  py::list out;
  for (const TracepointValue& v : c.objects) {
    py::object o;
    if (v.kind == TracepointValue::Kind::kNumberArray) {
      py::list items;
      for (uint32_t i = 0; i < v.items; ++i) {
        uint64_t x = tracepoint_array_item(*c.field, v, i);
        items.append(v.is_signed ? py::int_(static_cast<int64_t>(x)) : py::int_(x));
      }
      o = items;
    } else if (v.kind == TracepointValue::Kind::kString) {
      o = py::reinterpret_steal<py::object>(str_from(v.text));
    } else if (v.kind == TracepointValue::Kind::kNumber) {
      o = v.is_signed ? py::int_(static_cast<int64_t>(v.number)) : py::int_(v.number);
    } else {
      o = py::bytes(reinterpret_cast<const char*>(v.bytes.data()), v.bytes.size());
    }
    out.append(o);
  }
  return out;
}

}  // namespace

py::dict tracepoint_columns(const std::string& path, const SymbolConfig& symbols,
                            std::vector<uint32_t> events) {
  Table table;
  Status st;
  std::shared_ptr<const TraceFormatter> formats;  // what the columns' fields point into
  {
    py::gil_scoped_release release;
    Result<std::unique_ptr<PerfData>> data = PerfData::open(path);
    if (!data) {
      st = tl::unexpected(data.error());
    } else {
      RecordStreamConfig cfg;
      cfg.symbols = symbols;
      cfg.callchains = false;
      cfg.resolve_symbols = false;
      cfg.types = {kRecordSample};
      cfg.events = std::move(events);
      st = stream_records(**data, cfg, [&](RecordBatch& b) {
        table.strings.insert(table.strings.end(), b.new_strings.begin(), b.new_strings.end());
        if (b.tracing) formats = b.tracing;
        for (const RecordRow& r : b.rows) table.add(r, b);
        return true;
      });
    }
  }
  py::dict columns;
  // The sample's own, named as perf's tracepoint handlers name theirs (common_cpu,
  // common_comm): the event's fields may be called pid, comm, cpu...
  columns["common_time"] = numpy_of<uint64_t>(table.time);
  columns["common_cpu"] = numpy_of<int32_t>(table.cpu);
  columns["common_tgid"] = numpy_of<int32_t>(table.pid);
  columns["common_tid"] = numpy_of<int32_t>(table.tid);
  columns["common_comm"] = categorical(table.comm, table.comms);
  for (const Column& c : table.columns) {
    switch (c.kind) {
      case Column::Kind::kSigned:
        columns[c.name.c_str()] = numpy_of<int64_t>(c.numbers);
        break;
      case Column::Kind::kUnsigned:
        columns[c.name.c_str()] = numpy_of<uint64_t>(c.numbers);
        break;
      case Column::Kind::kString:
        columns[c.name.c_str()] = categorical(c.codes, c.names);
        break;
      case Column::Kind::kObject:
        columns[c.name.c_str()] = objects(c);
        break;
    }
  }
  py::dict out;
  out["columns"] = columns;
  out["error"] = py::none();
  if (!st) {
    const Error& e = st.error();
    out["error"] = py::make_tuple(
        e.message(), e.what(),
        e.offset() == Error::kNoOffset ? py::object(py::none()) : py::object(py::int_(e.offset())));
  }
  return out;
}

}  // namespace readperf
