#include "perf_data_builder.h"

#include <zstd.h>

#include <bit>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "readperf/format/file_header.h"
#include "readperf/reader/record.h"

namespace readperf::testing {

namespace {

// perf_event.h struct perf_branch_entry flag widths, first field first.
constexpr int kBranchFlagWidths[] = {1, 1, 1, 1, 16, 4, 2, 4, 3, 31};

void WriteRegs(ByteWriter& w, uint64_t abi, const std::vector<uint64_t>& regs, uint64_t mask) {
  w.u64(abi);
  if (!abi) return;
  // The kernel writes popcount(mask) values; the test supplies them (missing ones are 0).
  for (int i = 0; i < std::popcount(mask); ++i)
    w.u64(i < static_cast<int>(regs.size()) ? regs[i] : 0);
}

void WriteReadValues(ByteWriter& w, uint64_t fmt, const SampleFields& f) {
  if (fmt & kFormatGroup) {
    w.u64(f.group.size());
  } else {
    w.u64(f.read.value);
  }
  if (fmt & kFormatTotalTimeEnabled) w.u64(f.time_enabled);
  if (fmt & kFormatTotalTimeRunning) w.u64(f.time_running);
  auto entry = [&](const ReadEntry& e, bool with_value) {
    if (with_value) w.u64(e.value);
    if (fmt & kFormatId) w.u64(e.id);
    if (fmt & kFormatLost) w.u64(e.lost);
  };
  if (fmt & kFormatGroup) {
    for (const ReadEntry& e : f.group) entry(e, true);
  } else {
    entry(f.read, false);
  }
}

}  // namespace

EventAttr SampleAttr(uint64_t sample_type, uint64_t read_format) {
  EventAttr a;
  a.type = kTypeSoftware;
  a.config = 0;  // cpu-clock
  a.sample_period = 1;
  a.sample_type = sample_type;
  a.read_format = read_format;
  a.flags = (1ull << 18);  // sample_id_all
  return a;
}

uint64_t BigEndianBranchFlags(uint64_t v) {
  uint64_t out = 0;
  int le_pos = 0;
  for (int width : kBranchFlagWidths) {
    uint64_t mask = (1ull << width) - 1;
    out |= ((v >> le_pos) & mask) << (64 - le_pos - width);
    le_pos += width;
  }
  return out;
}

void WriteAttr(ByteWriter& outer, const EventAttr& a, uint32_t size) {
  ByteWriter w(outer.order());
  w.u32(a.type).u32(a.size ? a.size : size).u64(a.config).u64(a.sample_period);
  w.u64(a.sample_type).u64(a.read_format).bitfield64(a.flags);
  w.u32(a.wakeup_events).u32(a.bp_type).u64(a.config1);  // 64: VER0
  w.u64(a.config2);                                      // 72: VER1
  w.u64(a.branch_sample_type);                           // 80: VER2
  // perf_event__attr_swap() (session.c) leaves clockid, sample_regs_intr, the reserved words,
  // sig_data and config3 unswapped: a file perf reads right has them in the reader's order.
  w.u64(a.sample_regs_user).u32(a.sample_stack_user).unswapped(a.clockid);  // 96: VER3
  w.unswapped(a.sample_regs_intr);                                          // 104: VER4
  w.u32(a.aux_watermark).u16(a.sample_max_stack).unswapped(a.reserved_2);   // 112: VER5
  w.u32(a.aux_sample_size).unswapped(a.reserved_3);                         // 120: VER6
  w.unswapped(a.sig_data);                                                  // 128: VER7
  w.unswapped(a.config3);                                                   // 136: VER8
  w.unswapped(a.config4);                                                   // 144
  std::vector<std::byte> b = w.take();
  b.resize(size);  // shorter versions end early; longer ones have zeros past what we know
  outer.bytes(b);
}

void WriteSampleBody(ByteWriter& w, const EventAttr& a, const SampleFields& f) {
  uint64_t t = a.sample_type;
  if (t & kSampleIdentifier) w.u64(f.identifier);
  if (t & kSampleIp) w.u64(f.ip);
  if (t & kSampleTid) w.u32(f.pid).u32(f.tid);
  if (t & kSampleTime) w.u64(f.time);
  if (t & kSampleAddr) w.u64(f.addr);
  if (t & kSampleId) w.u64(f.id);
  if (t & kSampleStreamId) w.u64(f.stream_id);
  if (t & kSampleCpu) w.u32(f.cpu).u32(0);
  if (t & kSamplePeriod) w.u64(f.period);
  if (t & kSampleRead) WriteReadValues(w, a.read_format, f);
  if (t & kSampleCallchain) {
    w.u64(f.callchain.size());
    for (uint64_t ip : f.callchain) w.u64(ip);
  }
  if (t & kSampleRaw) w.u32(static_cast<uint32_t>(f.raw.size())).bytes(f.raw);
  if (t & kSampleBranchStack) {
    w.u64(f.branches.size());
    if (a.branch_sample_type & kBranchSampleHwIndex) w.u64(f.hw_idx);
    for (const BranchEntryIn& b : f.branches) {
      w.u64(b.from).u64(b.to).u64(w.swapped() ? BigEndianBranchFlags(b.flags) : b.flags);
    }
  }
  if (t & kSampleRegsUser) WriteRegs(w, f.user_abi, f.user_regs, a.sample_regs_user);
  if (t & kSampleStackUser) {
    w.u64(f.user_stack.size());
    if (!f.user_stack.empty()) w.bytes(f.user_stack).u64(f.user_stack_dyn_size);
  }
  if (t & kSampleWeightType) w.u64(f.weight);
  if (t & kSampleDataSrc) w.u64(f.data_src);
  if (t & kSampleTransaction) w.u64(f.transaction);
  if (t & kSampleRegsIntr) WriteRegs(w, f.intr_abi, f.intr_regs, a.sample_regs_intr);
  if (t & kSamplePhysAddr) w.u64(f.phys_addr);
  if (t & kSampleCgroup) w.u64(f.cgroup);
  if (t & kSampleDataPageSize) w.u64(f.data_page_size);
  if (t & kSampleCodePageSize) w.u64(f.code_page_size);
  if (t & kSampleAux) w.u64(f.aux.size()).bytes(f.aux);
}

void WriteSampleIdTrailer(ByteWriter& w, const EventAttr& a, const SampleFields& f) {
  if (!a.sample_id_all()) return;
  uint64_t t = a.sample_type;
  if (t & kSampleTid) w.u32(f.pid).u32(f.tid);
  if (t & kSampleTime) w.u64(f.time);
  if (t & kSampleId) w.u64(f.id);
  if (t & kSampleStreamId) w.u64(f.stream_id);
  if (t & kSampleCpu) w.u32(f.cpu).u32(0);
  if (t & kSampleIdentifier) w.u64(f.identifier);
}

PerfDataBuilder& PerfDataBuilder::WithByteOrder(ByteOrder order) {
  order_ = order;
  return *this;
}
PerfDataBuilder& PerfDataBuilder::WithMode(Mode mode) {
  mode_ = mode;
  return *this;
}
PerfDataBuilder& PerfDataBuilder::WithPerffileMagic() {
  perffile_ = true;
  return *this;
}
PerfDataBuilder& PerfDataBuilder::WithAttrSize(uint32_t size) {
  attr_size_ = size;
  return *this;
}
PerfDataBuilder& PerfDataBuilder::AddAttr(const EventAttr& attr, std::vector<uint64_t> ids) {
  attrs_.push_back({attr, std::move(ids)});
  return *this;
}
PerfDataBuilder& PerfDataBuilder::AddFeature(uint32_t feature, std::vector<std::byte> body) {
  features_[feature] = std::move(body);
  return *this;
}
PerfDataBuilder& PerfDataBuilder::AddStringFeature(uint32_t feature, std::string_view s) {
  ByteWriter w = writer();
  uint32_t len = static_cast<uint32_t>((s.size() + 1 + 63) / 64 * 64);
  w.u32(len).bytes(s.data(), s.size()).zeros(len - s.size());
  return AddFeature(feature, w.take());
}
PerfDataBuilder& PerfDataBuilder::AddBuildIdFeature(std::string_view file,
                                                    const std::array<uint8_t, 20>& id) {
  // struct perf_record_header_build_id: header, pid, build_id[24], filename (8-aligned).
  ByteWriter body = writer();
  body.str(file, 8);
  std::vector<std::byte> name = body.take();
  ByteWriter w = writer();
  w.u32(kRecordHeaderBuildId).u16(kMiscUser).u16(static_cast<uint16_t>(36 + name.size()));
  w.s32(-1);
  for (uint8_t byte : id) w.u8(byte);
  w.zeros(4).bytes(name.data(), name.size());
  return AddFeature(kFeatBuildId, w.take());
}

PerfDataBuilder& PerfDataBuilder::InDataFile(int n) {
  current_file_ = n;
  return *this;
}

const EventAttr& PerfDataBuilder::AttrOf(size_t i) const {
  if (i >= attrs_.size()) throw std::out_of_range("PerfDataBuilder: no attr for this record");
  return attrs_[i].attr;
}

std::vector<std::byte>& PerfDataBuilder::Destination() {
  if (compressing_) return compress_buf_;
  if (current_file_ < 0) return main_data_;
  return data_files_[current_file_];
}

PerfDataBuilder& PerfDataBuilder::Append(std::vector<std::byte> record) {
  std::vector<std::byte>& dst = Destination();
  if (&dst == &main_data_) main_offsets_.push_back(main_data_.size());
  dst.insert(dst.end(), record.begin(), record.end());
  return *this;
}

PerfDataBuilder& PerfDataBuilder::Finish(uint32_t type, uint16_t misc, ByteWriter& body) {
  size_t size = kRecordHeaderSize + body.size();
  if (size > 0xffff) throw std::length_error("PerfDataBuilder: record over 64 KiB");
  ByteWriter w = writer();
  w.u32(type).u16(misc).u16(static_cast<uint16_t>(size)).bytes(body.buffer());
  return Append(w.take());
}

PerfDataBuilder& PerfDataBuilder::AddRecord(uint32_t type, uint16_t misc,
                                            const std::function<void(ByteWriter&)>& body) {
  ByteWriter w = writer();
  if (body) body(w);
  return Finish(type, misc, w);
}

PerfDataBuilder& PerfDataBuilder::AddKernelRecord(uint32_t type, uint16_t misc,
                                                  const std::function<void(ByteWriter&)>& body,
                                                  const SampleFields& sid) {
  ByteWriter w = writer();
  if (body) body(w);
  if (!attrs_.empty()) WriteSampleIdTrailer(w, AttrOf(sid.attr), sid);
  return Finish(type, misc, w);
}

PerfDataBuilder& PerfDataBuilder::AddSample(const SampleFields& f) {
  ByteWriter w = writer();
  WriteSampleBody(w, AttrOf(f.attr), f);
  return Finish(kRecordSample, f.misc, w);
}

PerfDataBuilder& PerfDataBuilder::AddMmap(uint32_t pid, uint32_t tid, uint64_t start, uint64_t len,
                                          uint64_t pgoff, std::string_view file,
                                          const SampleFields& sid) {
  return AddKernelRecord(
      kRecordMmap, sid.misc,
      [&](ByteWriter& w) { w.u32(pid).u32(tid).u64(start).u64(len).u64(pgoff).str(file); }, sid);
}

PerfDataBuilder& PerfDataBuilder::AddMmap2(uint32_t pid, uint32_t tid, uint64_t start, uint64_t len,
                                           uint64_t pgoff, std::string_view file,
                                           const SampleFields& sid) {
  return AddKernelRecord(
      kRecordMmap2, sid.misc,
      [&](ByteWriter& w) {
        w.u32(pid).u32(tid).u64(start).u64(len).u64(pgoff);
        w.u32(8).u32(1).u64(1234).u64(5);  // maj, min, ino, ino_generation
        w.u32(5).u32(2);                   // PROT_READ|PROT_EXEC, MAP_PRIVATE
        w.str(file);
      },
      sid);
}

PerfDataBuilder& PerfDataBuilder::AddDataMmap2(uint32_t pid, uint32_t tid, uint64_t start,
                                               uint64_t len, uint64_t pgoff, std::string_view file,
                                               uint32_t prot, uint32_t flags, bool anon,
                                               const SampleFields& sid) {
  return AddKernelRecord(
      kRecordMmap2, sid.misc,
      [&](ByteWriter& w) {
        w.u32(pid).u32(tid).u64(start).u64(len).u64(pgoff);
        if (anon) {
          w.u32(0).u32(0).u64(0).u64(0);
        } else {
          w.u32(8).u32(1).u64(1234).u64(5);
        }
        w.u32(prot).u32(flags);
        w.str(file);
      },
      sid);
}

PerfDataBuilder& PerfDataBuilder::AddComm(uint32_t pid, uint32_t tid, std::string_view comm,
                                          const SampleFields& sid) {
  return AddKernelRecord(
      kRecordComm, sid.misc, [&](ByteWriter& w) { w.u32(pid).u32(tid).str(comm); }, sid);
}

PerfDataBuilder& PerfDataBuilder::AddFork(uint32_t pid, uint32_t ppid, uint32_t tid, uint32_t ptid,
                                          uint64_t time, const SampleFields& sid) {
  return AddKernelRecord(
      kRecordFork, sid.misc,
      [&](ByteWriter& w) { w.u32(pid).u32(ppid).u32(tid).u32(ptid).u64(time); }, sid);
}

PerfDataBuilder& PerfDataBuilder::AddExit(uint32_t pid, uint32_t ppid, uint32_t tid, uint32_t ptid,
                                          uint64_t time, const SampleFields& sid) {
  return AddKernelRecord(
      kRecordExit, sid.misc,
      [&](ByteWriter& w) { w.u32(pid).u32(ppid).u32(tid).u32(ptid).u64(time); }, sid);
}

PerfDataBuilder& PerfDataBuilder::AddLost(uint64_t id, uint64_t lost, const SampleFields& sid) {
  return AddKernelRecord(
      kRecordLost, sid.misc, [&](ByteWriter& w) { w.u64(id).u64(lost); }, sid);
}

PerfDataBuilder& PerfDataBuilder::AddLostSamples(uint64_t lost, const SampleFields& sid) {
  return AddKernelRecord(
      kRecordLostSamples, sid.misc, [&](ByteWriter& w) { w.u64(lost); }, sid);
}

PerfDataBuilder& PerfDataBuilder::AddThrottle(uint32_t type, uint64_t time, uint64_t id,
                                              uint64_t stream_id, const SampleFields& sid) {
  return AddKernelRecord(
      type, sid.misc, [&](ByteWriter& w) { w.u64(time).u64(id).u64(stream_id); }, sid);
}

PerfDataBuilder& PerfDataBuilder::AddSwitch(bool out, const SampleFields& sid) {
  return AddKernelRecord(kRecordSwitch, out ? kMiscSwitchOut : 0, nullptr, sid);
}

PerfDataBuilder& PerfDataBuilder::AddSwitchCpuWide(bool out, uint32_t pid, uint32_t tid,
                                                   const SampleFields& sid) {
  return AddKernelRecord(
      kRecordSwitchCpuWide, out ? kMiscSwitchOut : 0, [&](ByteWriter& w) { w.u32(pid).u32(tid); },
      sid);
}

PerfDataBuilder& PerfDataBuilder::AddCgroup(uint64_t id, std::string_view path,
                                            const SampleFields& sid) {
  return AddKernelRecord(
      kRecordCgroup, sid.misc, [&](ByteWriter& w) { w.u64(id).str(path); }, sid);
}

PerfDataBuilder& PerfDataBuilder::AddFinishedRound() {
  return AddRecord(kRecordFinishedRound, 0, nullptr);
}
PerfDataBuilder& PerfDataBuilder::AddFinishedInit() {
  return AddRecord(kRecordFinishedInit, 0, nullptr);
}

PerfDataBuilder& PerfDataBuilder::AddIdIndex(const std::vector<IdIndexEntry>& entries) {
  return AddRecord(kRecordIdIndex, 0, [&](ByteWriter& w) {
    w.u64(entries.size());
    for (const IdIndexEntry& e : entries) w.u64(e.id).u64(e.idx).u64(e.cpu).u64(e.tid);
  });
}

PerfDataBuilder& PerfDataBuilder::AddRawBytes(std::vector<std::byte> bytes) {
  std::vector<std::byte>& dst = Destination();
  dst.insert(dst.end(), bytes.begin(), bytes.end());
  return *this;
}

PerfDataBuilder& PerfDataBuilder::BeginCompressed() {
  compressing_ = true;
  compress_buf_.clear();
  return *this;
}

PerfDataBuilder& PerfDataBuilder::EndCompressed(size_t piece, uint32_t type) {
  compressing_ = false;
  ZSTD_CCtx* cctx = ZSTD_createCCtx();
  ZSTD_CCtx_setParameter(cctx, ZSTD_c_compressionLevel, 1);
  // perf's zstd_compress_stream_to_records(): at most this much compressed data per record.
  constexpr size_t kMaxChunk = 0xffff - 16 - 8;
  std::vector<std::byte> out(ZSTD_CStreamOutSize());
  for (size_t at = 0; at < compress_buf_.size(); at += piece) {
    size_t n = std::min(piece, compress_buf_.size() - at);
    ZSTD_inBuffer in{compress_buf_.data() + at, n, 0};
    std::vector<std::byte> produced;
    size_t left;
    do {
      ZSTD_outBuffer o{out.data(), out.size(), 0};
      left = ZSTD_compressStream2(cctx, &o, &in, ZSTD_e_flush);
      if (ZSTD_isError(left)) throw std::runtime_error(ZSTD_getErrorName(left));
      produced.insert(produced.end(), out.begin(), out.begin() + o.pos);
    } while (left != 0);
    for (size_t c = 0; c < produced.size(); c += kMaxChunk) {
      size_t len = std::min(kMaxChunk, produced.size() - c);
      ByteWriter w = writer();
      if (type == kRecordCompressed2) w.u64(len);
      w.bytes(produced.data() + c, len);
      if (type == kRecordCompressed2) w.align(8);
      Finish(type, 0, w);
    }
  }
  ZSTD_freeCCtx(cctx);
  compress_buf_.clear();
  return *this;
}

std::vector<std::byte> PerfDataBuilder::BuildPipe(const std::vector<std::byte>& data) {
  ByteWriter w = writer();
  if (perffile_) {
    w.unswapped(kMagicPerffile).u64(kPipeHeaderSize);
  } else {
    w.u64(kMagicPerfile2).u64(kPipeHeaderSize);
  }
  for (const Attr& a : attrs_) {
    ByteWriter body = writer();
    WriteAttr(body, a.attr, attr_size_);
    for (uint64_t id : a.ids) body.u64(id);
    layout_.record_offsets.push_back(w.size());
    w.u32(kRecordHeaderAttr).u16(0).u16(static_cast<uint16_t>(8 + body.size()));
    w.bytes(body.buffer());
  }
  for (const auto& [feat, body] : features_) {
    layout_.record_offsets.push_back(w.size());
    w.u32(kRecordHeaderFeature).u16(0).u16(static_cast<uint16_t>(16 + body.size()));
    w.unswapped(uint64_t{feat}).bytes(body);  // perf reads feat_id unswapped
  }
  layout_.data_offset = w.size();
  layout_.data_size = data.size();
  for (uint64_t off : main_offsets_) layout_.record_offsets.push_back(w.size() + off);
  w.bytes(data);
  layout_.end = w.size();
  return w.take();
}

std::vector<std::byte> PerfDataBuilder::BuildFile(const std::vector<std::byte>& data) {
  ByteWriter w = writer();
  w.zeros(kFileHeaderSize);
  // The ids of each attr, then the attrs section, as perf_session__write_header() lays them.
  std::vector<uint64_t> id_offsets;
  for (const Attr& a : attrs_) {
    id_offsets.push_back(w.size());
    for (uint64_t id : a.ids) w.u64(id);
  }
  layout_.attrs_offset = w.size();
  for (size_t i = 0; i < attrs_.size(); ++i) {
    WriteAttr(w, attrs_[i].attr, attr_size_);
    w.u64(id_offsets[i]).u64(attrs_[i].ids.size() * 8);
  }
  uint64_t attrs_size = w.size() - layout_.attrs_offset;
  layout_.data_offset = w.size();
  layout_.data_size = data.size();
  for (uint64_t off : main_offsets_) layout_.record_offsets.push_back(layout_.data_offset + off);
  w.bytes(data);
  layout_.feature_table_offset = w.size();
  size_t table = w.size();
  w.zeros(16 * features_.size());
  size_t slot = 0;
  for (const auto& [feat, body] : features_) {
    w.patch_u64(table + 16 * slot, w.size());
    w.patch_u64(table + 16 * slot + 8, body.size());
    w.bytes(body);
    ++slot;
  }
  layout_.end = w.size();

  ByteWriter h = writer();
  if (perffile_) {
    h.unswapped(kMagicPerffile);  // the same bytes in either order
  } else {
    h.u64(kMagicPerfile2);
  }
  h.u64(kFileHeaderSize).u64(attr_size_ + 16);
  h.u64(layout_.attrs_offset).u64(attrs_size);
  h.u64(layout_.data_offset).u64(data.size());
  h.u64(0).u64(0);  // event_types
  uint64_t bits[4] = {};
  for (const auto& [feat, body] : features_) bits[feat / 64] |= 1ull << (feat % 64);
  for (uint64_t word : bits) h.u64(word);
  std::vector<std::byte> out = w.take();
  std::copy(h.buffer().begin(), h.buffer().end(), out.begin());
  return out;
}

std::vector<std::byte> PerfDataBuilder::Build() {
  if (compressing_) throw std::logic_error("PerfDataBuilder: BeginCompressed without End");
  layout_ = Layout{};
  return mode_ == Mode::kPipe ? BuildPipe(main_data_) : BuildFile(main_data_);
}

void PerfDataBuilder::WriteFile(const std::string& path) {
  std::vector<std::byte> b = Build();
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f.write(reinterpret_cast<const char*>(b.data()), static_cast<std::streamsize>(b.size()));
  if (!f) throw std::runtime_error("cannot write " + path);
}

void PerfDataBuilder::WriteDirectory(const std::string& path) {
  std::filesystem::create_directories(path);
  if (!features_.count(kFeatDirFormat)) {
    ByteWriter w = writer();
    w.u64(1);  // PERF_DIR_VERSION
    AddFeature(kFeatDirFormat, w.take());
  }
  WriteFile(path + "/data");
  for (const auto& [n, bytes] : data_files_) {
    std::ofstream f(path + "/data." + std::to_string(n), std::ios::binary | std::ios::trunc);
    f.write(reinterpret_cast<const char*>(bytes.data()),
            static_cast<std::streamsize>(bytes.size()));
    if (!f) throw std::runtime_error("cannot write " + path);
  }
}

}  // namespace readperf::testing
