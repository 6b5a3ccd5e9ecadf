// Symbol archives: what ArchiveWriter writes, SymbolArchive reads back in place (links, long
// names, single-frame and uncompressed archives), the symbol lookup finds binaries and kallsyms
// in them, and damaged archives give errors or what came before the damage, never a crash.
#include "readperf/symbols/symbol_archive.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>
#include <zstd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "readperf/symbols/archive_writer.h"
#include "readperf/symbols/dso_loader.h"
#include "readperf/symbols/kallsyms.h"
#include "readperf/symbols/symbol_files.h"
#include "test_util.h"

namespace readperf {
namespace {

namespace fs = std::filesystem;

const char kWorkloadPath[] = "/opt/corpus/workload";
const char kWorkloadId[] = "3fdc407bf18951751b1505794bb68d13e97eadc6";

std::string workload_elf() {
  return (fs::path(__FILE__).parent_path() / "data" / "symbols" / "workload").string();
}

std::vector<uint8_t> read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<uint8_t>((std::istreambuf_iterator<char>(in)),
                              std::istreambuf_iterator<char>());
}

void write_bytes(const std::string& path, const std::vector<uint8_t>& bytes) {
  std::ofstream(path, std::ios::binary)
      .write(reinterpret_cast<const char*>(bytes.data()),
             static_cast<std::streamsize>(bytes.size()));
}

std::string read_fd(int fd) {
  std::string out;
  char buf[4096];
  ssize_t n;
  while ((n = ::read(fd, buf, sizeof buf)) > 0) out.append(buf, static_cast<size_t>(n));
  return out;
}

class SymbolArchiveTest : public ::testing::Test {
 protected:
  void SetUp() override {
    small_ = dir_.file("small.txt");
    std::ofstream(small_) << "ffffffff81000000 T _text\nffffffff81000100 T do_work\n";
    long_name_ = std::string(150, 'n') + "/" + std::string(120, 'm') + "/file";
    archive_ = dir_.file("syms.tar.zst");
    Result<ArchiveWriter> w = ArchiveWriter::create(archive_);
    ASSERT_TRUE(w) << w.error().message();
    std::string dir = std::string("opt/corpus/workload/") + kWorkloadId;
    Status added = w->add_file(dir + "/elf", workload_elf());
    ASSERT_TRUE(added) << added.error().message();
    ASSERT_TRUE(w->add_symlink(std::string(".build-id/3f/") + (kWorkloadId + 2), "../../" + dir));
    ASSERT_TRUE(w->add_file("[kernel.kallsyms]/no-build-id/kallsyms", small_));
    ASSERT_TRUE(w->add_file(long_name_, small_));
    ASSERT_TRUE(w->add_contents(jit_map_.substr(1), "1000 20 jitted_function\n2000 10 other\n"));
    ASSERT_TRUE(w->add_symlink("loop/a", "b"));
    ASSERT_TRUE(w->add_symlink("loop/b", "a"));
    ASSERT_TRUE(w->add_symlink("escape", "../../../../etc/passwd"));
    ASSERT_TRUE(w->finish());
  }

