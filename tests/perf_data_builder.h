// Writes perf.data bytes for synthetic test cases, in the spirit of quipper's test builders:
// every container perf writes (a PERFILE2 file, a pipe-mode stream, a --threads directory),
// in this machine's byte order or the other one, with records of every type.
//
//   EventAttr attr = SampleAttr(kSampleIp | kSampleTid | kSampleTime);
//   std::vector<std::byte> file = PerfDataBuilder()
//       .WithByteOrder(ByteOrder::kSwapped)
//       .AddAttr(attr, {101})
//       .AddComm(1, 1, "true", {.pid = 1, .tid = 1, .time = 10})
//       .AddSample({.ip = 0x1000, .pid = 1, .tid = 1, .time = 20})
//       .AddFinishedRound()
//       .Build();
//
// Non-sample kernel records get a sample_id trailer when their attr (SampleFields::attr,
// default the first) has sample_id_all. After Build(), layout() tells where things went, so
// damage tests can cut or overwrite the bytes at known places.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "byte_writer.h"
#include "readperf/format/event_attr.h"
#include "readperf/format/perf_abi.h"

namespace readperf::testing {

struct ReadEntry {
  uint64_t value = 0;
  uint64_t id = 0;
  uint64_t lost = 0;
};

struct BranchEntryIn {
  uint64_t from = 0;
  uint64_t to = 0;
  uint64_t flags = 0;  // little-endian bit numbering (mispred is bit 0)
};

// Values of every PERF_SAMPLE_* field; the attr's sample_type decides which are written. The
// trailer of a non-sample record uses pid/tid/time/id/stream_id/cpu/identifier.
struct SampleFields {
  size_t attr = 0;  // which attr (in AddAttr order) the record belongs to
  uint16_t misc = kMiscUser;
  uint64_t identifier = 0;
  uint64_t ip = 0;
  uint32_t pid = 0;
  uint32_t tid = 0;
  uint64_t time = 0;
  uint64_t addr = 0;
  uint64_t id = 0;
  uint64_t stream_id = 0;
  uint32_t cpu = 0;
  uint64_t period = 0;
  // PERF_SAMPLE_READ: `read` for one value (its id and lost when the read_format has them),
  // `group` for PERF_FORMAT_GROUP.
  ReadEntry read;
  uint64_t time_enabled = 0;
  uint64_t time_running = 0;
  std::vector<ReadEntry> group;
  std::vector<uint64_t> callchain;
  std::vector<uint8_t> raw;  // written after a u32 size; pad it so the size word aligns
  std::vector<BranchEntryIn> branches;
  uint64_t hw_idx = 0;
  uint64_t user_abi = 0;
  std::vector<uint64_t> user_regs;  // popcount(sample_regs_user) values when user_abi != 0
  std::vector<uint8_t> user_stack;  // the copy; empty writes just a 0 size
  uint64_t user_stack_dyn_size = 0;
  uint64_t weight = 0;  // the u64 of WEIGHT or WEIGHT_STRUCT
  uint64_t data_src = 0;
  uint64_t transaction = 0;
  uint64_t intr_abi = 0;
  std::vector<uint64_t> intr_regs;
  uint64_t phys_addr = 0;
  uint64_t cgroup = 0;
  uint64_t data_page_size = 0;
  uint64_t code_page_size = 0;
  std::vector<uint8_t> aux;  // written after a u64 size; keep it a multiple of 8
};

// An attr with the given sample_type, period 1, sample_id_all set (the usual perf record one).
EventAttr SampleAttr(uint64_t sample_type, uint64_t read_format = 0);

// perf_event_attr as `size` bytes (64..144), in `w`'s byte order. attr.size of 0 writes
// `size` in the size field.
void WriteAttr(ByteWriter& w, const EventAttr& attr, uint32_t size);
// The body of a sample (after its 8-byte header) or a sample_id trailer.
void WriteSampleBody(ByteWriter& w, const EventAttr& attr, const SampleFields& f);
void WriteSampleIdTrailer(ByteWriter& w, const EventAttr& attr, const SampleFields& f);
// A branch entry's flags as a big-endian machine lays out struct perf_branch_entry's fields.
uint64_t BigEndianBranchFlags(uint64_t le_flags);

class PerfDataBuilder {
 public:
  enum class Mode { kFile, kPipe };
  struct IdIndexEntry {
    uint64_t id = 0, idx = 0, cpu = 0, tid = 0;
  };
  // Where Build() put things (file offsets; for a pipe, offsets in the stream).
  struct Layout {
    uint64_t attrs_offset = 0;
    uint64_t data_offset = 0;
    uint64_t data_size = 0;
    uint64_t feature_table_offset = 0;
    std::vector<uint64_t> record_offsets;  // every record of the main data, in order
    uint64_t end = 0;
  };

  PerfDataBuilder& WithByteOrder(ByteOrder order);
  PerfDataBuilder& WithMode(Mode mode);
  // The legacy magic "PERFFILE" (perf before 2011, header version 0): the file's byte order
  // is then told by attr_size alone, which must be one of that era's (WithAttrSize 64, 72,
  // 80, 96 or 104).
  PerfDataBuilder& WithPerffileMagic();
  // Size written for each attr (perf 6.1 writes 128, perf 6.12 136, perf 7.2 144).
  PerfDataBuilder& WithAttrSize(uint32_t size);
  PerfDataBuilder& AddAttr(const EventAttr& attr, std::vector<uint64_t> ids = {});
  // A feature section (file) or HEADER_FEATURE record (pipe), raw body in the file's order.
  PerfDataBuilder& AddFeature(uint32_t feature, std::vector<std::byte> body);
  // perf's do_write_string(): u32 length (NUL and padding to 64 included), the string.
  PerfDataBuilder& AddStringFeature(uint32_t feature, std::string_view s);

