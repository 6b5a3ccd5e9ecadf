// trace-event-read.c trace_report() (the handle built from the tracing data's sections) and
// trace-event-parse.c event_format__fprintf() (one sample's fields), over libtraceevent.
#include "readperf/output/trace_format.h"

#include <event-parse.h>
#include <fmt/format.h>
#include <trace-seq.h>

#include <algorithm>
#include <bit>
#include <cctype>
#include <cstdio>
#include <cstring>
#include <string_view>
#include <vector>

namespace readperf {

namespace {

// trace-event-parse.c parse_ftrace_printk(): "ADDR : FORMAT" lines; perf skips the one
// character after the colon.
void register_printk(tep_handle* tep, const std::string& text) {
  std::string_view rest = text;
  while (!rest.empty()) {
    size_t eol = rest.find('\n');
    std::string_view line = rest.substr(0, eol);
    rest = eol == std::string_view::npos ? std::string_view() : rest.substr(eol + 1);
    if (line.empty()) continue;  // strtok_r skips empty lines
    size_t colon = line.find(':');
    std::string addr_str(line.substr(0, colon));
    unsigned long long addr = std::strtoull(addr_str.c_str(), nullptr, 16);
    std::string fmt;
    if (colon != std::string_view::npos && colon + 1 < line.size()) {
      fmt = std::string(line.substr(colon + 2 <= line.size() ? colon + 2 : line.size()));
    }
    tep_register_print_string(tep, fmt.c_str(), addr);
  }
}

// trace-event-parse.c parse_saved_cmdline(): "PID COMM" lines.
void register_cmdlines(tep_handle* tep, const std::string& text) {
  std::string_view rest = text;
  while (!rest.empty()) {
    size_t eol = rest.find('\n');
    std::string line(rest.substr(0, eol));
    rest = eol == std::string_view::npos ? std::string_view() : rest.substr(eol + 1);
    int pid = 0;
    char comm[17];
    if (std::sscanf(line.c_str(), "%d %16s", &pid, comm) == 2) tep_register_comm(tep, comm, pid);
  }
}

}  // namespace

Result<std::unique_ptr<TraceFormatter>> TraceFormatter::create(const TracingData& td) {
  std::unique_ptr<TraceFormatter> tf(new TraceFormatter());
  tf->tep_ = tep_alloc();
  if (!tf->tep_) return make_error("tracing data: cannot allocate a tep handle");
  tep_handle* tep = tf->tep_;
  tep_set_flag(tep, TEP_NSEC_OUTPUT);
  tep_set_file_bigendian(tep, td.big_endian ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
  tep_set_local_bigendian(
      tep, std::endian::native == std::endian::big ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
  tep_set_long_size(tep, td.long_size);
  tep_set_page_size(tep, static_cast<int>(td.page_size));
  // read_header_files(): the commit field of the header page is a long of the kernel.
  std::vector<char> page(td.header_page.begin(), td.header_page.end());
  page.push_back('\0');
  if (!tep_parse_header_page(tep, page.data(), td.header_page.size(), tep_get_long_size(tep))) {
    tep_set_long_size(tep, tep_get_header_page_size(tep));
  }
  // parse_ftrace_file(), parse_event_file(); perf stops at a format it cannot parse, but
  // libtraceevent keeps what it could, so a failure here only loses that event's fields.
  for (const TracingEvent& e : td.ftrace_events) {
    tep_parse_event(tep, e.format.data(), e.format.size(), "ftrace");
  }
  for (const TracingEvent& e : td.events) {
    tep_parse_event(tep, e.format.data(), e.format.size(), e.system.c_str());
  }
  // read_proc_kallsyms() skips the kallsyms: perf resolves kernel addresses itself.
  register_printk(tep, td.printk_formats);
  register_cmdlines(tep, td.saved_cmdlines);
  return tf;
}

TraceFormatter::~TraceFormatter() {
  if (tep_) tep_free(tep_);
}

bool TraceFormatter::has_event(uint64_t id) const { return find_event(id) != nullptr; }

tep_event* TraceFormatter::find_event(uint64_t id) const {
  return tep_find_event(tep_, static_cast<int>(id));
}

namespace {

TracepointField field_of(const tep_format_field* f) {
  TracepointField out;
  out.name = f->name ? f->name : "";
  out.offset = static_cast<uint32_t>(f->offset);
  out.size = static_cast<uint32_t>(f->size);
  out.is_string = f->flags & TEP_FIELD_IS_STRING;
  out.is_dynamic = f->flags & TEP_FIELD_IS_DYNAMIC;
  out.is_relative = f->flags & TEP_FIELD_IS_RELATIVE;
  out.handle = f;
  return out;
}

}  // namespace

std::vector<TracepointField> TraceFormatter::fields(uint64_t id) const {
  std::vector<TracepointField> out;
  tep_event* ev = find_event(id);
  for (tep_format_field* f = ev ? ev->format.fields : nullptr; f; f = f->next) {
    out.push_back(field_of(f));
  }
  return out;
}

bool TraceFormatter::find_any_field(uint64_t id, std::string_view name,
                                    TracepointField* out) const {
  tep_event* ev = find_event(id);
  if (!ev) return false;
  const std::string n(name);
  tep_format_field* f = tep_find_any_field(ev, n.c_str());
  if (!f) return false;
  *out = field_of(f);
  return true;
}

std::string TraceFormatter::event_name(uint64_t id) const {
  tep_event* ev = tep_find_event(tep_, static_cast<int>(id));
  if (!ev) return {};
  return std::string(ev->system) + ":" + ev->name;
}

void TraceFormatter::format(uint64_t id, int cpu, Bytes raw, std::string& out) const {
  tep_event* ev = tep_find_event(tep_, static_cast<int>(id));
  if (!ev) return;
  // libtraceevent reads but never writes the data; it takes a non-const pointer.
  std::vector<std::byte> data(raw.begin(), raw.end());
  tep_record record{};
  record.cpu = cpu;
  record.size = static_cast<int>(data.size());
  record.data = data.data();
  trace_seq s;
  trace_seq_init(&s);
  tep_print_event(ev->tep, &s, &record, "%s", TEP_PRINT_INFO);
  trace_seq_terminate(&s);
  out.append(s.buffer, s.len);
  trace_seq_destroy(&s);
}

namespace {

// libtraceevent's is_printable_array() as perf 6.1 has it (tools/lib/traceevent).
bool is_printable_array(const char* p, size_t len) {
  for (size_t i = 0; i < len && p[i]; ++i) {
    if (!isprint(static_cast<unsigned char>(p[i])) && !isspace(static_cast<unsigned char>(p[i])))
      return false;
  }
  return true;
}

// tep_print_field() of perf 6.1's libtraceevent (tools/lib/traceevent/event-parse.c): raw
// values, not the print format's (the libtraceevent installed here formats them as the
// event's print fmt does: "target_cpu=000" where perf 6.1 prints "target_cpu=0").
void print_raw_field(std::string& out, const std::vector<std::byte>& data,
                     tep_format_field* field) {
  tep_handle* tep = field->event->tep;
  const char* base = reinterpret_cast<const char*>(data.data());
  auto fits = [&](size_t at, size_t n) { return at <= data.size() && n <= data.size() - at; };
  auto read = [&](size_t at, int size) -> unsigned long long {
    if (size <= 0 || !fits(at, size)) return 0;
    return tep_read_number(tep, base + at, size);
  };
  if (field->flags & TEP_FIELD_IS_ARRAY) {
    size_t offset = field->offset;
    size_t len = field->size;
    if (field->flags & TEP_FIELD_IS_DYNAMIC) {
      unsigned long long val = read(offset, field->size);
      offset = val & 0xffff;
      len = (val >> 16) & 0xffff;
      if (field->flags & TEP_FIELD_IS_RELATIVE) offset += field->offset + field->size;
    }
    if (!fits(offset, 0)) offset = data.size();
    size_t avail = data.size() - offset;
    if ((field->flags & TEP_FIELD_IS_STRING) &&
        is_printable_array(base + offset, std::min(len, avail))) {
      // "%s" of the data: up to its NUL (kept inside the record here).
      out.append(base + offset, strnlen(base + offset, avail));
    } else {
      out += "ARRAY[";
      for (size_t i = 0; i < len && i < avail; ++i) {
        if (i) out += ", ";
        out += fmt::format("{:02x}", static_cast<unsigned char>(base[offset + i]));
      }
      out += ']';
      // As perf's: the field is an array from now on.
      field->flags &= ~static_cast<unsigned long>(TEP_FIELD_IS_STRING);
    }
    return;
  }
  unsigned long long val = read(field->offset, field->size);
  if (field->flags & TEP_FIELD_IS_POINTER) {
    out += fmt::format("0x{:x}", val);
  } else if (field->flags & TEP_FIELD_IS_SIGNED) {
    switch (field->size) {
      case 4:
        // "If field is long then print it in hex. A long usually stores pointers."
        if (field->flags & TEP_FIELD_IS_LONG) {
          out += fmt::format("0x{:x}", static_cast<unsigned>(static_cast<int>(val)));
        } else {
          out += fmt::format("{}", static_cast<int>(val));
        }
        break;
      case 2:
        out += fmt::format("{:2}", static_cast<short>(val));
        break;
      case 1:
        out += fmt::format("{:1}", static_cast<int>(static_cast<signed char>(val)));
        break;
      default:
        out += fmt::format("{}", static_cast<long long>(val));
    }
  } else if (field->flags & TEP_FIELD_IS_LONG) {
    out += fmt::format("0x{:x}", val);
  } else {
    out += fmt::format("{}", val);
  }
}

}  // namespace

void TraceFormatter::format_fields(uint64_t id, Bytes raw, std::string& out) const {
  // tep_print_fields(): " name=value" for every field of the event's own (not the common_*).
  tep_event* ev = tep_find_event(tep_, static_cast<int>(id));
  if (!ev) return;
  std::vector<std::byte> data(raw.begin(), raw.end());
  for (tep_format_field* f = ev->format.fields; f; f = f->next) {
    out += ' ';
    out += f->name;
    out += '=';
    print_raw_field(out, data, f);
  }
}

void TraceFormatter::print_field(const TracepointField& field, std::string_view raw,
                                 std::string& out) {
  const auto* bytes = reinterpret_cast<const std::byte*>(raw.data());
  std::vector<std::byte> data(bytes, bytes + raw.size());
  print_raw_field(out, data, static_cast<tep_format_field*>(const_cast<void*>(field.handle)));
}

void TraceFormatter::set_kernel_resolver(KernelResolver r) {
  resolver_ = std::move(r);
  if (resolver_) {
    tep_set_function_resolver(tep_, &TraceFormatter::resolve, this);
  } else {
    tep_reset_function_resolver(tep_);
  }
}

// util/machine.c machine__resolve_kernel_addr().
char* TraceFormatter::resolve(void* priv, unsigned long long* addrp, char** modp) {
  auto* self = static_cast<TraceFormatter*>(priv);
  std::optional<KernelSymbol> sym = self->resolver_(*addrp);
  if (!sym) return nullptr;
  self->last_ = std::move(*sym);
  *modp = self->last_.module.empty() ? nullptr : self->last_.module.data();
  *addrp = self->last_.start;
  return self->last_.name.data();
}

}  // namespace readperf