  testing::TempDir dir_;
  std::string small_, long_name_, archive_;
  // A JIT's map of a pid no process here has.
  std::string jit_map_ = "/tmp/perf-2147483000.map";
};

TEST_F(SymbolArchiveTest, ReadsBackWhatWasWritten) {
  Result<std::unique_ptr<SymbolArchive>> a = SymbolArchive::open(archive_);
  ASSERT_TRUE(a) << a.error().message();
  EXPECT_TRUE((*a)->warning().empty()) << (*a)->warning();
  // The link into the cache directory is followed, "./" and a leading "/" are ignored.
  std::string via_link = std::string(".build-id/3f/") + (kWorkloadId + 2) + "/elf";
  std::optional<std::string> m = (*a)->resolve("./" + via_link);
  ASSERT_TRUE(m);
  EXPECT_EQ(*m, std::string("opt/corpus/workload/") + kWorkloadId + "/elf");
  EXPECT_EQ((*a)->resolve("/" + via_link), m);
  Result<int> fd = (*a)->open_member(*m);
  ASSERT_TRUE(fd) << fd.error().message();
  std::vector<uint8_t> want = read_bytes(workload_elf());
  std::string got = read_fd(*fd);
  ::close(*fd);
  EXPECT_EQ(got, std::string(want.begin(), want.end()));
  // A second descriptor has its own offset.
  Result<int> again = (*a)->open_member(*m);
  ASSERT_TRUE(again);
  EXPECT_EQ(read_fd(*again).size(), want.size());
  ::close(*again);

  // Names past the 100 bytes of a ustar header (pax records).
  std::optional<std::string> long_member = (*a)->resolve(long_name_);
  ASSERT_TRUE(long_member);
  Result<std::string> text = (*a)->read_member(*long_member, 1 << 20);
  ASSERT_TRUE(text);
  EXPECT_EQ(*text, "ffffffff81000000 T _text\nffffffff81000100 T do_work\n");
  EXPECT_FALSE((*a)->read_member(*long_member, 10)) << "over the size allowed";

  EXPECT_EQ((*a)->list("[kernel.kallsyms]"), std::vector<std::string>{"no-build-id"});
  EXPECT_EQ((*a)->list(std::string(".build-id/3f/") + (kWorkloadId + 2)),
            std::vector<std::string>{"elf"});
  // Links in a loop name nothing; ".." stops at the archive's top.
  EXPECT_FALSE((*a)->resolve("loop/a"));
  EXPECT_FALSE((*a)->resolve("escape"));
  EXPECT_FALSE((*a)->resolve("opt/corpus/workload"));  // a directory, not a file
}

// What `tar --zstd` writes: the whole tar in one frame of unknown size.
TEST_F(SymbolArchiveTest, ReadsOneFrameAndUncompressedArchives) {
  std::vector<uint8_t> packed = read_bytes(archive_);
  std::vector<uint8_t> tar;
  {
    ZSTD_DCtx* d = ZSTD_createDCtx();
    ZSTD_inBuffer in{packed.data(), packed.size(), 0};
    std::vector<uint8_t> buf(1 << 16);
    while (in.pos < in.size) {
      ZSTD_outBuffer out{buf.data(), buf.size(), 0};
      size_t r = ZSTD_decompressStream(d, &out, &in);
      ASSERT_FALSE(ZSTD_isError(r));
      tar.insert(tar.end(), buf.begin(), buf.begin() + static_cast<ptrdiff_t>(out.pos));
    }
    ZSTD_freeDCtx(d);
  }
  std::vector<uint8_t> one_frame(ZSTD_compressBound(tar.size()) + 64);
  {
    ZSTD_CCtx* c = ZSTD_createCCtx();
    ZSTD_CCtx_setParameter(c, ZSTD_c_contentSizeFlag, 0);
    ZSTD_inBuffer in{tar.data(), tar.size(), 0};
    ZSTD_outBuffer out{one_frame.data(), one_frame.size(), 0};
    ASSERT_EQ(ZSTD_compressStream2(c, &out, &in, ZSTD_e_end), 0u);
    one_frame.resize(out.pos);
    ZSTD_freeCCtx(c);
  }
  EXPECT_EQ(ZSTD_getFrameContentSize(one_frame.data(), one_frame.size()), ZSTD_CONTENTSIZE_UNKNOWN);
  for (const std::vector<uint8_t>& bytes : {one_frame, tar}) {
    Result<std::unique_ptr<SymbolArchive>> a = SymbolArchive::from_bytes("x", bytes);
    ASSERT_TRUE(a) << a.error().message();
    std::optional<std::string> m =
        (*a)->resolve(std::string(".build-id/3f/") + (kWorkloadId + 2) + "/elf");
    ASSERT_TRUE(m);
    Result<std::string> got = (*a)->read_member(*m, 1 << 30);
    ASSERT_TRUE(got);
    EXPECT_EQ(got->size(), read_bytes(workload_elf()).size());
  }
}

// Cut at every 997th byte and with bytes flipped: an error, or the members before the damage;
// a member whose frame is damaged fails to read (its checksum), and nothing crashes.
TEST_F(SymbolArchiveTest, DamagedArchivesFailCleanly) {
  std::vector<uint8_t> good = read_bytes(archive_);
  for (size_t cut = 0; cut < good.size(); cut += 997) {
    std::vector<uint8_t> bytes(good.begin(), good.begin() + static_cast<ptrdiff_t>(cut));
    Result<std::unique_ptr<SymbolArchive>> a = SymbolArchive::from_bytes("cut", bytes);
    if (!a) continue;
    for (const std::string& name : (*a)->list("")) (void)(*a)->resolve(name);
    if (auto m = (*a)->resolve(std::string(".build-id/3f/") + (kWorkloadId + 2) + "/elf")) {
      Result<std::string> got = (*a)->read_member(*m, 1 << 30);
      if (got) {
        EXPECT_EQ(got->size(), read_bytes(workload_elf()).size());
      }
    }
  }
  std::vector<uint8_t> w = read_bytes(workload_elf());
  const std::string workload(w.begin(), w.end());
  size_t failed_reads = 0;
  for (size_t at = 0; at < good.size(); at += 331) {
    std::vector<uint8_t> bytes = good;
    bytes[at] ^= 0x5a;
    Result<std::unique_ptr<SymbolArchive>> a = SymbolArchive::from_bytes("flipped", bytes);
    if (!a) continue;
    if (auto m = (*a)->resolve(std::string(".build-id/3f/") + (kWorkloadId + 2) + "/elf")) {
      Result<std::string> got = (*a)->read_member(*m, 1 << 30);
      if (!got) {
        ++failed_reads;
      } else {
        EXPECT_EQ(*got, workload) << "a damaged member read as good at byte " << at;
      }
    }
  }
  EXPECT_GT(failed_reads, 0u);
  EXPECT_FALSE(SymbolArchive::from_bytes("empty", {}));
  EXPECT_FALSE(SymbolArchive::from_bytes("text", {'h', 'e', 'l', 'l', 'o'}));
}

// The lookup: an empty build-id cache and the archive find the binary by its build-id, and by
// its path when the recording has no build-id; kallsyms from the archive.
TEST_F(SymbolArchiveTest, SymbolLookupReadsTheArchive) {
  SymbolConfig cfg;
  cfg.buildid_dir = dir_.file("empty-cache");
  cfg.symfs = dir_.file("no-symfs");  // nothing of this machine counts
  cfg.archives = {archive_};
  DsoSymbols d = load_dso_symbols({kWorkloadPath, BuildId::from_hex(kWorkloadId)}, cfg);
  ASSERT_TRUE(d.found());
  EXPECT_EQ(d.origin, BinaryType::kBuildIdCache);
  EXPECT_EQ(d.symtab_path, archive_ + "/.build-id/3f/" + (kWorkloadId + 2) + "/elf");
  const Symbol* s = d.table.find(0x1460);  // perf script: "1460 recurse+0x10"
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->name, "recurse");

