// The pprof merge (pprof_merge.h): each profile decoded (pprof_decoder.h), its samples turned
// back into the frames the export built them from (a Location's Lines: the inline frames, then
// the function they are in), and every profile's samples added to one PprofBuilder, which
// numbers mappings, locations, functions and strings again and sums equal samples.
#include "readperf/output/pprof_merge.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "pprof_builder.h"
#include "pprof_decoder.h"

namespace readperf {

namespace {

class Merger {
 public:
  Status add(const DecodedPprof& p) {
    PprofHeader h = header_of(p);
    for (const std::string& c : h.comments) {
      if (c.starts_with(kUnsymbolizedMark)) {
        return make_error("an unsymbolized profile (symbolize it first: readperf symbolize)");
      }
    }
    // Where each of this profile's values goes among the sample types so far.
    value_index_.clear();
    for (const auto& type : h.sample_types) {
      auto it = std::find(header_.sample_types.begin(), header_.sample_types.end(), type);
      value_index_.push_back(static_cast<size_t>(it - header_.sample_types.begin()));
      if (it == header_.sample_types.end()) header_.sample_types.push_back(type);
    }
    if (first_) {
      header_ = std::move(h);
      first_ = false;
    } else {
      header_.period = std::max(header_.period, h.period);
      header_.duration_nanos += h.duration_nanos;
      for (std::string& c : h.comments) {
        if (std::find(header_.comments.begin(), header_.comments.end(), c) ==
            header_.comments.end()) {
          header_.comments.push_back(std::move(c));
        }
      }
    }
    return add_samples(p);
  }

  Status write(FILE* out, bool gzip) {
    GzipWriter gz(out, gzip);
    builder_.write(header_, gz);
    return gz.finish();
  }

 private:
  Status add_samples(const DecodedPprof& p) {
    // Ids as readperf writes them (1, 2, ... in order), others looked up.
    std::map<uint64_t, const DecodedPprof::Location*> locations;
    for (const DecodedPprof::Location& l : p.locations) locations[l.id] = &l;
    std::map<uint64_t, const DecodedPprof::Function*> functions;
    for (const DecodedPprof::Function& f : p.functions) functions[f.id] = &f;
    std::vector<uint64_t> mapping_keys(p.mappings.size());
    for (size_t i = 0; i < p.mappings.size(); ++i) {
      const DecodedPprof::Mapping& m = p.mappings[i];
      auto [it, added] = mapping_keys_.try_emplace(
          std::make_pair(p.str(m.filename), p.str(m.build_id)), mapping_keys_.size() + 1);
      mapping_keys[i] = it->second;
    }
    for (const DecodedPprof::Sample& s : p.samples) {
      frames_.clear();
      for (uint64_t id : s.locations) {
        auto loc = locations.find(id);
        if (loc == locations.end()) {
          return make_error(fmt::format("a sample names location {}, which is not there", id));
        }
        const DecodedPprof::Location& l = *loc->second;
        PprofFrame base;
        base.ip = l.address;
        if (size_t mi = mapping_index(p, l.mapping_id); mi < p.mappings.size()) {
          const DecodedPprof::Mapping& m = p.mappings[mi];
          base.mapping_key = mapping_keys[mi];
          base.map_start = m.start;
          base.map_limit = m.limit;
          base.map_pgoff = m.offset;
          base.map_file = p.str(m.filename);
          base.build_id = p.str(m.build_id);
        }
        base.cpumode = implied_cpumode(base.mapping_key ? base.map_start : base.ip);
        if (l.lines.empty()) {
          frames_.push_back(base);
          continue;
        }
        for (size_t j = 0; j < l.lines.size(); ++j) {
          auto fn = functions.find(l.lines[j].function_id);
          if (fn == functions.end()) {
            return make_error(fmt::format("a location names function {}, which is not there",
                                          l.lines[j].function_id));
          }
          PprofFrame f = base;
          f.function = p.str(fn->second->name);
          f.file = p.str(fn->second->filename);
          f.line = l.lines[j].line;
          f.has_symbol = true;
          f.inlined = j + 1 < l.lines.size();
          frames_.push_back(f);
        }
      }
      SampleLabels sl = labels_of(p, s);
      std::vector<int64_t>& v =
          builder_.sample(sl.comm, static_cast<int32_t>(sl.pid), frames_, frames_.size());
      if (v.size() < header_.sample_types.size()) v.resize(header_.sample_types.size());
      for (size_t i = 0; i < s.values.size() && i < value_index_.size(); ++i) {
        v[value_index_[i]] += s.values[i];
      }
    }
    return {};
  }

  PprofBuilder builder_{/*symbolized=*/true};
  PprofHeader header_;
  bool first_ = true;
  // A mapped file (name, build-id) of any profile: the builder's mapping_key.
  std::map<std::pair<std::string, std::string>, uint64_t> mapping_keys_;
  std::vector<PprofFrame> frames_;
  std::vector<size_t> value_index_;
};

}  // namespace

Status merge_pprof(std::span<const std::string_view> profiles, const PprofMergeConfig& config,
                   FILE* out) {
  Merger merger;
  for (size_t i = 0; i < profiles.size(); ++i) {
    auto fail = [&](const Error& e) {
      return make_error(fmt::format("profile {}: {}", i, e.message()));
    };
    Result<std::string> bytes = inflate_profile(profiles[i], config.max_size);
    if (!bytes) return fail(bytes.error());
    Result<DecodedPprof> p = decode_pprof(*bytes);
    if (!p) return fail(p.error());
    if (Status st = merger.add(*p); !st) return fail(st.error());
  }
  return merger.write(out, config.gzip);
}

}  // namespace readperf
