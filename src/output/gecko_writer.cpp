// The Gecko profile document (firefox-devtools/profiler src/types/gecko-profile.ts at version
// 27): the top-level meta, then one subprocess profile per process holding its libs and
// threads, each thread's tables as the format's {schema, data} rows.
#include <fmt/format.h>

#include "gecko_profile.h"
#include "json_util.h"

namespace readperf::gecko {

namespace {

constexpr int kVersion = 27;

// Milliseconds since the profile's start, exactly (nanoseconds as a decimal fraction).
void millis(OutBuffer& out, uint64_t ns, uint64_t start) {
  uint64_t d = ns >= start ? ns - start : 0;
  out.print("{}.{:06}", d / 1000000, d % 1000000);
}

void string(OutBuffer& out, std::string_view s) { json_string(out.buffer(), s); }

// breakpad's id of an ELF build-id (what samply and the profiler's symbolication use): its
// first 16 bytes as a GUID (the first three fields byte-swapped), upper case, then age 0.
std::string breakpad_id(const std::string& hex) {
  if (hex.empty()) return {};
  std::string b = hex.substr(0, 32);
  b.resize(32, '0');
  auto swap = [&](size_t at, size_t bytes) {
    for (size_t i = 0; i < bytes / 2; ++i) {
      for (size_t k = 0; k < 2; ++k) std::swap(b[at + 2 * i + k], b[at + 2 * (bytes - 1 - i) + k]);
    }
  };
  swap(0, 4);
  swap(8, 2);
  swap(12, 2);
  for (char& c : b) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return b + "0";
}

void write_categories(OutBuffer& out) {
  // perf's gecko.py: Brendan Gregg's flame graph colours, orange kernel and yellow user.
  out.write(
      "\"categories\":[{\"name\":\"User\",\"color\":\"yellow\",\"subcategories\":[\"Other\"]},"
      "{\"name\":\"Kernel\",\"color\":\"orange\",\"subcategories\":[\"Other\"]},"
      "{\"name\":\"Other\",\"color\":\"grey\",\"subcategories\":[\"Other\"]}]");
}

void write_marker_schema(OutBuffer& out) {
  out.write(
      "\"markerSchema\":["
      "{\"name\":\"Tracepoint\",\"display\":[\"marker-chart\",\"marker-table\","
      "\"timeline-overview\"],\"tooltipLabel\":\"{marker.name}\",\"tableLabel\":"
      "\"{marker.data.fields}\",\"chartLabel\":\"{marker.data.fields}\",\"data\":["
      "{\"key\":\"fields\",\"label\":\"Fields\",\"format\":\"string\",\"searchable\":true},"
      "{\"key\":\"cpu\",\"label\":\"CPU\",\"format\":\"integer\"}]},"
      "{\"name\":\"ContextSwitch\",\"display\":[\"marker-chart\",\"marker-table\"],"
      "\"tooltipLabel\":\"{marker.name}\",\"tableLabel\":\"{marker.name} on CPU "
      "{marker.data.cpu}\",\"data\":["
      "{\"key\":\"cpu\",\"label\":\"CPU\",\"format\":\"integer\"},"
      "{\"key\":\"preempt\",\"label\":\"Preempted\",\"format\":\"string\"}]}]");
}

void write_thread(const Thread& t, const std::string& process_name, uint64_t start,
                  OutBuffer& out) {
  out.print("{{\"name\":");
  string(out, t.name.empty() ? fmt::format(":{}", t.tid) : t.name);
  out.write(",\"processName\":");
  string(out, process_name);
  out.print(
      ",\"processType\":\"default\",\"registerTime\":0,\"unregisterTime\":null,"
      "\"tid\":{},\"pid\":{},",
      t.tid, t.pid);
  out.write(
      "\"markers\":{\"schema\":{\"name\":0,\"startTime\":1,\"endTime\":2,\"phase\":3,"
      "\"category\":4,\"data\":5},\"data\":[");
  for (size_t i = 0; i < t.markers.size(); ++i) {
    const Marker& m = t.markers[i];
    out.write(i ? ",[" : "[");
    out.dec(m.name);
    out.put(',');
    millis(out, m.time, start);
    // An instant (phase 0) in the Other category.
    out.print(",null,0,{},{{\"type\":\"{}\"", static_cast<int>(kOther),
              m.tracepoint ? "Tracepoint" : "ContextSwitch");
    out.write(m.data);
    out.write("}]");
    out.maybe_flush();
  }
  out.write(
      "]},\"samples\":{\"schema\":{\"stack\":0,\"time\":1,\"eventDelay\":2,"
      "\"threadCPUDelta\":3},\"data\":[");
  for (size_t i = 0; i < t.sample_stack.size(); ++i) {
    out.write(i ? ",[" : "[");
    out.dec(t.sample_stack[i]);
    out.put(',');
    millis(out, t.sample_time[i], start);
    out.write(",0,");
    out.dec(t.sample_weight[i]);
    out.put(']');
    out.maybe_flush();
  }
  out.write(
      "]},\"frameTable\":{\"schema\":{\"location\":0,\"relevantForJS\":1,\"innerWindowID\":2,"
      "\"implementation\":3,\"line\":4,\"column\":5,\"category\":6,\"subcategory\":7},"
      "\"data\":[");
  for (size_t i = 0; i < t.frames.size(); ++i) {
    const Thread::Frame& f = t.frames[i];
    out.write(i ? ",[" : "[");
    out.dec(f.location);
    out.write(",false,0,null,");
    if (f.line > 0) {
      out.dec(f.line);
    } else {
      out.write("null");
    }
    out.print(",null,{},0]", static_cast<int>(f.category));
    out.maybe_flush();
  }
  out.write("]},\"stackTable\":{\"schema\":{\"prefix\":0,\"frame\":1},\"data\":[");
  for (size_t i = 0; i < t.stacks.size(); ++i) {
    out.write(i ? ",[" : "[");
    if (t.stacks[i].first < 0) {
      out.write("null");
    } else {
      out.dec(t.stacks[i].first);
    }
    out.put(',');
    out.dec(t.stacks[i].second);
    out.put(']');
    out.maybe_flush();
  }
  out.write("]},\"stringTable\":[");
  for (size_t i = 0; i < t.strings.size(); ++i) {
    if (i) out.put(',');
    string(out, t.strings[static_cast<uint32_t>(i)]);
    out.maybe_flush();
  }
  out.write("]}");
}

void write_lib(const Lib& lib, const std::string& arch, OutBuffer& out) {
  out.print("{{\"start\":{},\"end\":{},\"offset\":{},\"arch\":", lib.start, lib.end, lib.offset);
  string(out, arch);
  for (const auto& [key, value] : {std::pair<const char*, const std::string*>{"name", &lib.name},
                                   {"path", &lib.path},
                                   {"debugName", &lib.name},
                                   {"debugPath", &lib.path}}) {
    out.print(",\"{}\":", key);
    string(out, *value);
  }
  out.write(",\"breakpadId\":");
  string(out, breakpad_id(lib.build_id_hex));
  out.write(",\"codeId\":");
  string(out, lib.build_id_hex);
  out.put('}');
}

}  // namespace

void write_profile(const Profile& p, const Features& env, OutBuffer& out) {
  uint64_t start = p.start_time.value_or(0);
  // meta.startTime is a wall-clock time in ms when the recording has clock data (perf record
  // -k: its clock's time at the reference point and the time of day then), else perf's clock.
  double start_ms = static_cast<double>(start) / 1e6;
  if (env.clock_data && env.clock_data->clockid_ns) {
    int64_t since = static_cast<int64_t>(start - env.clock_data->clockid_ns);
    start_ms = (static_cast<double>(env.clock_data->tod_ns) + static_cast<double>(since)) / 1e6;
  }
  std::string arch = env.arch.value_or("");
  out.print("{{\"meta\":{{\"version\":{},\"startTime\":{:.6f},\"shutdownTime\":null,", kVersion,
            start_ms);
  out.print(
      "\"interval\":{},\"stackwalk\":1,\"debug\":0,\"gcpoison\":0,\"asyncstack\":0,"
      "\"processType\":0,\"presymbolicated\":true,\"product\":",
      p.interval_ms);
  string(out, "perf.data: " + (p.event.empty() ? std::string("no samples") : p.event));
  out.write(",\"platform\":\"Linux\",\"oscpu\":");
  string(out, fmt::format("Linux {} {}", env.os_release.value_or(""), arch));
  out.write(",\"CPUName\":");
  string(out, env.cpudesc.value_or(""));
  out.print(",\"logicalCPUs\":{},", env.nr_cpus_online);
  out.print("\"sampleUnits\":{{\"time\":\"ms\",\"eventDelay\":\"ms\",\"threadCPUDelta\":\"{}\"}},",
            p.cpu_time_weights ? "ns" : "variable CPU cycles");
  write_categories(out);
  out.put(',');
  write_marker_schema(out);
  out.write("},\"libs\":[],\"threads\":[],\"pausedRanges\":[],\"processes\":[");
  for (size_t i = 0; i < p.processes.size(); ++i) {
    const Process& proc = p.processes[i];
    if (i) out.put(',');
    out.print("{{\"meta\":{{\"version\":{},\"startTime\":{:.6f},\"shutdownTime\":null,", kVersion,
              start_ms);
    write_categories(out);
    out.put(',');
    write_marker_schema(out);
    out.write("},\"libs\":[");
    for (size_t k = 0; k < proc.libs.size(); ++k) {
      if (k) out.put(',');
      write_lib(proc.libs[k], arch, out);
    }
    // The process's name: its main thread's (tid == pid), else its first thread's.
    std::string name;
    for (uint32_t ti : proc.threads) {
      const Thread& t = p.threads[ti];
      if (name.empty() || t.tid == proc.pid) name = t.name;
      if (t.tid == proc.pid) break;
    }
    out.write("],\"threads\":[");
    for (size_t k = 0; k < proc.threads.size(); ++k) {
      if (k) out.put(',');
      write_thread(p.threads[proc.threads[k]], name, start, out);
    }
    out.write("],\"pausedRanges\":[],\"processes\":[]}");
  }
  out.write("]}\n");
}

}  // namespace readperf::gecko
