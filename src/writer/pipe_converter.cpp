// convert() to a pipe-mode stream. A pipe input's records, its header records included, go
// out in their order (ConvertSink with pipe_out). A file input's header is turned into the
// records `perf inject -i perf.data -o -` synthesizes (builtin-inject.c: perf_header__write_pipe
// then perf_event__synthesize_for_pipe), ahead of its data records, which follow unchanged: a
// recording by perf 5.17 or later carries its own FINISHED_INIT among them, after the
// synthesized records, where record__synthesize() and write_finished_init() put it.
#include <fmt/format.h>

#include "convert_sink.h"
#include "readperf/writer/pipe_writer.h"

namespace readperf::writer_detail {

namespace {

// A HEADER_FEATURE record's u16 size bounds its section (perf 6.1 truncates the size of
// larger ones; they are left out here).
constexpr size_t kMaxFeatureSection = 0xffff - 16;

// Takes records and keeps nothing: the first pass that finds the kept samples' time range.
class NullOutput : public RecordOutput {
 public:
  explicit NullOutput(ByteOrder order) : order_(order) {}
  ByteOrder order() const override { return order_; }
  Status write(Bytes) override { return {}; }

 private:
  ByteOrder order_;
};

// SAMPLE_TIME for the samples a filter keeps, as the file output writes it, found by reading
// the input once more: the features go out before the data (nullopt: keep the input's).
Result<std::optional<std::pair<uint64_t, uint64_t>>> filtered_sample_time(const PerfData& in,
                                                                          const ConvertOptions& o) {
  bool filtering =
      !o.time.empty() || !o.pids.empty() || !o.tids.empty() || !o.cpus.empty() || !o.comms.empty();
  if (!filtering || !in.features().sample_time || in.path() == "-") return std::nullopt;
  ASSIGN_OR_RETURN(auto again, PerfData::open(in.path()));
  ConvertOptions count = o;
  count.compress_level.reset();
  count.decompress = true;
  count.strip_raw = false;
  NullOutput null(again->order());
  ConvertStats stats;
  ConvertSink sink(*again, null, count, stats, /*pipe_out=*/true);
  PerfData::ProcessOptions po;
  po.ordered = false;
  po.decode_samples = false;
  RETURN_IF_ERROR(again->process(sink, po));
  return sink.sample_time().value_or(std::make_pair(uint64_t{0}, uint64_t{0}));
}

Status write_file_header(PerfData& in, PipeWriter& w, const ConvertSink& sink,
                         const ConvertOptions& o,
                         const std::optional<std::vector<std::byte>>& compressed,
                         std::vector<std::string>& warnings) {
  // perf_event__synthesize_attrs(): the attrs first, as features work on top of them.
  for (size_t i = 0; i < in.events().size(); ++i) {
    const Evsel& ev = in.events()[i];
    RETURN_IF_ERROR(w.write_attr({sink.out_attr(ev.attr), ev.ids}));
  }
  // perf_event__synthesize_features(): the FEAT_OPR features, in bit order, then the mark.
  std::map<uint32_t, std::vector<std::byte>> feats = input_features(in, w.order(), o);
  if (compressed) {
    if (compressed->empty()) {
      feats.erase(kFeatCompressed);
    } else {
      feats[kFeatCompressed] = *compressed;
    }
  }
  const Features& f = in.features();
  ASSIGN_OR_RETURN(auto sample_time, filtered_sample_time(in, o));
  if (sample_time) {
    std::vector<std::byte>& st = feats[kFeatSampleTime];
    st.clear();
    put(st, w.order(), sample_time->first);
    put(st, w.order(), sample_time->second);
  }
  if (o.strip_raw && f.event_desc) {
    uint32_t attr_bytes = in.header().attr_size >= 16 + kAttrSizeVer0
                              ? static_cast<uint32_t>(in.header().attr_size - 16)
                              : PipeWriter::kAttrBytes;
    feats[kFeatEventDesc] = event_desc_section(
        *f.event_desc, w.order(), attr_bytes, [&](const EventAttr& a) { return sink.out_attr(a); });
  }
  for (const auto& [feat, section] : feats) {
    // An empty section is what perf's write failed to fill: it sends none.
    if (!pipe_carries_feature(feat) || section.empty()) continue;
    if (section.size() > kMaxFeatureSection) {
      warnings.push_back(fmt::format(
          "feature {} ({} bytes) does not fit in a pipe's HEADER_FEATURE record: left out",
          feat, section.size()));
      continue;
    }
    RETURN_IF_ERROR(w.write_feature(feat, section));
  }
  RETURN_IF_ERROR(w.write_last_feature());
  // perf_event__synthesize_tracing_data() when there are tracepoints: the data as read.
  if (auto td = f.raw.find(kFeatTracingData); td != f.raw.end()) {
    RETURN_IF_ERROR(w.write_tracing_data(td->second));
  }
  // The build-ids a file keeps in its BUILD_ID section, as the HEADER_BUILD_ID records
  // `perf inject -b` sends: before the data, so the dsos have them when the maps come, as
  // they have a file's (perf_header__read_build_ids and perf_event__process_build_id both
  // end in __event_process_build_id).
  if (auto b = feats.find(kFeatBuildId); b != feats.end()) {
    RETURN_IF_ERROR(w.write_build_ids(b->second));
  }
  // The event names, as record__synthesize() sends them to a pipe
  // (perf_event__synthesize_extra_attr): perf names the first event of each type before it
  // reads EVENT_DESC, and only an EVENT_UPDATE renames it.
  if (f.event_desc) {
    const auto& desc = *f.event_desc;
    for (size_t i = 0; i < desc.size(); ++i) {
      // EVENT_DESC lists the events in evlist order; files before perf 4.x leave its ids out.
      uint64_t id = !desc[i].ids.empty()                                    ? desc[i].ids[0]
                    : i < in.events().size() && !in.events()[i].ids.empty() ? in.events()[i].ids[0]
                                                                            : 0;
      // evlist__id2evsel() takes id 0 for the first event, right only when it is the only one.
      if (desc[i].name.empty() || (id == 0 && in.events().size() != 1)) continue;
      RETURN_IF_ERROR(w.write_event_name(id, desc[i].name));
    }
  }
  return {};
}

}  // namespace

Result<ConvertStats> convert_to_pipe(PerfData& in, const std::string& out_path,
                                     const ConvertOptions& options) {
  ByteOrder order = output_order(in, options.byte_order);
  ASSIGN_OR_RETURN(auto w, PipeWriter::create(out_path, order));
  ConvertStats stats;
  ConvertSink sink(in, *w, options, stats, /*pipe_out=*/true);
  // The COMPRESSED feature goes out before the data, when the ratio is not known yet: 0, as
  // `perf record -o - -z` writes it (header.c write_compressed() of env.comp_ratio).
  auto compressed = compressed_feature(in, sink, options, order, 0);
  if (in.kind() == ContainerKind::kPipe) {
    sink.set_compressed_feature(compressed);
  } else {
    RETURN_IF_ERROR(write_file_header(in, *w, sink, options, compressed, stats.warnings));
  }
  PerfData::ProcessOptions po;
  po.ordered = false;
  po.decode_samples = false;
  RETURN_IF_ERROR(in.process(sink, po));
  sink.finish();
  RETURN_IF_ERROR(sink.status());
  RETURN_IF_ERROR(w->finish());
  stats.bytes_out = w->bytes_written();
  return stats;
}

}  // namespace readperf::writer_detail