  DsoSymbols by_path = load_dso_symbols({kWorkloadPath, BuildId()}, cfg);
  ASSERT_TRUE(by_path.found());
  EXPECT_EQ(by_path.build_id.hex(), kWorkloadId);

  // Not in the archive: missing, as without it.
  DsoSymbols other = load_dso_symbols({"/usr/bin/other", BuildId::from_hex("0123456789")}, cfg);
  EXPECT_FALSE(other.found());

  cfg.symfs.clear();
  cfg.proc_kallsyms = dir_.file("no-proc-kallsyms");
  KernelSymbols k = load_kernel_symbols(BuildId(), RefRelocSym{"_text", 0xffffffff81000000}, cfg);
  ASSERT_TRUE(k.found());
  EXPECT_EQ(k.path, archive_ + "/[kernel.kallsyms]/no-build-id/kallsyms");
  ASSERT_NE(k.find(0xffffffff81000104), nullptr);
  EXPECT_EQ(k.find(0xffffffff81000104)->name, "do_work");
}

// A JIT's /tmp/perf-PID.map kept in the archive at its path.
TEST_F(SymbolArchiveTest, PerfMapFromTheArchive) {
  SymbolConfig cfg;
  cfg.buildid_dir = dir_.file("empty-cache");
  DsoSymbols without = load_dso_symbols({jit_map_, BuildId(), DsoKind::kPerfMap}, cfg);
  EXPECT_FALSE(without.found());
  cfg.archives = {archive_};
  DsoSymbols d = load_dso_symbols({jit_map_, BuildId(), DsoKind::kPerfMap}, cfg);
  ASSERT_TRUE(d.found());
  EXPECT_EQ(d.symtab_path, archive_ + jit_map_);
  ASSERT_NE(d.table.find(0x1005), nullptr);
  EXPECT_EQ(d.table.find(0x1005)->name, "jitted_function");
}

TEST_F(SymbolArchiveTest, UnreadableArchiveIsAWarning) {
  std::string bad = dir_.file("bad.tar.zst");
  write_bytes(bad, {0x28, 0xb5, 0x2f, 0xfd, 1, 2, 3});
  (void)take_symbol_warnings();
  SymbolConfig cfg;
  cfg.buildid_dir = dir_.file("empty-cache");
  cfg.symfs = dir_.file("no-symfs");
  cfg.archives = {bad, dir_.file("absent.tar.zst")};
  DsoSymbols d = load_dso_symbols({kWorkloadPath, BuildId::from_hex(kWorkloadId)}, cfg);
  EXPECT_FALSE(d.found());
  std::vector<std::string> w = take_symbol_warnings();
  ASSERT_EQ(w.size(), 2u);
  EXPECT_NE(w[0].find("bad.tar.zst"), std::string::npos) << w[0];
  EXPECT_NE(w[1].find("absent.tar.zst"), std::string::npos) << w[1];
  // Said once.
  (void)load_dso_symbols({kWorkloadPath, BuildId::from_hex(kWorkloadId)}, cfg);
  EXPECT_TRUE(take_symbol_warnings().empty());
}

}  // namespace
}  // namespace readperf
