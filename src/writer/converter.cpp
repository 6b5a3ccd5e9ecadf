#include "readperf/writer/converter.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <charconv>
#include <unordered_map>

#include "convert_sink.h"
#include "readperf/format/perf_abi.h"
#include "readperf/reader/feature_swap.h"
#include "readperf/reader/record_swap.h"
#include "readperf/writer/perf_data_writer.h"

namespace readperf {

using namespace writer_detail;  // NOLINT: the converter is writer_detail's user

namespace {

// util/time-utils.c parse_timestr_sec_nsec(): "SEC[.FRACTION]", the fraction at most 9
// digits; "" is an open end (0).
Result<uint64_t> parse_timestamp(std::string_view s) {
  if (s.empty()) return uint64_t{0};
  size_t dot = s.find('.');
  std::string_view sec = s.substr(0, dot);
  std::string_view frac = dot == std::string_view::npos ? "" : s.substr(dot + 1);
  uint64_t secs = 0, ns = 0;
  auto bad = [&] { return make_error(fmt::format("invalid time '{}'", s)); };
  if (sec.empty() ||
      std::from_chars(sec.data(), sec.data() + sec.size(), secs).ptr != sec.data() + sec.size()) {
    return bad();
  }
  if (frac.size() > 9) return bad();
  if (!frac.empty()) {
    if (std::from_chars(frac.data(), frac.data() + frac.size(), ns).ptr !=
        frac.data() + frac.size()) {
      return bad();
    }
    for (size_t i = frac.size(); i < 9; ++i) ns *= 10;
  }
  return secs * 1000000000ull + ns;
}

}  // namespace

Result<std::vector<TimeRange>> parse_time_ranges(std::string_view text) {
  size_t comma = text.find(',');
  if (comma == std::string_view::npos) {
    return make_error(fmt::format("invalid time range '{}': expected START,END", text));
  }
  ASSIGN_OR_RETURN(uint64_t start, parse_timestamp(text.substr(0, comma)));
  ASSIGN_OR_RETURN(uint64_t end, parse_timestamp(text.substr(comma + 1)));
  if (end && start > end) return make_error(fmt::format("invalid time range '{}'", text));
  return std::vector<TimeRange>{{start, end}};
}

namespace writer_detail {

std::map<uint32_t, std::vector<std::byte>> input_features(const PerfData& in, ByteOrder order,
                                                          const ConvertOptions& o) {
  const Features& f = in.features();
  std::map<uint32_t, std::vector<std::byte>> feats;
  for (const auto& [feat, raw] : f.raw) {
    if (in.order() != order) {
      swap_feature(feat, raw, in.order(), f.nr_cpus_avail, feats[feat]);
    } else {
      feats[feat] = raw;
    }
  }
  // A merged directory is no longer one (header.c process_dir_format).
  feats.erase(kFeatDirFormat);
  // perf 6.1 reads no feature past HEADER_LAST_FEATURE (its process_sections() loop).
  if (o.compat_perf61) feats.erase(feats.lower_bound(kFeatLastFeature6_1), feats.end());
  return feats;
}

Status check_perf61_attrs(const PerfData& in) {
  // evsel__parse_sample() of perf 6.1 knows sample_type bits up to PERF_SAMPLE_WEIGHT_STRUCT
  // (PERF_SAMPLE_MAX = 1 << 25): a sample with more could not be read there.
  constexpr uint64_t kSampleTypesPerf61 = (uint64_t{1} << 25) - 1;
  for (size_t i = 0; i < in.events().size(); ++i) {
    const EventAttr& a = in.events()[i].attr;
    if (a.config3 || a.config4) {
      return make_error(fmt::format(
          "--compat 6.1: event {} uses config3/config4, which perf 6.1's attr cannot hold", i));
    }
    if (a.sample_type & ~kSampleTypesPerf61) {
      return make_error(fmt::format(
          "--compat 6.1: event {} samples fields perf 6.1 cannot read (sample_type {:#x})", i,
          a.sample_type));
    }
  }
  return {};
}

std::optional<std::vector<std::byte>> compressed_feature(const PerfData& in,
                                                         const ConvertSink& sink,
                                                         const ConvertOptions& o, ByteOrder order,
                                                         uint32_t ratio) {
  const Features& f = in.features();
  // The compressed records were copied: their feature stays as it was.
  if (sink.passthrough()) return std::nullopt;
  if (o.decompress && !sink.compressed_output()) return std::vector<std::byte>{};
  if (!sink.compressed_output() || (!o.compress_level && f.compressed)) return std::nullopt;
  // header.c write_compressed(): version, type (1: zstd), level, ratio, mmap_len.
  std::vector<std::byte> s;
  put(s, order, f.compressed ? f.compressed->version : uint32_t{1});
  put(s, order, uint32_t{1});
  put(s, order, static_cast<uint32_t>(o.compress_level.value_or(1)));
  put(s, order, ratio);
  put(s, order,
      f.compressed && f.compressed->mmap_len ? f.compressed->mmap_len : uint32_t{256 * 1024});
  return s;
}

}  // namespace writer_detail

Result<ConvertStats> convert(PerfData& in, const std::string& out_path,
                             const ConvertOptions& requested) {
  ConvertOptions options = requested;
  // A `perf record -z --threads` directory: each data file is a zstd stream of its own (one
  // compressor per writing thread). Copied into one file or pipe, their COMPRESSED records
  // would be read as one stream, which perf cannot decompress ("Data corruption detected"):
  // compress them again, as one stream, at the recorded level.
  if (in.kind() == ContainerKind::kDirectory && !options.decompress && !options.compress_level &&
      in.features().compressed) {
    options.compress_level = std::max<int>(1, static_cast<int>(in.features().compressed->level));
  }
  if (options.compat_perf61) {
    RETURN_IF_ERROR(check_perf61_attrs(in));
    // perf 6.1 reads COMPRESSED records, not COMPRESSED2 (perf 6.14 and later write those).
    if (!options.compress_level) options.decompress = true;
  }
  if (options.to_pipe || out_path == "-")
    return writer_detail::convert_to_pipe(in, out_path, options);
  WriterOptions wo;
  wo.order = output_order(in, options.byte_order);
  bool pipe = in.kind() == ContainerKind::kPipe;
  if (!pipe && in.header().attr_size >= 16 + kAttrSizeVer0) {
    wo.attr_bytes = static_cast<uint32_t>(in.header().attr_size - 16);
    // Keep the data where the input has it (perf before 3.x left room for event types).
    wo.min_data_offset = in.header().data.offset;
    if (options.compat_perf61) wo.attr_bytes = std::min(wo.attr_bytes, kAttrBytesPerf61);
  }
  ASSIGN_OR_RETURN(auto writer, PerfDataWriter::create(out_path, wo));
  ConvertStats stats;
  ConvertSink sink(in, *writer, options, stats);

  auto events = [&] {
    std::vector<WriterEvent> ev;
    for (size_t i = 0; i < in.events().size(); ++i) {
      ev.push_back({sink.out_attr(in.events()[i].attr), in.events()[i].ids});
    }
    return ev;
  };
  RETURN_IF_ERROR(writer->begin(pipe ? std::vector<WriterEvent>{} : events()));
  PerfData::ProcessOptions po;
  po.ordered = false;
  po.decode_samples = false;
  RETURN_IF_ERROR(in.process(sink, po));
  sink.finish();
  RETURN_IF_ERROR(sink.status());
  // A pipe's attrs are known now, from its HEADER_ATTR records.
  if (pipe && options.compat_perf61) RETURN_IF_ERROR(check_perf61_attrs(in));

  // The features, describing the output.
  const Features& f = in.features();
  bool swap = in.order() != wo.order;
  std::map<uint32_t, std::vector<std::byte>> feats = input_features(in, wo.order, options);
  if (pipe) {
    if (!sink.tracing_data().empty()) feats[kFeatTracingData] = sink.tracing_data();
    if (!sink.build_id_records().empty()) {
      std::vector<std::byte>& b = feats[kFeatBuildId];
      b.clear();
      if (swap) {
        swap_feature(kFeatBuildId, sink.build_id_records(), in.order(), 0, b);
      } else {
        b = sink.build_id_records();
      }
    }
  }
  bool filtering = !options.time.empty() || !options.pids.empty() || !options.tids.empty() ||
                   !options.cpus.empty() || !options.comms.empty();
  if (filtering && f.sample_time) {
    std::vector<std::byte>& s = feats[kFeatSampleTime];
    s.clear();
    auto t = sink.sample_time().value_or(std::make_pair(uint64_t{0}, uint64_t{0}));
    put(s, wo.order, t.first);
    put(s, wo.order, t.second);
  }
  const Compressor* c = sink.compressor();
  double ratio = c && c->bytes_out() ? static_cast<double>(c->bytes_in()) / c->bytes_out() : 0;
  if (auto comp =
          compressed_feature(in, sink, options, wo.order, static_cast<uint32_t>(ratio + 0.5))) {
    if (comp->empty()) {
      feats.erase(kFeatCompressed);
    } else {
      feats[kFeatCompressed] = *comp;
    }
  }
  if (options.strip_raw && f.event_desc) {
    feats[kFeatEventDesc] =
        event_desc_section(*f.event_desc, wo.order, wo.attr_bytes,
                           [&](const EventAttr& a) { return sink.out_attr(a); });
  }
  RETURN_IF_ERROR(writer->finish(events(), feats));
  stats.bytes_out = writer->offset();
  return stats;
}

}  // namespace readperf
