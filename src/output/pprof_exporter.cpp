// The pprof exporter: the resolved sample stream folded into profile.proto messages, written
// through the hand-written encoder of proto_writer.h and gzipped (profile.proto: "On-disk,
// the serialized proto must be gzip-compressed"). Field numbers are profile.proto's.
#include "readperf/output/pprof_exporter.h"

#include <fmt/format.h>

#include <iterator>
#include <string>
#include <unordered_map>
#include <vector>

#include "gzip_writer.h"
#include "readperf/format/perf_abi.h"
#include "readperf/output/proto_writer.h"
#include "sample_stream.h"
#include "string_interner.h"

namespace readperf {

namespace {

// profile.proto field numbers.
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
  kHasInlineFrames = 10,
};
enum Location : uint32_t { kLocId = 1, kMappingIdOfLoc = 2, kAddress = 3, kLine = 4 };
enum Line : uint32_t { kFunctionId = 1, kLineNumber = 2 };
enum Function : uint32_t { kFuncId = 1, kName = 2, kSystemName = 3, kFuncFilename = 4 };
}  // namespace pb

struct VecHash {
  size_t operator()(const std::vector<uint64_t>& v) const {
    uint64_t h = 0x9e3779b97f4a7c15ull ^ v.size();
    for (uint64_t x : v) h ^= x + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
    h ^= h >> 31;
    h *= 0x94d049bb133111ebull;
    return static_cast<size_t>(h ^ (h >> 29));
  }
};

// Interns `std::vector<uint64_t>` keys to dense ids 1, 2, ... in first-seen order.
class KeyTable {
 public:
  // The id of `key` and whether it is new.
  std::pair<uint64_t, bool> intern(const std::vector<uint64_t>& key) {
    auto [it, added] = ids_.try_emplace(key, ids_.size() + 1);
    return {it->second, added};
  }
  size_t size() const { return ids_.size(); }

 private:
  std::unordered_map<std::vector<uint64_t>, uint64_t, VecHash> ids_;
};

struct MappingInfo {
  uint64_t start, limit, offset;
  int64_t filename, build_id;
  bool has_functions = false, has_inline = false;
};

struct LocationInfo {
  uint64_t mapping_id, address;
  std::vector<uint64_t> functions;  // innermost first
};

class PprofSink : public SampleStreamSink {
 public:
  PprofSink(PerfData& pd, const PprofConfig& cfg)
      : SampleStreamSink(pd, cfg.symbols, cfg.max_stack) {
    strings_.intern("");  // string_table[0] must be ""
    str_comm_ = str("comm");
    str_pid_ = str("pid");
  }

  void write(GzipWriter& out) {
    ProtoWriter w, m;
    // sample_type: samples/count, then the events in first-sample order.
    auto value_type = [&](uint32_t field, std::string_view type, std::string_view unit) {
      m.clear();
      m.int64(pb::kType, str(type));
      m.int64(pb::kUnit, str(unit));
      w.message(field, m);
    };
    value_type(pb::kSampleType, "samples", "count");
    for (const EventSlot& e : events_) value_type(pb::kSampleType, e.name, e.unit);
    if (!events_.empty()) {
      value_type(pb::kPeriodType, events_[0].name, events_[0].unit);
      w.int64(pb::kDefaultSampleType, str(events_[0].name));
      if (events_[0].fixed_period)
        w.int64(pb::kPeriod, static_cast<int64_t>(events_[0].fixed_period));
    }
    if (last_time_ > first_time_ && first_time_ != ~0ull) {
      w.int64(pb::kDurationNanos, static_cast<int64_t>(last_time_ - first_time_));
    }
    w.int64(pb::kComment, str("readperf export --format pprof"));
    flush(w, out);

    std::vector<int64_t> values;
    for (const SampleInfo& s : samples_) {
      m.clear();
      m.packed(pb::kLocationId, s.locations);
      values.assign(events_.size() + 1, 0);
      std::copy(s.values.begin(), s.values.end(), values.begin());
      m.packed_int64(pb::kValue, values);
      ProtoWriter label;
      label.int64(pb::kKey, str_comm_);
      label.int64(pb::kStr, s.comm);
      m.message(pb::kLabel, label);
      label.clear();
      label.int64(pb::kKey, str_pid_);
      label.int64(pb::kNum, s.pid);
      m.message(pb::kLabel, label);
      w.message(pb::kSample, m);
      if (w.data().size() > (1 << 16)) flush(w, out);
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
      for (uint64_t f : li.functions) {
        ProtoWriter line;
        line.uint64(pb::kFunctionId, f);
        m.message(pb::kLine, line);
      }
      w.message(pb::kLocation, m);
      if (w.data().size() > (1 << 16)) flush(w, out);
    }
    for (size_t i = 0; i < functions_.size(); ++i) {
      m.clear();
      m.uint64(pb::kFuncId, i + 1);
      m.int64(pb::kName, functions_[i].first);
      m.int64(pb::kSystemName, functions_[i].first);
      m.int64(pb::kFuncFilename, functions_[i].second);
      w.message(pb::kFunction, m);
      if (w.data().size() > (1 << 16)) flush(w, out);
    }
    // The string table last: everything above interned into it.
    for (const std::string& s : strings_.strings()) {
      w.bytes(pb::kStringTable, s);
      if (w.data().size() > (1 << 16)) flush(w, out);
    }
    flush(w, out);
  }

