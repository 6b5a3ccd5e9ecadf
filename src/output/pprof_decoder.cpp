#include "pprof_decoder.h"

#include <fmt/format.h>
#include <zlib.h>

#include "readperf/output/proto_reader.h"

namespace readperf {

namespace {

Result<std::pair<int64_t, int64_t>> value_type(const ProtoField& f) {
  std::pair<int64_t, int64_t> vt{0, 0};
  RETURN_IF_ERROR(for_each_field(f.bytes, [&](const ProtoField& g) -> Status {
    if (g.number == 1) vt.first = static_cast<int64_t>(g.value);
    if (g.number == 2) vt.second = static_cast<int64_t>(g.value);
    return {};
  }));
  return vt;
}

}  // namespace

Result<DecodedPprof> decode_pprof(std::string_view bytes) {
  DecodedPprof p;
  Status st = for_each_field(bytes, [&](const ProtoField& f) -> Status {
    switch (f.number) {
      case 1: {  // sample_type
        ASSIGN_OR_RETURN(auto vt, value_type(f));
        p.sample_types.push_back(vt);
        return {};
      }
      case 2: {  // sample
        DecodedPprof::Sample s;
        RETURN_IF_ERROR(for_each_field(f.bytes, [&](const ProtoField& g) -> Status {
          if (g.number == 1)
            return for_each_varint(g, [&](uint64_t v) { s.locations.push_back(v); });
          if (g.number == 2) {
            return for_each_varint(
                g, [&](uint64_t v) { s.values.push_back(static_cast<int64_t>(v)); });
          }
          if (g.number == 3) {
            DecodedPprof::Label l;
            RETURN_IF_ERROR(for_each_field(g.bytes, [&](const ProtoField& h) -> Status {
              if (h.number == 1) l.key = static_cast<int64_t>(h.value);
              if (h.number == 2) l.str = static_cast<int64_t>(h.value);
              if (h.number == 3) l.num = static_cast<int64_t>(h.value);
              return {};
            }));
            s.labels.push_back(l);
          }
          return {};
        }));
        p.samples.push_back(std::move(s));
        return {};
      }
      case 3: {  // mapping
        DecodedPprof::Mapping m;
        RETURN_IF_ERROR(for_each_field(f.bytes, [&](const ProtoField& g) -> Status {
          switch (g.number) {
            case 1:
              m.id = g.value;
              break;
            case 2:
              m.start = g.value;
              break;
            case 3:
              m.limit = g.value;
              break;
            case 4:
              m.offset = g.value;
              break;
            case 5:
              m.filename = static_cast<int64_t>(g.value);
              break;
            case 6:
              m.build_id = static_cast<int64_t>(g.value);
              break;
          }
          return {};
        }));
        p.mappings.push_back(m);
        return {};
      }
      case 4: {  // location
        DecodedPprof::Location l;
        RETURN_IF_ERROR(for_each_field(f.bytes, [&](const ProtoField& g) -> Status {
          if (g.number == 1) l.id = g.value;
          if (g.number == 2) l.mapping_id = g.value;
          if (g.number == 3) l.address = g.value;
          if (g.number == 4) {
            DecodedPprof::Line line;
            RETURN_IF_ERROR(for_each_field(g.bytes, [&](const ProtoField& h) -> Status {
              if (h.number == 1) line.function_id = h.value;
              if (h.number == 2) line.line = static_cast<int64_t>(h.value);
              return {};
            }));
            l.lines.push_back(line);
          }
          return {};
        }));
        p.locations.push_back(l);
        return {};
      }
      case 5: {  // function
        DecodedPprof::Function fn;
        RETURN_IF_ERROR(for_each_field(f.bytes, [&](const ProtoField& g) -> Status {
          if (g.number == 1) fn.id = g.value;
          if (g.number == 2) fn.name = static_cast<int64_t>(g.value);
          if (g.number == 3) fn.system_name = static_cast<int64_t>(g.value);
          if (g.number == 4) fn.filename = static_cast<int64_t>(g.value);
          if (g.number == 5) fn.start_line = static_cast<int64_t>(g.value);
          return {};
        }));
        p.functions.push_back(fn);
        return {};
      }
      case 6:
        if (f.wire != ProtoWireType::kLengthDelimited)
          return make_error("a string that is no string", f.offset);
        p.strings.emplace_back(f.bytes);
        return {};
      case 10:
        p.duration = static_cast<int64_t>(f.value);
        return {};
      case 11: {
        ASSIGN_OR_RETURN(p.period_type, value_type(f));
        p.has_period_type = true;
        return {};
      }
      case 12:
        p.period = static_cast<int64_t>(f.value);
        return {};
      case 13:
        return for_each_varint(f,
                               [&](uint64_t v) { p.comments.push_back(static_cast<int64_t>(v)); });
      case 14:
        p.default_sample_type = static_cast<int64_t>(f.value);
        return {};
      default:
        return {};  // drop_frames, keep_frames, time_nanos: readperf writes none
    }
  });
  RETURN_IF_ERROR(st);
  // Every string index must name a string.
  auto check = [&](int64_t i) { return i >= 0 && static_cast<uint64_t>(i) < p.strings.size(); };
  if (p.strings.empty() || !p.strings[0].empty())
    return make_error("a string table not starting with \"\"");
  bool ok =
      check(p.default_sample_type) && check(p.period_type.first) && check(p.period_type.second);
  for (auto [t, u] : p.sample_types) ok = ok && check(t) && check(u);
  for (int64_t c : p.comments) ok = ok && check(c);
  for (const DecodedPprof::Mapping& m : p.mappings)
    ok = ok && check(m.filename) && check(m.build_id);
  for (const DecodedPprof::Function& fn : p.functions) {
    ok = ok && check(fn.name) && check(fn.system_name) && check(fn.filename);
  }
  for (const DecodedPprof::Sample& s : p.samples) {
    for (const DecodedPprof::Label& l : s.labels) ok = ok && check(l.key) && check(l.str);
  }
  if (!ok) return make_error("a string index past the string table");
  return p;
}

Result<std::string> inflate_profile(std::string_view in, uint64_t max_size) {
  if (in.size() < 2 || static_cast<uint8_t>(in[0]) != 0x1f || static_cast<uint8_t>(in[1]) != 0x8b) {
    return std::string(in);
  }
  z_stream z{};
  if (inflateInit2(&z, 15 + 32) != Z_OK) return make_error("zlib: cannot start");
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  z.avail_in = static_cast<uInt>(in.size());
  std::string out;
  char buf[1 << 16];
  int r;
  do {
    z.next_out = reinterpret_cast<Bytef*>(buf);
    z.avail_out = sizeof buf;
    r = inflate(&z, Z_NO_FLUSH);
    if (r != Z_OK && r != Z_STREAM_END) {
      inflateEnd(&z);
      return make_error(fmt::format("gzip: {}", z.msg ? z.msg : "damaged data"), z.total_in);
    }
    out.append(buf, sizeof buf - z.avail_out);
    if (out.size() > max_size) {
      inflateEnd(&z);
      return make_error(fmt::format("inflates to more than {} bytes", max_size));
    }
    if (r != Z_STREAM_END && z.avail_in == 0 && z.avail_out != 0) {
      inflateEnd(&z);
      return make_error("gzip: cut short", z.total_in);
    }
  } while (r != Z_STREAM_END);
  inflateEnd(&z);
  return out;
}

PprofHeader header_of(const DecodedPprof& p) {
  PprofHeader h;
  for (auto [t, u] : p.sample_types) h.sample_types.emplace_back(p.str(t), p.str(u));
  h.has_period_type = p.has_period_type;
  h.period_type = {p.str(p.period_type.first), p.str(p.period_type.second)};
  h.default_sample_type = p.str(p.default_sample_type);
  h.period = p.period;
  h.duration_nanos = p.duration;
  for (int64_t c : p.comments) h.comments.push_back(p.str(c));
  return h;
}

SampleLabels labels_of(const DecodedPprof& p, const DecodedPprof::Sample& s) {
  SampleLabels sl;
  for (const DecodedPprof::Label& l : s.labels) {
    const std::string& key = p.str(l.key);
    if (key == "comm") sl.comm = p.str(l.str);
    if (key == "pid") sl.pid = l.num;
    if (key == kUnwoundFromLabel) sl.unwound_from = l.num;
    if (key == kCpumodesLabel) sl.cpumodes = p.str(l.str);
  }
  return sl;
}

size_t mapping_index(const DecodedPprof& p, uint64_t id) {
  if (id >= 1 && id <= p.mappings.size() && p.mappings[id - 1].id == id) return id - 1;
  for (size_t i = 0; i < p.mappings.size(); ++i) {
    if (id && p.mappings[i].id == id) return i;
  }
  return ~size_t{0};
}

}  // namespace readperf
