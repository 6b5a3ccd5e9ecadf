// Field numbers are profile.proto's (github.com/google/pprof, proto/profile.proto).
#include "pprof_builder.h"

#include <fmt/format.h>

#include <iterator>

#include "readperf/format/hash_mix.h"
#include "readperf/output/proto_writer.h"

namespace readperf {

namespace {

namespace pb {
enum Profile : uint32_t {
  kSampleType = 1,
  kSample = 2,
  kMapping = 3,
  kLocation = 4,
  kFunction = 5,
  kStringTable = 6,
  kDurationNanos = 10,
  kPeriodType = 11,
  kPeriod = 12,
  kComment = 13,
  kDefaultSampleType = 14,
};
enum ValueType : uint32_t { kType = 1, kUnit = 2 };
enum Sample : uint32_t { kLocationId = 1, kValue = 2, kLabel = 3 };
enum Label : uint32_t { kKey = 1, kStr = 2, kNum = 3 };
enum Mapping : uint32_t {
  kMappingId = 1,
  kMemoryStart = 2,
  kMemoryLimit = 3,
  kFileOffset = 4,
  kFilename = 5,
  kBuildId = 6,
  kHasFunctions = 7,
  kHasFilenames = 8,
  kHasLineNumbers = 9,
  kHasInlineFrames = 10,
};
enum Location : uint32_t { kLocId = 1, kMappingIdOfLoc = 2, kAddress = 3, kLine = 4 };
enum Line : uint32_t { kFunctionId = 1, kLineNumber = 2 };
enum Function : uint32_t { kFuncId = 1, kName = 2, kSystemName = 3, kFuncFilename = 4 };
}  // namespace pb

constexpr size_t kFlushAt = 1 << 16;

}  // namespace

size_t PprofBuilder::VecHash::operator()(const std::vector<uint64_t>& v) const {
  uint64_t h = 0x9e3779b97f4a7c15ull ^ v.size();
  for (uint64_t x : v) h = hash_mix(h, x);
  return static_cast<size_t>(hash_finish(h));
}

PprofFrame pprof_frame(const Frame& f, Resolver* lines, std::string& scratch) {
  PprofFrame p;
  p.ip = f.ip;
  if (f.map && f.dso) {
    p.mapping_key = reinterpret_cast<uintptr_t>(f.dso);
    p.map_start = f.map->start;
    p.map_limit = f.map->end;
    p.map_pgoff = f.map->pgoff;
    scratch.clear();
    for (uint8_t b : f.dso->build_id) fmt::format_to(std::back_inserter(scratch), "{:02x}", b);
    p.build_id = scratch;
    // BPF trampolines and dispatchers have no long name (map.c is_bpf_image()).
    p.map_file = f.dso->long_name.empty() ? f.dso->short_name : f.dso->long_name;
  }
  p.function = f.symbol_name();
  p.cpumode = f.cpumode;
  p.has_symbol = f.sym != nullptr;
  p.inlined = f.inlined;
  if (lines && (f.sym || f.inlined)) {
    if (const InlineRecord* rec = lines->line_record(f)) {
      if (rec->file != "??") p.file = rec->file;
      p.line = static_cast<int64_t>(rec->line);
    }
  }
  return p;
}

PprofBuilder::PprofBuilder(bool symbolized) : symbolized_(symbolized) {
  strings_.intern("");  // string_table[0] must be ""
  str_comm_ = str("comm");
  str_pid_ = str("pid");
  if (!symbolized_) {
    str_unwound_ = str(kUnwoundFromLabel);
    str_cpumodes_ = str(kCpumodesLabel);
  }
}

std::vector<int64_t>& PprofBuilder::sample(std::string_view comm, int32_t pid,
                                           std::span<const PprofFrame> frames,
                                           size_t unwound_begin) {
  key_.clear();
  key_.push_back(static_cast<uint64_t>(str(comm)));
  key_.push_back(static_cast<uint64_t>(static_cast<uint32_t>(pid)));
  int64_t unwound_from = -1, cpumodes = 0;
  if (symbolized_) {
    // Frames leaf first; inline frames gather into the location of the frame after them.
    size_t i = 0;
    while (i < frames.size()) {
      size_t j = i;
      while (j + 1 < frames.size() && frames[j].inlined) ++j;
      key_.push_back(location_id(frames.subspan(i, j - i + 1)));
      i = j + 1;
    }
  } else {
    cpumodes_.clear();
    bool implied = true;
    for (size_t i = 0; i < frames.size(); ++i) {
      const PprofFrame& f = frames[i];
      key_.push_back(location_id(frames.subspan(i, 1)));
      cpumodes_.push_back(static_cast<char>('0' + (f.cpumode & 7)));
      implied &= (f.cpumode & 7) == implied_cpumode(f.mapping_key ? f.map_start : f.ip);
    }
    if (unwound_begin < frames.size()) unwound_from = static_cast<int64_t>(unwound_begin);
    if (!implied) cpumodes = str(cpumodes_);
    key_.push_back(static_cast<uint64_t>(unwound_from));
    key_.push_back(static_cast<uint64_t>(cpumodes));
  }
  auto [id, added] = sample_ids_.intern(key_);
  if (added) {
    size_t locations_end = key_.size() - (symbolized_ ? 0 : 2);
    samples_.push_back(
        SampleInfo{std::vector<uint64_t>(key_.begin() + 2,
                                         key_.begin() + static_cast<ptrdiff_t>(locations_end)),
                   {},
                   static_cast<int64_t>(key_[0]),
                   pid,
                   unwound_from,
                   cpumodes});
  }
  return samples_[id - 1].values;
}

uint64_t PprofBuilder::mapping_id(const PprofFrame& f) {
  if (!f.mapping_key) return 0;
  key2_.assign({f.mapping_key, f.map_start, f.map_limit, f.map_pgoff});
  auto [id, added] = mapping_ids_.intern(key2_);
  if (added) {
    mappings_.push_back(
        MappingInfo{f.map_start, f.map_limit, f.map_pgoff, str(f.map_file), str(f.build_id)});
  }
  return id;
}

uint64_t PprofBuilder::function_id(std::string_view name, std::string_view file) {
  int64_t n = str(name);
  int64_t fl = file.empty() ? 0 : str(file);
  key2_.assign({static_cast<uint64_t>(n), static_cast<uint64_t>(fl)});
  auto [id, added] = function_ids_.intern(key2_);
  if (added) functions_.emplace_back(n, fl);
  return id;
}

uint64_t PprofBuilder::location_id(std::span<const PprofFrame> group) {
  const PprofFrame& outer = group.back();
  uint64_t mapping = mapping_id(outer);
  lines_of_.clear();
  if (symbolized_) {
    for (const PprofFrame& f : group) {
      if (!f.has_symbol && !f.inlined) continue;
      lines_of_.push_back(LineInfo{function_id(f.function, f.file), f.line});
    }
  }
  key2_.assign({mapping, outer.ip});
  for (const LineInfo& l : lines_of_) {
    key2_.push_back(l.function);
    key2_.push_back(static_cast<uint64_t>(l.line));
  }
  auto [id, added] = location_ids_.intern(key2_);
  if (added) {
    locations_.push_back(LocationInfo{mapping, outer.ip, lines_of_});
    if (mapping) {
      MappingInfo& m = mappings_[mapping - 1];
      m.has_functions |= outer.has_symbol;
      m.has_inline |= group.size() > 1;
      for (const LineInfo& l : lines_of_) {
        m.has_lines |= l.line != 0;
        m.has_lines |= functions_[l.function - 1].second != 0;
      }
    }
  }
  return id;
}

void PprofBuilder::flush(ProtoWriter& w, GzipWriter& out) {
  out.write(w.data());
  w.clear();
}

void PprofBuilder::write(const PprofHeader& h, GzipWriter& out) {
  ProtoWriter w, m;
  auto value_type = [&](uint32_t field, std::string_view type, std::string_view unit) {
    m.clear();
    m.int64(pb::kType, str(type));
    m.int64(pb::kUnit, str(unit));
    w.message(field, m);
  };
  for (const auto& [type, unit] : h.sample_types) value_type(pb::kSampleType, type, unit);
  if (h.has_period_type) value_type(pb::kPeriodType, h.period_type.first, h.period_type.second);
  if (!h.default_sample_type.empty()) w.int64(pb::kDefaultSampleType, str(h.default_sample_type));
  w.int64(pb::kPeriod, h.period);
  w.int64(pb::kDurationNanos, h.duration_nanos);
  for (const std::string& c : h.comments) w.int64(pb::kComment, str(c));
  flush(w, out);

  std::vector<int64_t> values;
  for (const SampleInfo& s : samples_) {
    m.clear();
    m.packed(pb::kLocationId, s.locations);
    values.assign(h.sample_types.size(), 0);
    std::copy_n(s.values.begin(), std::min(s.values.size(), values.size()), values.begin());
    m.packed_int64(pb::kValue, values);
    ProtoWriter label;
    label.int64(pb::kKey, str_comm_);
    label.int64(pb::kStr, s.comm);
    m.message(pb::kLabel, label);
    label.clear();
    label.int64(pb::kKey, str_pid_);
    label.int64(pb::kNum, s.pid);
    m.message(pb::kLabel, label);
    if (s.unwound_from >= 0) {
      label.clear();
      label.int64(pb::kKey, str_unwound_);
      label.int64(pb::kNum, s.unwound_from);
      // proto3 leaves a zero out; a zero here must be seen: write it.
      if (s.unwound_from == 0) {
        label.tag(pb::kNum, ProtoWriter::kVarint);
        label.varint(0);
      }
      m.message(pb::kLabel, label);
    }
    if (s.cpumodes) {
      label.clear();
      label.int64(pb::kKey, str_cpumodes_);
      label.int64(pb::kStr, s.cpumodes);
      m.message(pb::kLabel, label);
    }
    w.message(pb::kSample, m);
    if (w.data().size() > kFlushAt) flush(w, out);
  }
  for (size_t i = 0; i < mappings_.size(); ++i) {
    const MappingInfo& mi = mappings_[i];
    m.clear();
    m.uint64(pb::kMappingId, i + 1);
    m.uint64(pb::kMemoryStart, mi.start);
    m.uint64(pb::kMemoryLimit, mi.limit);
    m.uint64(pb::kFileOffset, mi.offset);
    m.int64(pb::kFilename, mi.filename);
    m.int64(pb::kBuildId, mi.build_id);
    m.boolean(pb::kHasFunctions, mi.has_functions);
    m.boolean(pb::kHasFilenames, mi.has_lines);
    m.boolean(pb::kHasLineNumbers, mi.has_lines);
    m.boolean(pb::kHasInlineFrames, mi.has_inline);
    w.message(pb::kMapping, m);
  }
  flush(w, out);
  for (size_t i = 0; i < locations_.size(); ++i) {
    const LocationInfo& li = locations_[i];
    m.clear();
    m.uint64(pb::kLocId, i + 1);
    m.uint64(pb::kMappingIdOfLoc, li.mapping_id);
    m.uint64(pb::kAddress, li.address);
    for (const LineInfo& l : li.lines) {
      ProtoWriter line;
      line.uint64(pb::kFunctionId, l.function);
      line.int64(pb::kLineNumber, l.line);
      m.message(pb::kLine, line);
    }
    w.message(pb::kLocation, m);
    if (w.data().size() > kFlushAt) flush(w, out);
  }
  for (size_t i = 0; i < functions_.size(); ++i) {
    m.clear();
    m.uint64(pb::kFuncId, i + 1);
    m.int64(pb::kName, functions_[i].first);
    m.int64(pb::kSystemName, functions_[i].first);
    m.int64(pb::kFuncFilename, functions_[i].second);
    w.message(pb::kFunction, m);
    if (w.data().size() > kFlushAt) flush(w, out);
  }
  // The string table last: everything above interned into it.
  for (const std::string& s : strings_.strings()) {
    w.bytes(pb::kStringTable, s);
    if (w.data().size() > kFlushAt) flush(w, out);
  }
  flush(w, out);
}

}  // namespace readperf