 protected:
  void on_sample(const Sample& s, const Evsel& evsel, uint64_t period, const ResolvedSample& rs,
                 std::span<const Frame> frames) override {
    size_t slot = event_slot(evsel);
    if (s.time != ~0ull) {
      if (first_time_ == ~0ull || s.time < first_time_) first_time_ = s.time;
      if (s.time > last_time_) last_time_ = s.time;
    }
    key_.clear();
    key_.push_back(static_cast<uint64_t>(str(rs.comm)));
    key_.push_back(static_cast<uint64_t>(static_cast<uint32_t>(s.pid)));
    // Frames leaf first; inline frames gather into the location of the frame after them.
    size_t i = 0;
    while (i < frames.size()) {
      size_t j = i;
      while (j + 1 < frames.size() && frames[j].inlined) ++j;
      key_.push_back(location_id(frames.subspan(i, j - i + 1)));
      i = j + 1;
    }
    auto [id, added] = sample_ids_.intern(key_);
    if (added) {
      samples_.push_back(SampleInfo{std::vector<uint64_t>(key_.begin() + 2, key_.end()),
                                    {},
                                    static_cast<int64_t>(key_[0]),
                                    s.pid});
    }
    SampleInfo& si = samples_[id - 1];
    if (si.values.size() < slot + 2) si.values.resize(slot + 2);
    si.values[0] += 1;
    si.values[slot + 1] += static_cast<int64_t>(period);
  }

 private:
  struct EventSlot {
    std::string name, unit;
    uint64_t fixed_period = 0;
  };
  struct SampleInfo {
    std::vector<uint64_t> locations;  // leaf first
    std::vector<int64_t> values;      // samples, then each event's period
    int64_t comm;
    int32_t pid;
  };

  size_t event_slot(const Evsel& evsel) {
    if (slots_.size() <= evsel.index) slots_.resize(evsel.index + 1, ~size_t{0});
    size_t& slot = slots_[evsel.index];
    if (slot == ~size_t{0}) {
      slot = events_.size();
      const EventAttr& a = evsel.attr;
      // The software clocks count nanoseconds (PERF_COUNT_SW_CPU_CLOCK 0, TASK_CLOCK 1).
      bool clock = a.type == kTypeSoftware && (a.config == 0 || a.config == 1);
      events_.push_back(EventSlot{event_name_of(evsel), clock ? "nanoseconds" : "count",
                                  a.freq() ? 0 : a.sample_period});
    }
    return slot;
  }

  int64_t str(std::string_view s) { return strings_.intern(s); }

  uint64_t mapping_id(const Frame& f) {
    if (!f.map || !f.dso) return 0;
    key2_.assign({reinterpret_cast<uintptr_t>(f.dso), f.map->start, f.map->end, f.map->pgoff});
    auto [id, added] = mapping_ids_.intern(key2_);
    if (added) {
      std::string build_id;
      for (uint8_t b : f.dso->build_id) fmt::format_to(std::back_inserter(build_id), "{:02x}", b);
      mappings_.push_back(MappingInfo{f.map->start, f.map->end, f.map->pgoff, str(f.dso->long_name),
                                      str(build_id)});
    }
    return id;
  }

  uint64_t function_id(const Frame& f) {
    int64_t name = str(f.symbol_name());
    int64_t file = 0;  // the source file, when DWARF says (srcline work elsewhere)
    key2_.assign({static_cast<uint64_t>(name), static_cast<uint64_t>(file)});
    auto [id, added] = function_ids_.intern(key2_);
    if (added) functions_.emplace_back(name, file);
    return id;
  }

  // One location for `group`: inline frames first, then the frame they were inlined into.
  uint64_t location_id(std::span<const Frame> group) {
    const Frame& outer = group.back();
    uint64_t mapping = mapping_id(outer);
    functions_of_.clear();
    for (const Frame& f : group) {
      if (f.sym || f.inlined) functions_of_.push_back(function_id(f));
    }
    key2_.assign({mapping, outer.ip});
    key2_.insert(key2_.end(), functions_of_.begin(), functions_of_.end());
    auto [id, added] = location_ids_.intern(key2_);
    if (added) {
      locations_.push_back(LocationInfo{mapping, outer.ip, functions_of_});
      if (mapping) {
        mappings_[mapping - 1].has_functions |= outer.sym != nullptr;
        mappings_[mapping - 1].has_inline |= group.size() > 1;
      }
    }
    return id;
  }

  void flush(ProtoWriter& w, GzipWriter& out) {
    out.write(w.data());
    w.clear();
  }

  StringInterner strings_;
  int64_t str_comm_ = 0, str_pid_ = 0;
  std::vector<size_t> slots_;
  std::vector<EventSlot> events_;
  KeyTable sample_ids_, mapping_ids_, location_ids_, function_ids_;
  std::vector<SampleInfo> samples_;
  std::vector<MappingInfo> mappings_;
  std::vector<LocationInfo> locations_;
  std::vector<std::pair<int64_t, int64_t>> functions_;
  std::vector<uint64_t> key_, key2_, functions_of_;
  uint64_t first_time_ = ~0ull, last_time_ = 0;
};

}  // namespace

Status run_pprof_export(PerfData& data, const PprofConfig& config, FILE* out) {
  PprofSink sink(data, config);
  Status st = data.process(sink, stream_process_options(data));
  // What was read before a damaged record is written, as the other exporters do.
  GzipWriter gz(out, config.gzip);
  sink.write(gz);
  RETURN_IF_ERROR(gz.finish());
  return st;
}

}  // namespace readperf
