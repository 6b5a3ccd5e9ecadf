// `report --header-only [-I]`: session.c perf_session__fprintf_info() and header.c
// perf_header__fprintf_info() of perf 6.1. A file (or directory) prints its features from the
// sections the reader processed at open; a pipe prints the header block, then each
// HEADER_FEATURE record as perf processes it (header.c perf_event__process_feature()), until
// the end-of-features marker (builtin-report.c process_feature_event()).
#include "readperf/output/header_printer.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <bitset>
#include <cstdio>
#include <ctime>
#include <fstream>

#include "header_print.h"
#include "readperf/format/header_version.h"
#include "readperf/format/perf_abi.h"

namespace readperf {

using namespace header_detail;

// perf prints the modification time of the file it reads (fstat of its descriptor: standard
// input for "-", perf.data/data in a directory).
std::optional<time_t> header_detail::recording_mtime(const PerfData& data) {
  struct stat st;
  int rc;
  if (data.path() == "-") {
    rc = fstat(0, &st);
  } else if (data.kind() == ContainerKind::kDirectory) {
    rc = stat((data.path() + "/data").c_str(), &st);
  } else {
    rc = stat(data.path().c_str(), &st);
  }
  if (rc != 0) return std::nullopt;
  return st.st_mtime;
}

// The data section as the file header records it (the reader shortens it for a recording
// cut short, where perf prints the recorded numbers).
FileSection header_detail::recorded_data_section(const PerfData& data) {
  FileSection s = data.header().data;
  if (data.kind() == ContainerKind::kPipe) return s;
  std::string path = data.kind() == ContainerKind::kDirectory ? data.path() + "/data" : data.path();
  std::ifstream f(path, std::ios::binary);
  std::byte buf[kFileHeaderSize] = {};
  f.read(reinterpret_cast<char*>(buf), sizeof buf);
  auto h = parse_file_header(Bytes(buf, static_cast<size_t>(f.gcount())));
  if (h && !h->is_pipe) s = h->data;
  return s;
}

uint32_t header_detail::recorded_header_version(const PerfData& data) {
  if (data.kind() == ContainerKind::kPipe) return 1;
  std::string path = data.kind() == ContainerKind::kDirectory ? data.path() + "/data" : data.path();
  std::ifstream f(path, std::ios::binary);
  std::byte buf[8] = {};
  f.read(reinterpret_cast<char*>(buf), sizeof buf);
  return header_version(Bytes(buf, static_cast<size_t>(f.gcount())));
}

namespace {

// ctime()'s format, local time, of the recording's modification time.
std::string captured_on(const PerfData& data) {
  std::optional<time_t> mtime = recording_mtime(data);
  char buf[64];
  if (!mtime || !ctime_r(&*mtime, buf)) return "?\n";
  return buf;
}

// Whether header.c feat_ops[] has a process function for the feature (BRANCH_STACK and STAT
// have none: perf_event__process_feature() then neither processes nor prints them).
bool has_process(uint32_t feature) { return feature != kFeatBranchStack && feature != kFeatStat; }

// Feeds a PipeFeaturePrinter from a pipe's records.
class PipeFeatureSink : public EventSink {
 public:
  explicit PipeFeatureSink(PipeFeaturePrinter& p) : printer_(p) {}
  void on_user_record(const RecordView& r) override { printer_.on_user_record(r); }
  bool done() const override { return printer_.done(); }

