// trace-event-read.c trace_report() and its read_* helpers, into a TracingData: the sections
// are kept as text, for the printers to hand to libtraceevent as perf does.
#include "readperf/reader/tracing_data.h"

#include <bit>
#include <cstdlib>
#include <cstring>
#include <string_view>

namespace readperf {

namespace {

constexpr char kMagic[] = {23, 8, 68, 't', 'r', 'a', 'c', 'i', 'n', 'g'};

// The cursor reads numbers in the order the tracing data names (read4/read8 go through
// tep's file_bigendian), so it is rebuilt once that byte is known.
ByteOrder order_for(bool big_endian) {
  bool host_big = std::endian::native == std::endian::big;
  return big_endian == host_big ? ByteOrder::kNative : ByteOrder::kSwapped;
}

std::string take_string(ByteCursor& c, uint64_t n, const char* what, Error* err) {
  if (n > c.remaining()) {
    *err = c.error(std::string("tracing data: ") + what + " runs past the end");
    c.fail();
    return {};
  }
  return std::string(as_string_view(c.bytes(n)));
}

}  // namespace

void read_format_name_id(const std::string& format, std::string& name, int64_t& id) {
  std::string_view f = format;
  auto value_of = [&](std::string_view key) -> std::string_view {
    size_t p = 0;
    while (p < f.size()) {
      size_t eol = f.find('\n', p);
      if (eol == std::string_view::npos) eol = f.size();
      std::string_view line = f.substr(p, eol - p);
      if (line.substr(0, key.size()) == key) {
        line.remove_prefix(key.size());
        while (!line.empty() && (line.front() == ' ' || line.front() == '\t')) {
          line.remove_prefix(1);
        }
        while (!line.empty() && (line.back() == ' ' || line.back() == '\r')) line.remove_suffix(1);
        return line;
      }
      p = eol + 1;
    }
    return {};
  };
  name = std::string(value_of("name:"));
  std::string_view ids = value_of("ID:");
  id = -1;
  if (!ids.empty()) {
    int64_t v = 0;
    bool any = false;
    for (char ch : ids) {
      if (ch < '0' || ch > '9') break;
      v = v * 10 + (ch - '0');
      any = true;
    }
    if (any) id = v;
  }
}

Result<TracingData> parse_tracing_data(Bytes data) {
  TracingData td;
  ByteCursor c(data, ByteOrder::kNative);
  Bytes magic = c.bytes(sizeof(kMagic));
  if (!c.ok() || std::memcmp(magic.data(), kMagic, sizeof(kMagic)) != 0) {
    return make_error("tracing data: no trace data (bad magic)");
  }
  td.version = std::string(c.cstring());
  uint8_t big = c.u8();
  if (!c.ok()) return tl::unexpected(c.error("tracing data: short header"));
  td.big_endian = big != 0;
  size_t pos = c.position();
  c = ByteCursor(data, order_for(td.big_endian));
  c.seek(pos);
  td.long_size = c.u8();
  td.page_size = c.u32();
  if (!c.ok()) return tl::unexpected(c.error("tracing data: short header"));
  if (!td.page_size) return make_error("tracing data: page size 0");

  Error err("tracing data: short");
  // read_header_files(): "header_page" and "header_event", each with a u64 size.
  if (as_string_view(c.bytes(12)) != std::string_view("header_page\0", 12)) {
    return make_error("tracing data: did not read header page");
  }
  td.header_page = take_string(c, c.u64(), "header page", &err);
  if (!c.ok()) return tl::unexpected(err);
  if (as_string_view(c.bytes(13)) != std::string_view("header_event\0", 13)) {
    return make_error("tracing data: did not read header event");
  }
  td.header_event = take_string(c, c.u64(), "header event", &err);
  if (!c.ok()) return tl::unexpected(err);

  // read_ftrace_files() and read_event_files().
  uint32_t count = c.u32();
  for (uint32_t i = 0; i < count && c.ok(); ++i) {
    TracingEvent e;
    e.system = "ftrace";
    e.format = take_string(c, c.u64(), "ftrace format", &err);
    read_format_name_id(e.format, e.name, e.id);
    td.ftrace_events.push_back(std::move(e));
  }
  if (!c.ok()) return tl::unexpected(err);
  uint32_t systems = c.u32();
  for (uint32_t i = 0; i < systems && c.ok(); ++i) {
    std::string sys(c.cstring());
    uint32_t n = c.u32();
    for (uint32_t x = 0; x < n && c.ok(); ++x) {
      TracingEvent e;
      e.system = sys;
      e.format = take_string(c, c.u64(), "event format", &err);
      read_format_name_id(e.format, e.name, e.id);
      td.events.push_back(std::move(e));
    }
  }
  if (!c.ok()) return tl::unexpected(err);

  // read_proc_kallsyms(), read_ftrace_printk(): u32 sizes; read_saved_cmdline(): u64.
  td.kallsyms = take_string(c, c.u32(), "kallsyms", &err);
  td.printk_formats = take_string(c, c.u32(), "printk formats", &err);
  if (!c.ok()) return tl::unexpected(err);
  // trace_report() compares atof(version) >= 0.6.
  if (std::strtod(td.version.c_str(), nullptr) >= 0.6) {
    td.saved_cmdlines = take_string(c, c.u64(), "saved cmdlines", &err);
    if (!c.ok()) return tl::unexpected(err);
  }
  td.size = c.position();
  return td;
}

}  // namespace readperf

#include "readperf/format/perf_abi.h"
#include "readperf/reader/perf_data.h"

namespace readperf {

// trace-event.c / evsel.c evlist__prepare_tracepoint_events(): each tracepoint event finds
// its format by id (attr.config) and, without a name of its own, is called "sys:name".
void PerfData::set_tracing_data(Bytes data) {
  Result<TracingData> td = parse_tracing_data(data);
  if (!td) return;
  tracing_data_ = std::move(*td);
  for (size_t i = 0; i < events_.size(); ++i) {
    Evsel& ev = events_[i];
    if (ev.attr.type != kTypeTracepoint || !ev.name.empty()) continue;
    for (const TracingEvent& e : tracing_data_->events) {
      if (e.id >= 0 && static_cast<uint64_t>(e.id) == ev.attr.config) {
        ev.name = e.system + ":" + e.name;
        break;
      }
    }
  }
}

}  // namespace readperf