  // HEADER_BUILD_ID with one host entry (pid -1) naming `file`, as `perf record` writes it.
  PerfDataBuilder& AddBuildIdFeature(std::string_view file, const std::array<uint8_t, 20>& id);

  // Subsequent records go to data.N of a directory (-1: the main file's data section).
  PerfDataBuilder& InDataFile(int n);

  // Kernel records. `sid` supplies the sample_id trailer values (and which attr's layout).
  PerfDataBuilder& AddSample(const SampleFields& f);
  PerfDataBuilder& AddMmap(uint32_t pid, uint32_t tid, uint64_t start, uint64_t len, uint64_t pgoff,
                           std::string_view file, const SampleFields& sid = {});
  PerfDataBuilder& AddMmap2(uint32_t pid, uint32_t tid, uint64_t start, uint64_t len,
                            uint64_t pgoff, std::string_view file, const SampleFields& sid = {});
  // An MMAP2 of data (`perf record -d`): `prot` and `flags` as given (PROT_*, MAP_*), and
  // with `anon` the device and inode numbers 0, as the kernel reports [stack] or [heap].
  PerfDataBuilder& AddDataMmap2(uint32_t pid, uint32_t tid, uint64_t start, uint64_t len,
                                uint64_t pgoff, std::string_view file, uint32_t prot,
                                uint32_t flags, bool anon, const SampleFields& sid = {});
  PerfDataBuilder& AddComm(uint32_t pid, uint32_t tid, std::string_view comm,
                           const SampleFields& sid = {});
  PerfDataBuilder& AddFork(uint32_t pid, uint32_t ppid, uint32_t tid, uint32_t ptid, uint64_t time,
                           const SampleFields& sid = {});
  PerfDataBuilder& AddExit(uint32_t pid, uint32_t ppid, uint32_t tid, uint32_t ptid, uint64_t time,
                           const SampleFields& sid = {});
  PerfDataBuilder& AddLost(uint64_t id, uint64_t lost, const SampleFields& sid = {});
  PerfDataBuilder& AddLostSamples(uint64_t lost, const SampleFields& sid = {});
  PerfDataBuilder& AddThrottle(uint32_t type, uint64_t time, uint64_t id, uint64_t stream_id,
                               const SampleFields& sid = {});
  PerfDataBuilder& AddSwitch(bool out, const SampleFields& sid = {});
  PerfDataBuilder& AddSwitchCpuWide(bool out, uint32_t pid, uint32_t tid,
                                    const SampleFields& sid = {});
  PerfDataBuilder& AddCgroup(uint64_t id, std::string_view path, const SampleFields& sid = {});
  // Any kernel record: `body` writes what comes between the header and the trailer.
  PerfDataBuilder& AddKernelRecord(uint32_t type, uint16_t misc,
                                   const std::function<void(ByteWriter&)>& body,
                                   const SampleFields& sid = {});

  // User records.
  PerfDataBuilder& AddFinishedRound();
  PerfDataBuilder& AddFinishedInit();
  PerfDataBuilder& AddIdIndex(const std::vector<IdIndexEntry>& entries);
  // Any record, header and body as given: `body` writes what follows the 8-byte header.
  PerfDataBuilder& AddRecord(uint32_t type, uint16_t misc,
                             const std::function<void(ByteWriter&)>& body);
  // Bytes put into the data as they are (damage, data that follows a record).
  PerfDataBuilder& AddRawBytes(std::vector<std::byte> bytes);

  // Records added between these two are zstd-compressed as one stream and cut into
  // COMPRESSED (81) or COMPRESSED2 (83) records, each carrying what `piece` uncompressed
  // bytes compress to: a piece that is not a multiple of the record sizes splits records
  // across two compressed records, as perf's ring-buffer chunks do.
  PerfDataBuilder& BeginCompressed();
  PerfDataBuilder& EndCompressed(size_t piece = 4096, uint32_t type = kRecordCompressed);

  // The file or the pipe stream.
  std::vector<std::byte> Build();
  const Layout& layout() const { return layout_; }
  // Writes Build() to `path`.
  void WriteFile(const std::string& path);
  // A `perf record --threads` directory: path/data (header, attrs, features, main data;
  // DIR_FORMAT added) and path/data.N for every N used with InDataFile().
  void WriteDirectory(const std::string& path);

 private:
  ByteWriter writer() const { return ByteWriter(order_); }
  // Appends a finished record (header included) to the current destination.
  PerfDataBuilder& Append(std::vector<std::byte> record);
  PerfDataBuilder& Finish(uint32_t type, uint16_t misc, ByteWriter& body);
  std::vector<std::byte>& Destination();
  std::vector<std::byte> BuildFile(const std::vector<std::byte>& data);
  std::vector<std::byte> BuildPipe(const std::vector<std::byte>& data);
  const EventAttr& AttrOf(size_t i) const;

  ByteOrder order_ = ByteOrder::kNative;
  Mode mode_ = Mode::kFile;
  bool perffile_ = false;
  uint32_t attr_size_ = 128;
  struct Attr {
    EventAttr attr;
    std::vector<uint64_t> ids;
  };
  std::vector<Attr> attrs_;
  std::map<uint32_t, std::vector<std::byte>> features_;
  std::vector<std::byte> main_data_;
  std::vector<uint64_t> main_offsets_;  // relative to the data section
  std::map<int, std::vector<std::byte>> data_files_;
  int current_file_ = -1;
  bool compressing_ = false;
  std::vector<std::byte> compress_buf_;
  Layout layout_;
};

}  // namespace readperf::testing