 private:
  PipeFeaturePrinter& printer_;
};

}  // namespace

struct PipeFeaturePrinter::State {
  const PerfData& data;
  bool full;
  OutBuffer& out;
  Features env;
  bool done = false;
};

PipeFeaturePrinter::PipeFeaturePrinter(const PerfData& data, bool full, OutBuffer& out)
    : state_(new State{data, full, out, {}}) {}
PipeFeaturePrinter::~PipeFeaturePrinter() = default;
bool PipeFeaturePrinter::done() const { return state_->done; }

void PipeFeaturePrinter::on_user_record(const RecordView& r) {
  State& st = *state_;
  if (st.done || r.type != kRecordHeaderFeature) return;
  ByteCursor c = r.body(st.data.order());
  // perf has no swap op for HEADER_FEATURE: it reads feat_id as it is (session.c).
  uint64_t feat = c.u64();
  if (c.swapped()) feat = bswap(feat);
  // Past the last feature is the end marker (HEADER_LAST_FEATURE), after which report
  // --header-only stops; a zero or larger id makes perf fail.
  if (!c.ok() || feat == kFeatReserved || feat >= kFeatLastFeature6_1) {
    st.done = true;
    return;
  }
  const uint32_t f = static_cast<uint32_t>(feat);
  if (!has_process(f)) return;
  FeatureContext fctx{.swapped = st.data.order() == ByteOrder::kSwapped,
                      .nr_events = st.data.events().size()};
  Status parsed = parse_feature(f, c.sub(c.remaining()), fctx, st.env);
  if (!parsed && perf_stops_on_error(f)) {
    // perf's processing fails here and it stops reading the pipe.
    st.done = true;
    return;
  }
  PrintContext ctx{.env = st.env,
                   .events = st.data.events(),
                   .order = st.data.order(),
                   .full = st.full,
                   .file_mode = false};
  print_feature(f, ctx, st.out);
}

Status run_header(PerfData& data, bool show_info, OutBuffer& out) {
  print_header_info(data, show_info, out);
  if (data.kind() != ContainerKind::kPipe) return {};
  PipeFeaturePrinter printer(data, show_info, out);
  PipeFeatureSink sink(printer);
  PerfData::ProcessOptions po;
  po.ordered = false;
  po.decode_samples = false;
  Status st = data.process(sink, po);
  // perf ignores how processing the pipe ended once its header is printed.
  if (!st) {
    out.flush();
    fmt::print(stderr, "readperf: {}: warning: {}\n", data.path(), st.error().message());
  }
  return {};
}

namespace {

// A recording whose recorder was killed (data size 0 in its header): perf reads the feature
// table where the records start (header.c perf_header__process_sections(): the table at
// data offset + data size, read whole or not at all) and takes record bytes for sections.
// Each section it can seek to (lseek() fails for an offset past what the file system allows,
// or negative as an off_t) is processed at open, reading on from there as far as the file
// goes (perf_file_section__process(): its reads are not bounded by the section), and printed
// from what that left in perf_env: mostly perf's lines for nothing ("# hostname : (null)").
// Returns false where this is not such a file.
bool print_killed_features(const PerfData& data, bool show_info, OutBuffer& out,
                           std::bitset<256>* recorded_features) {
  if (data.kind() == ContainerKind::kPipe) return false;
  std::string path = data.kind() == ContainerKind::kDirectory ? data.path() + "/data" : data.path();
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  struct stat st;
  void* map = MAP_FAILED;
  if (fstat(fd, &st) == 0 && st.st_size > 0) {
    map = mmap(nullptr, static_cast<size_t>(st.st_size), PROT_READ, MAP_PRIVATE, fd, 0);
  }
  if (map == MAP_FAILED) {
    close(fd);
    return false;
  }
  Bytes file(static_cast<const std::byte*>(map), static_cast<size_t>(st.st_size));
  auto h = parse_file_header(file);
  const bool killed = h && !h->is_pipe && h->data.size == 0;
  if (killed) {
    *recorded_features = h->features;
    const uint64_t at = h->feature_table_offset();
    const uint64_t nr = h->features.count();
    // The table, if the file holds it whole; then the sections perf can seek to.
    std::vector<std::pair<uint32_t, uint64_t>> seekable;  // feature, offset
    if (nr && at <= file.size() && nr * 16 <= file.size() - at) {
      ByteCursor table(file.subspan(at, nr * 16), data.order(), at);
      for (uint32_t feat = 0; feat < kFeatLastFeature6_1; ++feat) {
        if (!h->features[feat]) continue;
        uint64_t offset = table.u64();
        table.u64();  // the size: perf's reads do not look at it
        if (lseek(fd, static_cast<off_t>(offset), SEEK_SET) == static_cast<off_t>(-1)) continue;
        seekable.emplace_back(feat, offset);
      }
    }
    Features env;
    FeatureContext fctx{.swapped = data.order() == ByteOrder::kSwapped,
                        .is_directory = data.kind() == ContainerKind::kDirectory,
                        .nr_events = data.events().size()};
    for (const auto& [feat, offset] : seekable) {
      if (!has_process(feat) || feat == kFeatBuildId) continue;  // build-ids print nothing
      uint64_t off = std::min<uint64_t>(offset, file.size());
      Status parsed =
          parse_feature(feat, ByteCursor(file.subspan(off), data.order(), off), fctx, env);
      if (!parsed && perf_stops_on_error(feat)) break;
    }
    PrintContext ctx{.env = env,
                     .events = data.events(),
                     .order = data.order(),
                     .full = show_info,
                     .file_mode = true};
    for (const auto& [feat, offset] : seekable) print_feature(feat, ctx, out);
  }
  munmap(map, static_cast<size_t>(st.st_size));
  close(fd);
  return killed;
}

}  // namespace

void print_header_info(const PerfData& data, bool show_info, OutBuffer& out) {
  const FileHeader& h = data.header();
  FileSection d = recorded_data_section(data);
  out.write("# ========\n");
  out.print("# captured on    : {}", captured_on(data));
  out.print("# header version : {}\n", recorded_header_version(data));
  out.print("# data offset    : {}\n", d.offset);
  out.print("# data size      : {}\n", d.size);
  out.print("# feat offset    : {}\n", d.offset + d.size);

  if (data.kind() == ContainerKind::kPipe) {
    out.write("# ========\n#\n");
    return;
  }

  PrintContext ctx{.env = data.features(),
                   .events = data.events(),
                   .order = data.order(),
                   .full = show_info,
                   .file_mode = true};
  std::bitset<256> features = h.features;
  if (!print_killed_features(data, show_info, out, &features)) {
    for (const auto& [feat, section] : data.feature_sections()) {
      if (feat < kFeatLastFeature6_1) print_feature(feat, ctx, out);
    }
  }
  out.write("# missing features: ");
  for (uint32_t bit = 1; bit < kFeatLastFeature6_1; ++bit) {
    if (!features[bit]) out.print("{} ", feature_name(bit));
  }
  out.write("\n# ========\n#\n");
}

}  // namespace readperf
