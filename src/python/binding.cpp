// The `readperf._readperf` extension: a recording read into the profile model
// (readperf/analysis/profile.h) and handed to Python as numpy arrays. The sample columns are
// views of the model's own vectors (no copy, no Python object per row), kept alive by the
// Recording they belong to; readperf/__init__.py makes DataFrames of them.
#include <fmt/format.h>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include "exports.h"
#include "readperf/analysis/profile_reader.h"
#include "readperf/analysis/symbol_prefetch.h"
#include "readperf/format/perf_abi.h"
#include "readperf/reader/event_name.h"
#include "readperf/reader/perf_data.h"
#include "readperf/symbols/debuginfod.h"
#include "records.h"
#include "report_table.h"
#include "tracepoint_table.h"

namespace py = pybind11;

namespace readperf {
namespace {

// The header and features, as plain Python values.
py::dict header_dict(const PerfData& pd) {
  const FileHeader& h = pd.header();
  const Features& f = pd.features();
  py::dict d;
  d["container"] = pd.kind() == ContainerKind::kPipe        ? "pipe"
                   : pd.kind() == ContainerKind::kDirectory ? "directory"
                                                            : "file";
  d["byte_order"] = h.order == ByteOrder::kNative ? "native" : "swapped";
  d["data_offset"] = h.data.offset;
  d["data_size"] = h.data.size;
  d["attr_size"] = h.attr_size;
  auto opt = [&](const char* key, const std::optional<std::string>& v) {
    d[key] = v ? py::cast(*v) : py::none();
  };
  opt("hostname", f.hostname);
  opt("os_release", f.os_release);
  opt("version", f.version);
  opt("arch", f.arch);
  opt("cpudesc", f.cpudesc);
  opt("cpuid", f.cpuid);
  d["nr_cpus_avail"] = f.nr_cpus_avail;
  d["nr_cpus_online"] = f.nr_cpus_online;
  d["total_mem"] = f.total_mem ? py::cast(*f.total_mem) : py::none();
  d["cmdline"] = f.cmdline ? py::cast(*f.cmdline) : py::none();
  d["sample_time"] = f.sample_time ? py::cast(*f.sample_time) : py::none();
  d["clockid_res_ns"] = f.clockid_res_ns ? py::cast(*f.clockid_res_ns) : py::none();
  py::list build_ids;
  for (const BuildIdRecord& b : f.build_ids) {
    py::dict e;
    e["filename"] = b.filename;
    e["build_id"] = BuildId::from_bytes(b.build_id).hex();
    e["pid"] = b.pid;
    build_ids.append(e);
  }
  d["build_ids"] = build_ids;
  if (f.cpu_topology) {
    py::dict t;
    t["sibling_cores"] = f.cpu_topology->sibling_cores;
    d["cpu_topology"] = t;
  } else {
    d["cpu_topology"] = py::none();
  }
  if (f.compressed) {
    py::dict c;
    c["type"] = f.compressed->type;
    c["level"] = f.compressed->level;
    c["ratio"] = f.compressed->ratio;
    d["compressed"] = c;
  } else {
    d["compressed"] = py::none();
  }
  // Every feature section the file has, by perf's number (HEADER_TRACING_DATA = 1, ...).
  std::vector<uint32_t> features;
  for (uint32_t i = 0; i < h.features.size(); ++i) {
    if (h.features.test(i)) features.push_back(i);
  }
  d["features"] = features;
  d["raw_features"] = [&] {
    py::dict raw;
    for (const auto& [id, bytes] : f.raw) {
      raw[py::int_(id)] = py::bytes(reinterpret_cast<const char*>(bytes.data()), bytes.size());
    }
    return raw;
  }();
  return d;
}

struct Recording {
  std::string path;
  Profile profile;
  py::dict header;
  py::list warnings;              // damage read past, as dicts: message, offset, what
  py::object error = py::none();  // what stopped the reading, or None
  bool opened = false;
  // How it was read, for the views that read it again (report()).
  SymbolConfig symbols;
  uint32_t max_stack = 127;
};

template <class T>
py::array view(const std::vector<T>& v, py::handle owner) {
  py::array a(py::dtype::of<T>(), {v.size()}, {sizeof(T)}, v.data(), owner);
  // The model's columns are shared: numpy must not write into them.
  a.attr("setflags")(py::arg("write") = false);
  return a;
}

template <class T>
py::array_t<T> copy_of(const std::vector<T>& v) {
  py::array_t<T> a(static_cast<py::ssize_t>(v.size()));
  std::copy(v.begin(), v.end(), a.mutable_data());
  return a;
}

py::dict error_dict(const Error& e) {
  py::dict d;
  d["message"] = e.message();
  d["what"] = e.what();
  d["offset"] = e.offset() == Error::kNoOffset ? py::none() : py::cast(e.offset());
  return d;
}

py::object error_or_none(const Status& st) {
  return st ? py::object(py::none()) : py::object(error_dict(st.error()));
}

// Runs an exporter (exports.h) with the recording's symbol settings, without the GIL: the
// error that stopped it as a dict, or None.
template <class Config, class Export>
py::object run_export(const Recording& r, Config cfg, Export run) {
  cfg.symbols = r.symbols;
  cfg.max_stack = r.max_stack;
  Status st;
  {
    py::gil_scoped_release release;
    st = run(cfg);
  }
  return error_or_none(st);
}

// The events as the file's header has them, for a recording whose model is not read.
std::vector<ProfileEvent> header_events(const PerfData& data) {
  std::vector<ProfileEvent> out;
  const EventList& events = data.events();
  for (size_t i = 0; i < events.size(); ++i) {
    const Evsel& ev = events[i];
    out.push_back(ProfileEvent{event_name(ev), ev.attr.type, ev.attr.config, ev.attr.sample_type,
                               ev.attr.freq() ? 0 : ev.attr.sample_period, ev.attr.freq()});
  }
  return out;
}

// Opens and reads `path`. Nothing is raised here: a file that cannot be opened comes back
// unopened with its error, a damaged one with the samples before the damage and the error
// that stopped the reading; readperf/__init__.py raises ReadError from them. Without `model`
// only the header is read (for records(), which reads the file itself), except from a pipe
// file, whose events come with its records.
std::unique_ptr<Recording> open_recording(const std::string& path,
                                          const std::optional<std::string>& buildid_dir,
                                          const std::optional<std::string>& symfs,
                                          const std::optional<std::string>& kallsyms, bool lines,
                                          bool srclines, uint32_t max_stack, bool model,
                                          const py::dict& filters,
                                          const std::optional<std::string>& vmlinux) {
  auto rec = std::make_unique<Recording>();
  rec->path = path;
  ProfileReadConfig cfg;
  cfg.symbols = SymbolConfig::from_environment();
  if (buildid_dir) cfg.symbols.buildid_dir = *buildid_dir;
  if (symfs) cfg.symbols.symfs = *symfs;
  if (kallsyms) cfg.symbols.kallsyms = *kallsyms;
  if (vmlinux) cfg.symbols.vmlinux = *vmlinux;
  cfg.max_stack = max_stack;
  rec->symbols = cfg.symbols;
  rec->max_stack = max_stack;
  cfg.model = ProfileOptions{.lines = lines, .srclines = srclines};
  // perf's sample filters (SampleSelectionOptions), as the readperf package hands them.
  std::string time, cpu;
  SampleSelectionOptions sel;
  if (filters.contains("time")) time = py::cast<std::string>(filters["time"]);
  if (filters.contains("cpu")) cpu = py::cast<std::string>(filters["cpu"]);
  sel.time = time;
  sel.cpu_list = cpu;
  if (filters.contains("comms")) sel.comms = py::cast<std::vector<std::string>>(filters["comms"]);
  if (filters.contains("pids")) sel.pids = py::cast<std::vector<int32_t>>(filters["pids"]);
  if (filters.contains("tids")) sel.tids = py::cast<std::vector<int32_t>>(filters["tids"]);
  if (filters.contains("dsos")) sel.dsos = py::cast<std::vector<std::string>>(filters["dsos"]);
  if (filters.contains("symbols")) {
    sel.symbols = py::cast<std::vector<std::string>>(filters["symbols"]);
  }
  Result<std::unique_ptr<PerfData>> data;
  {
    py::gil_scoped_release release;
    data = PerfData::open(path);
  }
  if (data && filters.size()) {
    Result<SampleSelection> selection = SampleSelection::parse(sel, **data);
    if (!selection) throw py::value_error(selection.error().message());
    cfg.selection = std::move(*selection);
  }
  ProfileRead read;
  {
    py::gil_scoped_release release;
    if (data && (model || (*data)->kind() == ContainerKind::kPipe)) {
      prefetch_symbols(**data, cfg.symbols);
      read = read_profile(**data, cfg);
    } else if (data) {
      read.profile.events = header_events(**data);
    }
  }
  if (!data) {
    rec->error = error_dict(data.error());
    return rec;
  }
  rec->opened = true;
  rec->header = header_dict(**data);
  for (const Error& w : (*data)->warnings()) rec->warnings.append(error_dict(w));
  if (!read.status) rec->error = error_dict(read.status.error());
  rec->profile = std::move(read.profile);
  return rec;
}

}  // namespace
}  // namespace readperf

