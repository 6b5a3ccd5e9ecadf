// Helpers shared by the tests: a sink that writes down everything the reader delivers as text
// (so two readings compare with one EXPECT_EQ and differ readably), temporary directories,
// and reading builder output through PerfData.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "readperf/reader/perf_data.h"
#include "readperf/reader/sample.h"

namespace readperf::testing {

// The build-id of spin-fp's binary (/tmp/gold/spin, in tests/golden/buildid): builder files
// that map it get perf's symbols for it.
inline constexpr std::array<uint8_t, 20> kSpinBuildId = {0x30, 0xf1, 0x10, 0xc4, 0xba, 0x7a, 0x42,
                                                         0x42, 0x4c, 0xe5, 0xa8, 0x30, 0xf1, 0x59,
                                                         0x05, 0x3c, 0x61, 0xf2, 0x1c, 0xf7};

// Every field of a decoded sample, one "name=value" per field, arrays in full. Values are
// printed only where the sample_type has them, so the text is the decoding's whole result.
std::string Describe(const Sample& s, uint64_t read_format);

// Writes down each delivery as a line: "R <type>" for on_read, "U <type>" for user records,
// "K <type> evsel=<i> <Describe(sample)>" for kernel records, "S <type> <why>" for skips.
class CollectingSink : public EventSink {
 public:
  void on_read(const RecordView& r) override;
  void on_user_record(const RecordView& r) override;
  void on_kernel_record(const RecordView& r, const Sample& s, const Evsel* evsel) override;
  void on_skipped(const RecordView& r, const Error& why) override;

  std::vector<std::string> all;     // every line, in order
  std::vector<std::string> kernel;  // just the K lines
  std::vector<uint32_t> read_types;
  std::vector<uint64_t> kernel_times;  // sample.time of each K line
  std::vector<std::string> skipped;
};

// The outcome of opening and processing one input: its lines, and the error if any.
struct ReadResult {
  bool opened = false;
  bool ok = false;
  std::string error;  // Error::message() of the open or process failure
  CollectingSink sink;
};
ReadResult ReadPath(const std::string& path);

// A golden recording the builder writes: with `write_env` set in the environment, writes
// `bytes` to `path` first; returns the file's bytes (empty when it cannot be read), for the
// test to compare with `bytes`.
std::vector<std::byte> SyncBuilderGolden(const std::string& path,
                                         const std::vector<std::byte>& bytes,
                                         const char* write_env);

// A fresh directory under $TMPDIR, removed (with its contents) on destruction.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }
  std::string file(const std::string& name) const { return path_ + "/" + name; }
  // Writes `bytes` to `name` in the directory and returns its path.
  std::string Write(const std::string& name, const std::vector<std::byte>& bytes) const;

 private:
  std::string path_;
};

}  // namespace readperf::testing