PYBIND11_MODULE(_readperf, m) {
  using namespace readperf;  // NOLINT
  m.doc() = "readperf's profile model (use the readperf package, not this module)";
  // debuginfod prefetch threads must be gone before the interpreter and then libcurl and
  // OpenSSL tear down (symbols/debuginfod.h): Python's atexit runs first.
  py::module_::import("atexit").attr("register")(
      py::cpp_function([] { readperf::debuginfod_shutdown(); }));
  py::class_<Recording>(m, "Recording")
      .def_readonly("path", &Recording::path)
      .def_readonly("header", &Recording::header)
      .def_readonly("warnings", &Recording::warnings)
      .def_readonly("error", &Recording::error)
      .def_readonly("opened", &Recording::opened)
      .def_property_readonly("events",
                             [](const Recording& r) {
                               py::list out;
                               for (const ProfileEvent& e : r.profile.events) {
                                 py::dict d;
                                 d["name"] = e.name;
                                 d["type"] = e.type;
                                 d["config"] = e.config;
                                 d["sample_type"] = e.sample_type;
                                 d["sample_period"] = e.sample_period;
                                 d["freq"] = e.freq;
                                 out.append(d);
                               }
                               return out;
                             })
      .def_property_readonly(
          "strings",
          [](const Recording& r) {
            py::list out;
            for (size_t i = 0; i < r.profile.string_count(); ++i) {
              std::string_view s = r.profile.str(static_cast<uint32_t>(i));
              // Names are bytes from the file: undecodable ones are kept.
              out.append(py::reinterpret_steal<py::object>(PyUnicode_DecodeUTF8(
                  s.data(), static_cast<py::ssize_t>(s.size()), "surrogateescape")));
            }
            return out;
          })
      .def("sample_columns",
           [](py::object self) {
             const ProfileSamples& c = self.cast<const Recording&>().profile.samples;
             py::dict d;
             d["time"] = view(c.time, self);
             d["pid"] = view(c.pid, self);
             d["tid"] = view(c.tid, self);
             d["cpu"] = view(c.cpu, self);
             d["event"] = view(c.event, self);
             d["period"] = view(c.period, self);
             d["stack_id"] = view(c.stack, self);
             d["comm"] = view(c.comm, self);
             if (!c.addr.empty()) d["addr"] = view(c.addr, self);
             if (!c.weight.empty()) d["weight"] = view(c.weight, self);
             return d;
           })
      .def("frame_columns",
           [](const Recording& r) {
             const std::vector<ProfileFrame>& fs = r.profile.frames;
             auto col = [&](auto get) {
               using T = decltype(get(fs[0]));
               std::vector<T> v;
               v.reserve(fs.size());
               for (const ProfileFrame& f : fs) v.push_back(get(f));
               return copy_of(v);
             };
             py::dict d;
             d["address"] = col([](const ProfileFrame& f) { return f.ip; });
             d["rel_address"] = col([](const ProfileFrame& f) { return f.rel_addr; });
             d["mapping"] = col([](const ProfileFrame& f) { return f.mapping; });
             d["dso"] = col([](const ProfileFrame& f) { return f.dso; });
             d["symbol"] = col([](const ProfileFrame& f) { return f.symbol; });
             d["short_dso"] = col([](const ProfileFrame& f) { return f.short_dso; });
             d["offset"] = col([](const ProfileFrame& f) { return f.symbol_offset; });
             d["srcline"] = col([](const ProfileFrame& f) { return f.srcline; });
             d["file"] = col([](const ProfileFrame& f) { return f.file; });
             d["line"] = col([](const ProfileFrame& f) { return f.line; });
             d["cpumode"] = col([](const ProfileFrame& f) { return f.cpumode; });
             d["flags"] = col([](const ProfileFrame& f) { return f.flags; });
             return d;
           })
      .def("stack_columns",
           [](const Recording& r) {
             size_t n = r.profile.stack_count();
             std::vector<uint32_t> parent(n), frame(n);
             for (size_t i = 0; i < n; ++i) {
               parent[i] = r.profile.stack_parent(static_cast<uint32_t>(i + 1));
               frame[i] = r.profile.stack_frame(static_cast<uint32_t>(i + 1));
             }
             py::dict d;
             d["parent"] = copy_of(parent);
             d["frame"] = copy_of(frame);
             return d;
           })
      .def(
          "report",
          [](const Recording& r, const std::string& sort, bool children) {
            return report_table(r.path, r.symbols, r.max_stack, sort, children);
          },
          py::arg("sort"), py::arg("children"))
      // The exporters: (result, error dict or None); readperf/__init__.py raises.
      .def(
          "collapsed",
          [](const Recording& r, bool pid, bool tid, bool kernel, bool jit, bool addrs,
             const std::string& event, bool count) {
            CollapsedConfig cfg;
            cfg.collapse.include_pid = pid;
            cfg.collapse.include_tid = tid;
            cfg.collapse.annotate_kernel = kernel;
            cfg.collapse.annotate_jit = jit;
            cfg.collapse.include_addrs = addrs;
            cfg.collapse.event_filter = event;
            cfg.collapse.count_samples = count;
            std::string text;
            py::object err = run_export(
                r, cfg, [&](const CollapsedConfig& c) { return collapsed_text(r.path, c, text); });
            return py::make_tuple(py::bytes(text), err);
          },
          py::arg("pid"), py::arg("tid"), py::arg("kernel"), py::arg("jit"), py::arg("addrs"),
          py::arg("event"), py::arg("count"))
      .def(
          "to_pprof",
          [](const Recording& r, const std::string& out, bool gzip) {
            PprofConfig cfg;
            cfg.gzip = gzip;
            return run_export(r, cfg,
                              [&](const PprofConfig& c) { return pprof_file(r.path, c, out); });
          },
          py::arg("out"), py::arg("gzip"))
      .def(
          "pprof",
          [](const Recording& r, bool gzip) {
            PprofConfig cfg;
            cfg.gzip = gzip;
            std::string bytes;
            py::object err = run_export(
                r, cfg, [&](const PprofConfig& c) { return pprof_bytes(r.path, c, bytes); });
            return py::make_tuple(py::bytes(bytes), err);
          },
          py::arg("gzip"))
      .def(
          "to_sqlite",
          [](const Recording& r, const std::string& out, bool callchains) {
            SqliteConfig cfg;
            cfg.callchains = callchains;
            return run_export(r, cfg,
                              [&](const SqliteConfig& c) { return sqlite_file(r.path, c, out); });
          },
          py::arg("out"), py::arg("callchains"))
      .def(
          "records",
          [](const Recording& r, std::vector<uint32_t> types, std::vector<uint32_t> events,
             bool callchains, py::object on_error) {
            std::vector<std::string> names;
            for (const ProfileEvent& e : r.profile.events) names.push_back(e.name);
            return iterate_records(r.path, r.symbols, r.max_stack, std::move(names),
                                   std::move(types), std::move(events), callchains,
                                   std::move(on_error));
          },
          py::arg("types"), py::arg("events"), py::arg("callchains"), py::arg("on_error"))
      .def(
          "tracepoint_columns",
          [](const Recording& r, std::vector<uint32_t> events) {
            return tracepoint_columns(r.path, r.symbols, std::move(events));
          },
          py::arg("events"))
      .def("bytes_per_sample",
           [](const Recording& r) { return r.profile.samples.bytes_per_sample(); });
  m.def("open_recording", &open_recording, py::arg("path"), py::arg("buildid_dir") = py::none(),
        py::arg("symfs") = py::none(), py::arg("kallsyms") = py::none(), py::arg("lines") = false,
        py::arg("srclines") = false, py::arg("max_stack") = 127, py::arg("model") = true,
        py::arg("filters") = py::dict(), py::arg("vmlinux") = py::none());
  m.def(
      "merge_pprof",
      [](const std::vector<std::string>& profiles, bool gzip) {
        std::string out;
        Status st;
        {
          py::gil_scoped_release release;
          st = merged_pprof_bytes(profiles, gzip, out);
        }
        if (!st) throw py::value_error(st.error().message());
        return py::bytes(out);
      },
      py::arg("profiles"), py::arg("gzip") = true);
  add_record_types(m);
  // Record type names (perf's, and ours for the types newer perf added) by number.
  py::dict record_types;
  for (uint32_t t = 1; t < kRecordHeaderMax; ++t) {
    std::string_view name = record_type_name(t);
    if (name != "UNKNOWN" && name != "INVALID") record_types[py::str(std::string(name))] = t;
  }
  m.attr("RECORD_TYPES") = record_types;
  m.attr("FLAG_HAS_SYMBOL") = ProfileFrame::kHasSymbol;
  m.attr("FLAG_INLINED") = ProfileFrame::kInlined;
  m.attr("FLAG_UNWOUND") = ProfileFrame::kUnwound;
  m.attr("FLAG_USER_DSO") = ProfileFrame::kUserDso;
}
